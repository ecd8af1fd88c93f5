"""Inline expectations in fixture files (DESIGN §2.4), parsed and compared with a report in both directions.

r.Get(ctx, key, &cm)   // expect: WL002 "ConfigMap informer" [fix=safe]
r.Get(ctx, key, &sec)  // ok: WL002 [reason=disable-for]
r.Get(ctx, key, &pod)  // ok: WL002 "only when --pods is set" [reason=off-by-default]  (the evidence's text)
// expect+1: WL004 [suppressed]
@kopf.on.event("pods")  # todo: WL001
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from watchlint.engine import Report

_ANNOTATION = re.compile(
    r"(?:#|//)\s*(?P<verb>expect|ok|todo)(?:\+(?P<offset>\d+))?:\s*"
    r"(?P<codes>WL\d{3}(?:\s*,\s*WL\d{3})*)"
    r"(?:\s+\"(?P<substring>[^\"]*)\")?"
    r"(?:\s+\[(?P<flags>[^\]]*)\])?"
    r"(?:\s+\"(?P<substring_after>[^\"]*)\")?"  # `[reason=…] "text"` reads the same as `"text" [reason=…]`
)
SUFFIXES = (".go", ".py")
FLAGS = frozenset({"fix", "reason", "suppressed"})  # what an annotation's brackets may say


@dataclass(frozen=True)
class Expectation:
    verb: str  # expect | ok | todo
    path: str  # relative to the case folder
    line: int  # the line the expectation is about
    code: str
    substring: str | None
    flags: frozenset[str]
    source: str  # the annotated source line, for failure messages

    def flag(self, name: str) -> str | None:
        for item in self.flags:
            key, _, value = item.partition("=")
            if key == name:
                return value or key
        return None


@dataclass
class Comparison:
    problems: list[str] = field(default_factory=list)

    def fail(self, message: str) -> None:
        self.problems.append(message)


def parse_expectations(case: Path) -> list[Expectation]:
    expectations = []
    for path in sorted(case.rglob("*")):
        if path.suffix not in SUFFIXES or not path.is_file():
            continue
        relative = path.relative_to(case).as_posix()
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, text in enumerate(lines, start=1):
            for match in _ANNOTATION.finditer(text):
                target = number + int(match["offset"] or 0)
                flags = frozenset(item.strip() for item in (match["flags"] or "").split(",") if item.strip())
                unknown = sorted(item for item in flags if item.partition("=")[0] not in FLAGS)
                if unknown:  # `[disable-for]` for `[reason=disable-for]` would check nothing
                    raise ValueError(f"{relative}:{number}: unknown annotation flag {unknown[0]!r}")
                shown = lines[target - 1].strip() if target <= len(lines) else ""
                for code in re.split(r"\s*,\s*", match["codes"]):
                    expectations.append(
                        Expectation(
                            match["verb"],
                            relative,
                            target,
                            code,
                            match["substring"] or match["substring_after"],
                            flags,
                            shown,
                        )
                    )
    return expectations


def compare(expectations: list[Expectation], report: Report) -> list[str]:
    """Return every difference between the annotations and the report; empty when they agree."""
    result = Comparison()
    actual = Counter((f.span.path, f.span.line, f.code) for f in report.findings)
    expected = Counter((e.path, e.line, e.code) for e in expectations if e.verb == "expect")
    by_place = {(f.span.path, f.span.line, f.code): f for f in report.findings}
    for place, count in (expected - actual).items():
        source = next(e.source for e in expectations if (e.path, e.line, e.code) == place)
        reasons = [f"{m.code} [{m.reason}]" for m in report.mitigated if (m.span.path, m.span.line) == place[:2]]
        mitigated = f" (mitigated: {', '.join(reasons)})" if reasons else ""
        result.fail(f"missing {place[2]} at {place[0]}:{place[1]} x{count}{mitigated}: {source}")
    for place, count in (actual - expected).items():
        finding = by_place[place]
        result.fail(f"unexpected {place[2]} at {place[0]}:{place[1]} x{count}: {finding.message}")
    for expectation in expectations:
        _check_one(expectation, by_place, report, result)
    return result.problems


def _check_one(expectation: Expectation, by_place: dict, report: Report, result: Comparison) -> None:  # type: ignore[type-arg]
    place = (expectation.path, expectation.line, expectation.code)
    where = f"{expectation.path}:{expectation.line}"
    finding = by_place.get(place)
    if expectation.verb == "todo" and finding is not None:
        result.fail(f"todo {expectation.code} at {where} now fires: promote it to expect")
    if expectation.verb == "ok":
        reason = expectation.flag("reason")
        mitigated = [m for m in report.mitigated if (m.span.path, m.span.line) == (expectation.path, expectation.line)]
        if reason is not None and not any(str(m.reason) == reason for m in mitigated):
            found = ", ".join(f"{m.code} [{m.reason}]" for m in mitigated) or "nothing"
            result.fail(f"ok {expectation.code} at {where}: expected reason {reason}, got {found}")
        wanted = expectation.substring
        evidence = [m.evidence.message for m in mitigated if m.evidence is not None]
        if wanted is not None and not any(wanted in text for text in evidence):
            result.fail(f"ok {expectation.code} at {where}: no evidence says {wanted!r}: {evidence}")
    if expectation.verb != "expect" or finding is None:
        return
    if expectation.substring is not None and expectation.substring not in finding.message:
        result.fail(f"{expectation.code} at {where}: message lacks {expectation.substring!r}: {finding.message}")
    if (expectation.flag("suppressed") is not None) != finding.is_suppressed:
        result.fail(f"{expectation.code} at {where}: suppressed={finding.is_suppressed}, annotation disagrees")
    fix = expectation.flag("fix")
    if fix is not None:
        applicability = str(finding.fixes[0].applicability) if finding.fixes and finding.fixes[0].edits else "none"
        if applicability != fix:
            result.fail(f"{expectation.code} at {where}: first fix is {applicability}, expected {fix}")
