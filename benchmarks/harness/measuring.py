"""Measuring one command: wall, CPU and the peak RSS of its largest process from `/usr/bin/time -v` when present,
and the memory of its whole process tree (the pool) sampled from /proc; each run taken on a quiet machine."""

from __future__ import annotations

import contextlib
import json
import os
import re
import resource
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

TIME = Path("/usr/bin/time")
SAMPLE_SECONDS = 0.03
PSS_EVERY = 5  # ticks
QUIET_CORES = 0.15  # a machine busier than this (other programs) is not quiet enough to start a run
DISTURBED_CORES = 0.10  # a run during which others used more than this (on average) is retried


@dataclass(frozen=True, slots=True)
class Gate:
    """When to start a run: after at most max_wait seconds of waiting for a quiet machine; retries."""

    max_wait: float = 10.0
    retries: int = 1


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
