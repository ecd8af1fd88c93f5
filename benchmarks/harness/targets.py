"""The targets, judged PASS or FAIL at the largest size: wall-time ratios between variants, peak memory, and
time per line across sizes."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from .measuring import Measurement
from .variants import PARSE_ONLY_VARIANT

TARGET_RSS_MIB = 200.0


@dataclass(slots=True)
class Ratio:
    name: str
    value: float | None
    target: str
    passed: bool | None
    detail: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def ratios(measurements: list[Measurement], sizes: list[str]) -> list[Ratio]:
    """The targets of the issue, judged at the largest size (time per line across all sizes)."""
    largest = sizes[-1]
    at = {m.variant: m for m in measurements if m.size == largest}
    out: list[Ratio] = []

    def ratio(name: str, numerator: str, denominator: str, target: str, check: Callable[[float], bool | None]) -> None:
        if numerator not in at or denominator not in at or at[denominator].wall_s <= 0:
            out.append(Ratio(name, None, target, None, f"{numerator} or {denominator} not measured"))
            return
        value = at[numerator].wall_s / at[denominator].wall_s
        detail = f"{at[numerator].wall_s:.2f} s / {at[denominator].wall_s:.2f} s at {largest}"
        out.append(Ratio(name, round(value, 3), target, check(value), detail))

    ratio(
        "semgrep (Go part) / watchlint cold (Go only)",
        "semgrep, Go part",
        "watchlint cold, Go only",
        ">= 10",
        lambda v: v >= 10,
    )
    ratio(
        "watchlint cold Go / parse floor Go (all cores)",
        "watchlint cold, Go only",
        "parse floor Go",
        "<= 1.5",
        lambda v: v <= 1.5,
    )
    ratio(  # not a target: the bound the one above cannot go below, whatever the analysis costs
        f"{PARSE_ONLY_VARIANT} / parse floor Go (all cores)",
        PARSE_ONLY_VARIANT,
        "parse floor Go",
        "none: the bound of the ratio above",
        lambda v: None,
    )
    ratio(
        "watchlint cold Python / parse floor Python (all cores)",
        "watchlint cold, Python only",
        "parse floor Python",
        "<= 1.5",
        lambda v: v <= 1.5,
    )
    ratio("warm / cold", "watchlint warm", "watchlint cold", "<= 0.10", lambda v: v <= 0.10)
    for language in ("Go", "Python"):
        touched = f"watchlint one {language} file touched"
        ratio(f"one {language} file touched / cold", touched, "watchlint cold", "<= 0.15", lambda v: v <= 0.15)
    watchlint = [m for v, m in at.items() if v.startswith("watchlint") and "start-up" not in v]
    if watchlint:
        single = max(watchlint, key=lambda m: m.peak_rss_mib)
        pool = max(watchlint, key=lambda m: m.pool_hwm_mib)
        out.append(
            Ratio(
                "peak RSS, largest single watchlint process (MiB)",
                round(single.peak_rss_mib, 1),
                f"<= {TARGET_RSS_MIB:.0f}",
                single.peak_rss_mib <= TARGET_RSS_MIB,
                f"{single.variant} at {largest} (time -v maximum resident set size)",
            )
        )
        out.append(
            Ratio(
                "peak RSS, sum over watchlint's pool (MiB)",
                round(pool.pool_hwm_mib, 1),
                f"<= {TARGET_RSS_MIB:.0f}",
                pool.pool_hwm_mib <= TARGET_RSS_MIB,
                f"{pool.variant} at {largest}: sum of each process's VmHWM (upper bound); "
                f"sampled sums: RSS {pool.pool_rss_mib:.1f} MiB, PSS {pool.pool_pss_mib:.1f} MiB",
            )
        )
    out.extend(_per_line(measurements, sizes))
    return out


def _per_line(measurements: list[Measurement], sizes: list[str]) -> list[Ratio]:
    """Wall time per analyzed line at each size relative to the smallest; also net of the start-up (the
    interpreter, imports and catalogue, measured on an empty folder), which weighs most on the smallest tree."""
    startup = {m.size: m.wall_s for m in measurements if m.variant == "watchlint start-up (empty folder)"}
    out = []
    # The run without analysis is not a target: its figures show how much of the fall the fixed costs make.
    for variant, net in itertools.product(("watchlint cold", "watchlint cold -j1", PARSE_ONLY_VARIANT), (False, True)):
        if net and not startup:
            continue
        per_line = {
            m.size: (m.wall_s - (startup.get(m.size, 0.0) if net else 0.0)) / m.lines
            for m in measurements
            if m.variant == variant and m.lines
        }
        if len(per_line) < 2 or sizes[0] not in per_line:
            continue
        base, judged = per_line[sizes[0]], variant != PARSE_ONLY_VARIANT
        spread = {size: value / base for size, value in per_line.items()}
        worst = max(spread.values(), key=lambda value: abs(value - 1))
        detail = ", ".join(f"{size}: {value * 1e6:.1f} us/line" for size, value in per_line.items())
        out.append(
            Ratio(
                f"time per line, {variant}{', net of start-up' if net else ''}, relative to {sizes[0]} (worst size)",
                round(worst, 3),
                "within 0.75..1.25" if judged else "none: the fixed costs alone",
                0.75 <= worst <= 1.25 if judged else None,
                detail,
            )
        )
    return out
