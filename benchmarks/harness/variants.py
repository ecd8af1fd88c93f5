"""The variants measured on one tree (watchlint cold, warm and touched, the parse floors, semgrep), run in
rounds, and the tree they see: its lines per language and the files a touched run edits."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from .machine import BENCHMARKS
from .measuring import Gate, Measurement, measure_runs

SEMGREP_RULES = BENCHMARKS / "semgrep-naive.yml"
PARSE_ONLY = BENCHMARKS / "parse_only.py"
PARSE_ONLY_VARIANT = "Go parse only (watchlint's run, no analysis)"


@dataclass(slots=True)
class Tree:
    """A tree to benchmark and the lines each variant sees."""

    label: str  # "1x", "2x", … or the path given
    root: Path
    manifest: dict[str, Any] | None
    touch_target: Path | None  # a Go controller
    python_touch_target: Path | None  # a Python file watchlint parses (kopf handlers in a generated tree)
    lines: dict[str, int]
    files: dict[str, int]


@dataclass(slots=True)
class Tools:
    watchlint: str
    python: str
    floor: Path
    semgrep: str | None
    repeat: int
    progress: Callable[[str], None]
    gate: Gate = field(default_factory=Gate)
    env: dict[str, str] | None = None  # the environment of every run (PYTHONPATH of a --snapshot)


def load_floor(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("watchlint_bench_floor", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def describe_tree(label: str, root: Path, manifest: dict[str, Any] | None, floor: ModuleType) -> Tree:
    """Count the lines watchlint analyzes per language, and the Go lines a scanner without excludes sees."""
    lines: dict[str, int] = {}
    files: dict[str, int] = {}
    for language in ("go", "python"):
        files[language], lines[language] = floor.analyzed_lines(root, language)
    all_go = [path for path in root.rglob("*.go") if path.is_file()]
    files["go-all"] = len(all_go)
    lines["go-all"] = sum(floor.count_lines(path.read_bytes()) for path in all_go)
    touch = None
    if manifest is not None and manifest.get("touch_target"):
        touch = root / manifest["touch_target"]
    else:
        controllers = sorted(root.rglob("*_controller.go"))
        touch = next((path for path in controllers if "vendor" not in path.parts), None)
    python_files = floor.candidate_files(root, "python")
    python_touch = next((path for path in python_files if _IMPORTS_CLIENT.search(path.read_bytes())), None)
    return Tree(label, root, manifest, touch, python_touch, lines, files)


# A module that imports kopf or a Kubernetes client: where an operator's handlers and calls are.
_IMPORTS_CLIENT = re.compile(rb"^(?:import|from)\s+(?:kopf|kubernetes|kubernetes_asyncio|lightkube|kr8s)\b", re.M)


@dataclass(slots=True)
class _Planned:
    """A variant of a round: `prepare` runs before each of its runs, `restore` after; `once` measures it in
    the first round only, without retries (a run that changes state)."""

    measurement: Measurement
    prepare: Callable[[], None] | None = None
    restore: Callable[[], None] | None = None
    once: bool = False
    accept_parse_errors: bool = False  # a floor on a given tree, which may hold files that do not parse


def measure_tree(tree: Tree, tools: Tools, work: Path) -> list[Measurement]:
    """Every variant on one tree, in rounds: each round runs every variant once, in a fixed order, so that
    the machine's drift over minutes weighs on both sides of a ratio alike rather than on one variant's
    three runs in a row."""
    semgrep_report = work / "semgrep.json"
    plan = _plan(tree, tools, work, semgrep_report)
    # Unmeasured, like the byte-compiling of the snapshot: a first run keeps the code dataclasses compile in
    # the user's cache folder (watchlint/codecache.py), as any run after a user's first does.
    primer = next(planned.measurement.command for planned in plan if planned.measurement.variant == "watchlint cold")
    subprocess.run(primer, cwd=tree.root, env=tools.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for round_number in range(1, tools.repeat + 1):
        for planned in plan:
            if planned.once and round_number > 1:
                continue
            _measure_once(planned, tree, tools)
        tools.progress(f"{tree.label} round {round_number}/{tools.repeat} done")
    for planned in plan:
        measurement = planned.measurement
        tools.progress(
            f"{tree.label} {measurement.variant}: {measurement.wall_s:.2f} s wall, {measurement.cpu_s:.2f} s CPU, "
            f"{measurement.peak_rss_mib:.0f} MiB"
        )
    if tools.semgrep is not None:
        scanned, findings = _semgrep_summary(semgrep_report, tree.root)
        plan[-1].measurement.lines = scanned
        plan[-1].measurement.note += f"; scanned {scanned} lines, {findings} findings"
    return [planned.measurement for planned in plan]


def _plan(tree: Tree, tools: Tools, work: Path, semgrep_report: Path) -> list[_Planned]:
    """The variants of a round, in their order."""
    cache = work / f"cache-{tree.label}"
    shutil.rmtree(cache, ignore_errors=True)
    report = work / "report.json"
    both = tree.lines["go"] + tree.lines["python"]
    plan: list[_Planned] = []

    def wl(*options: str) -> list[str]:
        return [tools.watchlint, "check", ".", "--format", "json", "-o", str(report), *options]

    def add(variant: str, command: list[str], lines: int, note: str = "", **how: Any) -> None:
        plan.append(_Planned(Measurement(tree.label, variant, command, lines, note=note), **how))

    empty = work / "empty"
    empty.mkdir(exist_ok=True)
    add("watchlint start-up (empty folder)", [tools.watchlint, "check", str(empty), "--no-cache"], 0)
    add("watchlint cold", wl("--no-cache"), both, "all cores (default -j)")
    add("watchlint cold -j1", wl("--no-cache", "-j1"), both, "one process")
    add("watchlint cold, Go only", wl("--no-cache", "--exclude", "*.py"), tree.lines["go"], "all cores")
    add("watchlint cold, Python only", wl("--no-cache", "--exclude", "*.go"), tree.lines["python"], "all cores")
    # The same run with the Go analysis taken out: what the Go / floor ratio would be if the analysis cost nothing.
    without_analysis = [tools.python, str(PARSE_ONLY), "check", ".", "--format", "json", "-o", str(report)]
    add(PARSE_ONLY_VARIANT, [*without_analysis, "--no-cache", "--exclude", "*.py"], tree.lines["go"], "all cores")
    add("watchlint fill cache", wl("--cache-dir", str(cache)), both, "cold run writing the facts cache", once=True)
    add("watchlint warm", wl("--cache-dir", str(cache)), both, "cache filled, nothing changed")
    for variant, target, comment in (
        ("watchlint one Go file touched", tree.touch_target, "//"),
        ("watchlint one Python file touched", tree.python_touch_target, "#"),
    ):
        if target is not None:
            prepare, restore = _toucher(target, comment)
            note = f"touched {shown(target, tree.root)}"
            add(variant, wl("--cache-dir", str(cache)), both, note, prepare=prepare, restore=restore)
    floor = [tools.python, str(tools.floor)]
    given = tree.manifest is None
    for language, key in (("go", "Go"), ("python", "Python")):
        for suffix, jobs, note in (("", str(os.cpu_count() or 1), "all cores"), (" -j1", "1", "one process")):
            command = [*floor, language, ".", "--jobs", jobs]
            add(f"parse floor {key}{suffix}", command, tree.lines[language], note, accept_parse_errors=given)
    if tools.semgrep is not None:
        command = [
            tools.semgrep,
            "--config",
            str(SEMGREP_RULES),
            "--metrics=off",
            "--disable-version-check",
            "--jobs",
            "2",
            "--quiet",
            "--include",
            "*.go",
            "--json",
            "--output",
            str(semgrep_report),
            ".",
        ]
        add("semgrep, Go part", command, tree.lines["go-all"], "--jobs 2, its default excludes")
    return plan


def _toucher(target: Path, comment: str) -> tuple[Callable[[], None], Callable[[], None]]:
    """Before every run (retries included) a new comment line at the end of the file, so that its unit alone is
    analyzed again; after the variant, the file as it was."""
    original = target.read_bytes()
    touches = 0

    def touch() -> None:
        nonlocal touches
        touches += 1
        with target.open("a", encoding="utf-8") as stream:
            stream.write(f"{comment} benchmark touch {touches}\n")

    def restore() -> None:
        target.write_bytes(original)

    return touch, restore


def _measure_once(planned: _Planned, tree: Tree, tools: Tools) -> None:
    measurement = planned.measurement
    tools.progress(f"{tree.label} {measurement.variant}")
    gate = Gate(tools.gate.max_wait, 0) if planned.once else tools.gate
    try:
        run = measure_runs(
            measurement.command,
            tree.root,
            gate,
            prepare=planned.prepare,
            env=tools.env,
            accept_parse_errors=planned.accept_parse_errors,
        )
    finally:
        if planned.restore is not None:
            planned.restore()
    measurement.runs.append(run)


def _semgrep_summary(report: Path, root: Path) -> tuple[int, int]:
    """Lines of the files semgrep scanned, and its number of findings."""
    try:
        document = json.loads(report.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0, 0
    scanned = document.get("paths", {}).get("scanned", [])
    lines = 0
    for name in scanned:
        with contextlib.suppress(OSError):
            data = (root / name).read_bytes()
            lines += data.count(b"\n") + (0 if not data or data.endswith(b"\n") else 1)
    return lines, len(document.get("results", []))


def shown(path: Path | None, root: Path) -> str | None:
    """A file of the tree as the results name it: relative to its root, with forward slashes."""
    return path.relative_to(root).as_posix() if path is not None else None
