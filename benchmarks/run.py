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
import importlib.metadata
import importlib.util
import io
import itertools
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402  # benchmarks/ is not a package

TIME = Path("/usr/bin/time")
SEMGREP_VENV = HERE / ".semgrep-venv"
SEMGREP_RULES = HERE / "semgrep-naive.yml"
SAMPLE_SECONDS = 0.03
PSS_EVERY = 5  # ticks
TARGET_RSS_MIB = 200.0
QUIET_CORES = 0.15  # a machine busier than this (other programs) is not quiet enough to start a run
DISTURBED_CORES = 0.10  # a run during which others used more than this (on average) is retried


@dataclass(frozen=True, slots=True)
class Gate:
    """When to start a run: after at most max_wait seconds of waiting for a quiet machine; retries."""

    max_wait: float = 10.0
    retries: int = 1


# ---------------------------------------------------------------------------------------------------------
# Measuring one command
# ---------------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Run:
    """One execution of a command."""

    wall_s: float
    cpu_s: float  # user + system of the whole process tree (waited-for children included)
    peak_rss_mib: float  # the largest single process (time -v's maximum resident set size)
    pool_rss_mib: float  # the largest sum of the tree's resident sets, sampled
    pool_pss_mib: float  # the same with proportional set sizes (shared pages counted once)
    pool_hwm_mib: float  # the sum over the tree's processes of each one's own peak (VmHWM): an upper bound
    processes: int  # the most processes seen at once (excluding /usr/bin/time)
    others_cpu_s: float  # CPU time other programs of the machine used meanwhile (from /proc/stat)
    exit_code: int
    waited_s: float = 0.0  # how long the run waited for the machine to be quiet
    attempts: int = 1  # runs taken to get this one (others disturbed the previous ones)


@dataclass(slots=True)
class Measurement:
    """A variant measured `repeat` times; the figures are medians (wall, CPU) and maxima (memory)."""

    size: str
    variant: str
    command: list[str]
    lines: int  # lines of the files this variant analyzes or scans
    runs: list[Run] = field(default_factory=list)
    note: str = ""

    @property
    def wall_s(self) -> float:
        return statistics.median(run.wall_s for run in self.runs)

    @property
    def cpu_s(self) -> float:
        return statistics.median(run.cpu_s for run in self.runs)

    @property
    def peak_rss_mib(self) -> float:
        return max(run.peak_rss_mib for run in self.runs)

    @property
    def pool_rss_mib(self) -> float:
        return max(run.pool_rss_mib for run in self.runs)

    @property
    def pool_hwm_mib(self) -> float:
        return max(run.pool_hwm_mib for run in self.runs)

    @property
    def pool_pss_mib(self) -> float:
        return max(run.pool_pss_mib for run in self.runs)

    @property
    def others_cpu_s(self) -> float:
        return statistics.median(run.others_cpu_s for run in self.runs)

    @property
    def lines_per_s(self) -> float:
        return self.lines / self.wall_s if self.wall_s > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "variant": self.variant,
            "command": self.command,
            "lines": self.lines,
            "wall_s": round(self.wall_s, 3),
            "cpu_s": round(self.cpu_s, 3),
            "peak_rss_mib": round(self.peak_rss_mib, 1),
            "pool_rss_mib": round(self.pool_rss_mib, 1),
            "pool_hwm_mib": round(self.pool_hwm_mib, 1),
            "pool_pss_mib": round(self.pool_pss_mib, 1),
            "lines_per_s": round(self.lines_per_s),
            "others_cpu_s": round(self.others_cpu_s, 2),
            "note": self.note,
            "runs": [asdict(run) for run in self.runs],
        }


