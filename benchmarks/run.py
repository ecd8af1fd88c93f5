"""Benchmark watchlint against its parse floor and a naive semgrep rule set, side by side, in one run.

    python benchmarks/run.py [--sizes 1,2,4,8] [--path DIR] [--skip-semgrep] [--repeat N] [--snapshot REV]
                             [--out benchmarks/results]

For each size, the synthetic monorepo of benchmarks/generate.py is written into a work folder (or the tree
given with --path is used as is), then every variant runs in its own subprocess, measured by
`/usr/bin/time -v` when present (wall, user+sys CPU, peak RSS of the largest process) and by a sampler of
/proc that sums the memory of the whole process tree (the pool). The table and the target ratios are
printed; everything is written to `<out>/<YYYY-MM-DD>.json`. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402  # benchmarks/ is not a package
from harness.machine import (  # noqa: E402
    describe_machine,
    describe_watchlint,
    ensure_semgrep,
    extract_snapshot,
    watchlint_executable,
)
from harness.measuring import DISTURBED_CORES, QUIET_CORES, Gate, Measurement  # noqa: E402
from harness.measuring import run_once as run_once  # noqa: E402  # tests call run.run_once
from harness.targets import Ratio, ratios  # noqa: E402
from harness.variants import Tools, Tree, describe_tree, load_floor, measure_tree, shown  # noqa: E402


def table(measurements: list[Measurement]) -> str:
    header = (
        "size",
        "variant",
        "wall s",
        "CPU s",
        "RSS MiB",
        "pool MiB",
        "pool PSS",
        "lines",
        "lines/s",
        "others CPU s",
    )
    rows = [header]
    for m in measurements:
        rows.append(
            (
                m.size,
                m.variant,
                f"{m.wall_s:.2f}",
                f"{m.cpu_s:.2f}",
                f"{m.peak_rss_mib:.0f}",
                f"{m.pool_hwm_mib:.0f}",
                f"{m.pool_pss_mib:.0f}",
                f"{m.lines:,}",
                f"{m.lines_per_s:,.0f}" if m.lines else "-",
                f"{m.others_cpu_s:.1f}",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = []
    for index, row in enumerate(rows):
        cells = [cell.ljust(widths[i]) if i < 2 else cell.rjust(widths[i]) for i, cell in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
        if index == 0:
            lines.append("  ".join("-" * width for width in widths))
    return "\n".join(lines)


def ratio_table(items: list[Ratio]) -> str:
    lines = []
    for item in items:
        verdict = {True: "PASS", False: "FAIL", None: "n/a "}[item.passed]
        value = "-" if item.value is None else f"{item.value:g}"
        lines.append(f"{verdict}  {item.name}: {value} (target {item.target}; {item.detail})")
    return "\n".join(lines)


def _trees(args: argparse.Namespace, work: Path, floor: ModuleType, progress: Callable[[str], None]) -> Iterator[Tree]:
    if args.path is not None:
        root = Path(args.path).resolve()
        yield describe_tree(root.name, root, None, floor)
        return
    for scale in args.sizes:
        root = work / f"tree-{scale}x"
        shutil.rmtree(root, ignore_errors=True)
        progress(f"generating {scale}x into {root}")
        manifest = generate.generate(root, scale, args.seed)
        yield describe_tree(f"{scale}x", root, manifest.to_json(), floor)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,2,4,8", help="scale factors of the generated tree (default 1,2,4,8)")
    parser.add_argument("--path", help="benchmark this tree instead of generated ones")
    parser.add_argument("--skip-semgrep", action="store_true", help="do not install nor run semgrep")
    parser.add_argument("--out", type=Path, default=HERE / "results", help="folder of the results JSON")
    parser.add_argument("--repeat", type=int, default=3, help="runs per variant; medians are reported (default 3)")
    parser.add_argument("--seed", type=int, default=generate.DEFAULT_SEED)
    parser.add_argument("--work", type=Path, help="work folder (default: a temporary folder, removed at the end)")
    parser.add_argument("--watchlint", help="the watchlint executable (default: next to this Python)")
    parser.add_argument(
        "--quiet-wait",
        type=float,
        default=10.0,
        help="seconds to wait at most for other programs to leave the cores idle before each run (0: never wait)",
    )
    parser.add_argument(
        "--retries", type=int, default=1, help="extra tries of a run that other programs disturbed (default 1)"
    )
    parser.add_argument(
        "--snapshot",
        metavar="REV",
        help="benchmark watchlint as of this git revision (extracted with git archive) instead of the working tree",
    )
    args = parser.parse_args(argv)
    args.sizes = [int(size) for size in str(args.sizes).split(",") if size.strip()]

    def progress(message: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)

    semgrep = None if args.skip_semgrep else ensure_semgrep(progress)
    started = datetime.datetime.now(datetime.UTC)
    machine = describe_machine(semgrep)
    machine["load_average_start"] = os.getloadavg()
    with contextlib.ExitStack() as stack:
        if args.work is None:
            work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="watchlint-bench-")))
        else:
            work = args.work.resolve()
            work.mkdir(parents=True, exist_ok=True)
        floor_path = work / "floor.py"
        shutil.copyfile(HERE / "floor.py", floor_path)
        floor = load_floor(floor_path)
        gate = Gate(args.quiet_wait, args.retries)
        env = extract_snapshot(args.snapshot, work) if args.snapshot else None
        executable = watchlint_executable(args.watchlint)
        tools = Tools(executable, sys.executable, floor_path, semgrep, args.repeat, progress, gate, env)
        watchlint = describe_watchlint(sys.executable, env, args.snapshot)
        progress(f"watchlint: {watchlint}")
        measurements: list[Measurement] = []
        trees: list[dict[str, Any]] = []
        for tree in _trees(args, work, floor, progress):
            progress(f"{tree.label}: {tree.lines}")
            measured = measure_tree(tree, tools, work)
            measurements.extend(measured)
            trees.append(
                {
                    "size": tree.label,
                    "manifest": tree.manifest,
                    "analyzed_files": tree.files,
                    "analyzed_lines": tree.lines,
                    "touch_target": shown(tree.touch_target, tree.root),
                    "python_touch_target": shown(tree.python_touch_target, tree.root),
                    "watchlint_after": describe_watchlint(sys.executable, env, args.snapshot),
                }
            )
            if args.path is None:
                shutil.rmtree(tree.root, ignore_errors=True)
    sizes = [tree["size"] for tree in trees]
    judged = ratios(measurements, sizes)
    machine["load_average_end"] = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="watchlint-1x-") as scratch:
        one_x = generate.generate(Path(scratch), 1, args.seed).to_json()
    document = {
        "date": started.strftime("%Y-%m-%d"),
        "started": started.isoformat(timespec="seconds"),
        "finished": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "command": [Path(sys.argv[0]).name, *(argv if argv is not None else sys.argv[1:])],
        "repeat": args.repeat,
        "gate": {
            "quiet_wait_s": args.quiet_wait,
            "retries": args.retries,
            "quiet_cores": QUIET_CORES,
            "disturbed_cores": DISTURBED_CORES,
        },
        "machine": machine,
        "watchlint": watchlint,
        "generator": {
            "seed": args.seed,
            "one_x": {"total_lines": one_x["total_lines"], "lines": one_x["lines"], "files": one_x["files"]},
            "per_scale": {
                "go_operators": generate.GO_OPERATORS_PER_SCALE,
                "tools_modules": generate.TOOLS_MODULES_PER_SCALE,
                "kopf_projects": generate.KOPF_PROJECTS_PER_SCALE,
            },
        },
        "trees": trees,
        "measurements": [m.to_json() for m in measurements],
        "ratios": [item.to_json() for item in judged],
    }
    print()
    print(table(measurements))
    print()
    print(ratio_table(judged))
    args.out.mkdir(parents=True, exist_ok=True)
    destination = args.out / f"{document['date']}.json"
    destination.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    print(f"\nwrote {destination}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
