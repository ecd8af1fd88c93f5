"""What was measured and where: the machine, the watchlint code that runs (working tree or a git snapshot),
its executable, and semgrep installed into benchmarks/.semgrep-venv."""

from __future__ import annotations

import importlib.metadata
import io
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .measuring import TIME

BENCHMARKS = Path(__file__).resolve().parents[1]
REPOSITORY = BENCHMARKS.parent
SEMGREP_VENV = BENCHMARKS / ".semgrep-venv"


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


def watchlint_executable(given: str | None) -> str:
    if given:
        return given
    beside = Path(sys.executable).parent / "watchlint"
    if beside.is_file():
        return str(beside)
    found = shutil.which("watchlint")
    if found is None:
        raise SystemExit("watchlint is not installed next to this Python nor on PATH; pass --watchlint")
    return found