class TreeSampler(threading.Thread):
    """Samples the memory of a process and its descendants from /proc until stopped.

    Per tick: the sum of VmRSS (shared pages of forked workers count in each), and each process's VmHWM
    (its own peak, read while it is alive; their sum bounds the pool's peak from above, peaks need not
    coincide); every PSS_EVERY ticks, the sum of Pss (each page split among the processes sharing it: what
    the pool really costs).
    """

    def __init__(self, root_pid: int, skip_root: bool) -> None:
        super().__init__(daemon=True)
        self.root_pid = root_pid
        self.skip_root = skip_root
        self.stopped = threading.Event()
        self.max_rss_kib = 0
        self.max_pss_kib = 0
        self.max_processes = 0
        self.ticks = 0
        self.hwm_kib: dict[int, int] = {}

    def run(self) -> None:
        while not self.stopped.is_set():
            self.sample()
            self.stopped.wait(SAMPLE_SECONDS)

    def stop(self) -> None:
        self.stopped.set()
        self.join()

    def sample(self) -> None:
        pids = _descendants(self.root_pid)
        if not self.skip_root:
            pids.insert(0, self.root_pid)
        self.ticks += 1
        with_pss = self.ticks % PSS_EVERY == 1  # smaps_rollup walks page tables: not on every tick
        rss = pss = 0
        for pid in pids:
            memory = _memory(pid, with_pss)
            if memory is None:
                continue
            rss += memory[0]
            pss += memory[1]
            self.hwm_kib[pid] = max(self.hwm_kib.get(pid, 0), memory[2])
        self.max_rss_kib = max(self.max_rss_kib, rss)
        if with_pss:
            self.max_pss_kib = max(self.max_pss_kib, pss)
        self.max_processes = max(self.max_processes, len(pids))


def _descendants(pid: int) -> list[int]:
    found: list[int] = []
    pending = [pid]
    while pending:
        current = pending.pop()
        children: list[int] = []
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as stream:
                    children.extend(int(child) for child in stream.read().split())
        except OSError:
            continue
        found.extend(children)
        pending.extend(children)
    return found


def _memory(pid: int, with_pss: bool) -> tuple[int, int, int] | None:
    """(VmRSS, Pss or 0, VmHWM) in KiB, or None for a process that is gone."""
    try:
        with open(f"/proc/{pid}/status") as stream:
            status = stream.read()
        rollup = ""
        if with_pss:
            with open(f"/proc/{pid}/smaps_rollup") as stream:
                rollup = stream.read()
    except OSError:
        return None
    rss = re.search(r"^VmRSS:\s+(\d+)", status, re.MULTILINE)
    hwm = re.search(r"^VmHWM:\s+(\d+)", status, re.MULTILINE)
    pss = re.search(r"^Pss:\s+(\d+)", rollup, re.MULTILINE)
    if rss is None or hwm is None:
        return None  # a zombie
    return int(rss.group(1)), int(pss.group(1)) if pss else 0, int(hwm.group(1))


def _busy_jiffies() -> int:
    """Jiffies every CPU of the machine spent on something other than idling."""
    with open("/proc/stat") as stream:
        fields = [int(value) for value in stream.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields[:8]) - idle


def machine_busy(window: float = 1.0) -> float:
    """How many cores the machine kept busy over the next `window` seconds."""
    ticks = os.sysconf("SC_CLK_TCK")
    before = _busy_jiffies()
    time.sleep(window)
    return (_busy_jiffies() - before) / ticks / window


def wait_for_quiet(max_wait: float) -> float:
    """Wait (at most max_wait seconds) until other programs leave the cores idle; return the seconds waited.

    The machine may be shared (other sessions run test suites): measuring while they run inflates the wall
    time of every variant, unevenly."""
    started = time.monotonic()
    while time.monotonic() - started < max_wait:
        if machine_busy() < QUIET_CORES:
            break
    return time.monotonic() - started


def measure_runs(
    command: Sequence[str],
    cwd: Path,
    gate: Gate,
    prepare: Callable[[], None] | None = None,
    env: dict[str, str] | None = None,
    accept_parse_errors: bool = False,
) -> Run:
    """One run, taken when the machine is quiet; retried (at most gate.retries times) when other programs
    used more than a tenth of a core meanwhile, keeping the least disturbed run."""
    best: Run | None = None
    for attempt in range(1, gate.retries + 2):
        waited = wait_for_quiet(gate.max_wait) if gate.max_wait > 0 else 0.0
        if prepare is not None:
            prepare()
        run = run_once(command, cwd, env, accept_parse_errors=accept_parse_errors)
        run.waited_s = round(waited, 1)
        run.attempts = attempt
        if best is None or run.others_cpu_s < best.others_cpu_s:
            best = run
        if run.others_cpu_s <= DISTURBED_CORES * run.wall_s:
            break
    if best is None:
        raise ValueError("retries must not be negative")
    best.attempts = attempt
    return best


def _output_file(command: Sequence[str]) -> Path | None:
    """The report file a command writes (watchlint's -o, semgrep's --output)."""
    for flag in ("-o", "--output"):
        if flag in command[:-1]:
            return Path(command[list(command).index(flag) + 1])
    return None


def _check_outputs(
    command: Sequence[str], cwd: Path, stdout: bytes, stderr: bytes, accept_parse_errors: bool = False
) -> str | None:
    """Why a run that exited with an accepted code still failed (a crash exits with 1 too), or None. A floor
    that cannot parse some files fails on a generated tree (the generator wrote broken code), not on a given
    one, where watchlint reports the same files as syntax errors."""
    text = stderr.decode("utf-8", errors="replace")
    if "Traceback (most recent call last)" in text:
        return "a Python traceback on standard error"
    report = _output_file(command)
    if report is not None:
        try:
            json.loads((cwd / report).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return f"no readable JSON report in {report}"
    if stdout.strip().startswith(b"{"):
        with contextlib.suppress(ValueError):
            summary = json.loads(stdout)
            if summary.get("errors") and not accept_parse_errors:
                return f"{summary['errors']} files failed to parse"
    return None


def run_once(
    command: Sequence[str],
    cwd: Path,
    env: dict[str, str] | None = None,
    ok_codes: Sequence[int] = (0, 1),
    accept_parse_errors: bool = False,
) -> Run:
    """Run a command once and measure it (see the module docstring)."""
    report = _output_file(command)
    if report is not None:
        (cwd / report).unlink(missing_ok=True)
    ticks = os.sysconf("SC_CLK_TCK")
    use_time = TIME.is_file()
    with tempfile.NamedTemporaryFile("r", suffix=".time", delete=False) as time_file:
        report_path = Path(time_file.name)
    argv = [str(TIME), "-v", "-o", str(report_path), *command] if use_time else list(command)
    before_usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    before_self = resource.getrusage(resource.RUSAGE_SELF)
    before_busy = _busy_jiffies()
    started = time.perf_counter()
    process = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    sampler = TreeSampler(process.pid, skip_root=use_time)
    sampler.start()
    stdout, stderr = process.communicate()
    wall = time.perf_counter() - started
    sampler.stop()
    busy = (_busy_jiffies() - before_busy) / ticks
    after_self = resource.getrusage(resource.RUSAGE_SELF)
    after_usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = (after_self.ru_utime - before_self.ru_utime) + (after_self.ru_stime - before_self.ru_stime)
    exit_code = process.returncode
    cpu = (after_usage.ru_utime - before_usage.ru_utime) + (after_usage.ru_stime - before_usage.ru_stime)
    peak_kib = max(sampler.hwm_kib.values(), default=0)
    if use_time:
        text = report_path.read_text(encoding="utf-8", errors="replace")
        parsed = _parse_time_report(text)
        wall = parsed.get("wall", wall)
        cpu = parsed.get("user", 0.0) + parsed.get("system", 0.0)
        peak_kib = max(peak_kib, int(parsed.get("max_rss_kib", 0)))
        status = re.search(r"Exit status: (\d+)", text)
        signal = re.search(r"Command terminated by signal (\d+)", text)
        exit_code = int(status.group(1)) if status else (-int(signal.group(1)) if signal else exit_code)
    report_path.unlink(missing_ok=True)
    problem = None if exit_code in ok_codes else f"exit code {exit_code}"
    problem = problem or _check_outputs(command, cwd, stdout, stderr, accept_parse_errors)
    if problem is not None:
        message = stderr.decode("utf-8", errors="replace")[-3000:]
        raise RuntimeError(f"{' '.join(command)} failed in {cwd} ({problem}):\n{message}")
    return Run(
        wall_s=wall,
        cpu_s=cpu,
        peak_rss_mib=peak_kib / 1024,
        pool_rss_mib=sampler.max_rss_kib / 1024,
        pool_pss_mib=sampler.max_pss_kib / 1024,
        pool_hwm_mib=sum(sampler.hwm_kib.values()) / 1024,
        processes=sampler.max_processes,
        others_cpu_s=max(0.0, busy - cpu - own),  # own: this script and its sampler
        exit_code=exit_code,
    )


def _parse_time_report(text: str) -> dict[str, float]:
    """Wall, user, system and maximum RSS from GNU time's -v report."""
    values: dict[str, float] = {}
    for line in text.splitlines():
        key, _, value = line.strip().rpartition(": ")
        if key == "User time (seconds)":
            values["user"] = float(value)
        elif key == "System time (seconds)":
            values["system"] = float(value)
        elif key == "Maximum resident set size (kbytes)":
            values["max_rss_kib"] = float(value)
        elif key.startswith("Elapsed (wall clock) time"):
            parts = [float(part) for part in value.split(":")]
            seconds = 0.0
            for part in parts:
                seconds = seconds * 60 + part
            values["wall"] = seconds
    return values


# ---------------------------------------------------------------------------------------------------------
# The variants
# ---------------------------------------------------------------------------------------------------------


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
    gate: Gate = Gate()
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
    add("watchlint fill cache", wl("--cache-dir", str(cache)), both, "cold run writing the facts cache", once=True)
    add("watchlint warm", wl("--cache-dir", str(cache)), both, "cache filled, nothing changed")
    for variant, target, comment in (
        ("watchlint one Go file touched", tree.touch_target, "//"),
        ("watchlint one Python file touched", tree.python_touch_target, "#"),
    ):
        if target is not None:
            prepare, restore = _toucher(target, comment)
            note = f"touched {_shown(target, tree.root)}"
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


# ---------------------------------------------------------------------------------------------------------
# Targets
# ---------------------------------------------------------------------------------------------------------


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

    def ratio(name: str, numerator: str, denominator: str, target: str, check: Callable[[float], bool]) -> None:
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
    for variant, net in itertools.product(("watchlint cold", "watchlint cold -j1"), (False, True)):
        if net and not startup:
            continue
        per_line = {
            m.size: (m.wall_s - (startup.get(m.size, 0.0) if net else 0.0)) / m.lines
            for m in measurements
            if m.variant == variant and m.lines
        }
        if len(per_line) < 2 or sizes[0] not in per_line:
            continue
        base = per_line[sizes[0]]
        spread = {size: value / base for size, value in per_line.items()}
        worst = max(spread.values(), key=lambda value: abs(value - 1))
        detail = ", ".join(f"{size}: {value * 1e6:.1f} us/line" for size, value in per_line.items())
        out.append(
            Ratio(
                f"time per line, {variant}{', net of start-up' if net else ''}, relative to {sizes[0]} (worst size)",
                round(worst, 3),
                "within 0.75..1.25",
                0.75 <= worst <= 1.25,
                detail,
            )
        )
    return out


# ---------------------------------------------------------------------------------------------------------
# Machine, semgrep, report
# ---------------------------------------------------------------------------------------------------------


def describe_machine(semgrep: str | None) -> dict[str, Any]:
    """uname, CPU model, cores, memory, Python and package versions."""
    cpuinfo = _read("/proc/cpuinfo")
    model = re.search(r"^model name\s*:\s*(.+)$", cpuinfo, re.MULTILINE)
    memory = re.search(r"^MemTotal:\s+(\d+) kB", _read("/proc/meminfo"), re.MULTILINE)
    versions: dict[str, str | None] = {}
    for package in ("watchlint", "tree-sitter", "tree-sitter-go", "libcst", "click"):
        try:
            versions[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            versions[package] = None
    if semgrep is not None:
        versions["semgrep"] = _output([semgrep, "--version", "--disable-version-check"]).strip() or None
    return {
        "uname": _output(["uname", "-a"]).strip() or " ".join(platform.uname()),
        "cpu_model": model.group(1).strip() if model else platform.processor(),
        "cores": os.cpu_count(),
        "cores_usable": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "memory_mib": int(memory.group(1)) // 1024 if memory else None,
        "python": sys.version.split()[0],
        "python_executable": sys.executable,
        "gnu_time": TIME.is_file(),
        "versions": versions,
    }


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def describe_watchlint(python: str, env: dict[str, str] | None, snapshot: str | None) -> dict[str, Any]:
    """Which watchlint code runs: its files, commit, uncommitted changes and the facts cache's fingerprint
    of its code (which changes with any edit of watchlint/)."""
    probe = "import watchlint, watchlint.cache as c; print(watchlint.__file__); print(c.code_fingerprint()[:16])"
    with tempfile.TemporaryDirectory() as elsewhere:  # not the checkout: `python -c` imports from the cwd first
        shown = subprocess.run(
            [python, "-c", probe], capture_output=True, text=True, env=env, cwd=elsewhere, check=False
        ).stdout.split()
    git = ["git", "--no-optional-locks", "-C", str(REPOSITORY)]
    described: dict[str, Any] = {
        "source": f"git archive {snapshot}" if snapshot else "working tree",
        "package_file": shown[0] if shown else None,
        "code_fingerprint": shown[1] if len(shown) > 1 else None,
        "commit": _output([*git, "rev-parse", snapshot or "HEAD"]).strip() or None,
    }
    if snapshot is None:
        described["uncommitted"] = _output([*git, "status", "--porcelain", "--", "watchlint", "rules"]).splitlines()
    return described


def extract_snapshot(revision: str, work: Path) -> dict[str, str]:
    """Extract watchlint/ and rules/ of a git revision (read-only `git archive`), and the environment that
    makes the installed `watchlint` run that code: a stable benchmark while others edit the working tree."""
    target = work / "watchlint-snapshot"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(REPOSITORY), "archive", "--format=tar", revision, "watchlint", "rules"],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(target, filter="data")
    # Byte-compile it, as pip does on install: with PYTHONDONTWRITEBYTECODE set, every run would compile it.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(target)], check=True)
    return {**os.environ, "PYTHONPATH": str(target)}


def _output(command: list[str]) -> str:
    try:
        return subprocess.run(command, capture_output=True, text=True, check=False, timeout=120).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""


def ensure_semgrep(progress: Callable[[str], None]) -> str:
    """semgrep in benchmarks/.semgrep-venv, created with `python -m venv` and `pip install semgrep`."""
    executable = SEMGREP_VENV / "bin" / "semgrep"
    if executable.is_file():
        return str(executable)
    progress(f"installing semgrep into {SEMGREP_VENV}")
    subprocess.run([sys.executable, "-m", "venv", str(SEMGREP_VENV)], check=True)
    pip = [str(SEMGREP_VENV / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    subprocess.run([*pip, "semgrep"], check=True)
    return str(executable)


def _watchlint_executable(given: str | None) -> str:
    if given:
        return given
    beside = Path(sys.executable).parent / "watchlint"
    if beside.is_file():
        return str(beside)
    found = shutil.which("watchlint")
    if found is None:
        raise SystemExit("watchlint is not installed next to this Python nor on PATH; pass --watchlint")
    return found


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


def _shown(path: Path | None, root: Path) -> str | None:
    return path.relative_to(root).as_posix() if path is not None else None


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
        executable = _watchlint_executable(args.watchlint)
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
                    "touch_target": _shown(tree.touch_target, tree.root),
                    "python_touch_target": _shown(tree.python_touch_target, tree.root),
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
