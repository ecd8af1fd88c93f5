"""A worker forked at start-up that is ready to analyze one unit when the parent gets to it.

A run with a cache usually has one unit to analyze again, the one holding the file just edited. In one
process, importing the front-end and the checks (~40 ms), analyzing the unit, and reading the other units'
outcomes back from the cache come one after the other. The standby worker imports the Go front-end and the
checks while the parent discovers and keys the units; it is then given the first unit to analyze, and checks
it and stores its facts and outcome in the cache while the parent reads the other outcomes back. The
front-ends are imported one after the other (Go's ~0.15 s, Python's and libcst's ~0.1 s) while no unit has
come; a unit that comes meanwhile cuts the other language's import short at the next module it reaches, so
that it waits a few milliseconds for a front-end it does not need.

Linux only (fork, whose child starts with the parent's modules); a worker that is not needed is killed.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import struct
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from watchlint.cache import FactsCache
    from watchlint.config import Settings
    from watchlint.engine import UnitOutcome
    from watchlint.extraction import Job
    from watchlint.language import Language

_LENGTH = struct.Struct("<Q")
_GO, _PYTHON = b"G", b"P"  # the first byte of a unit's message: its language
_HINT = b"H"  # a message of two bytes, this and a language: the front-end the unit to come likely needs
# Imported before a unit comes: the modules every unit needs, then each front-end, whose import a unit of the
# other language interrupts.
_PRELOADED = ("watchlint.checks", "watchlint.suppress", "watchlint.findings")
_FRONT_ENDS = ((_GO, "watchlint.go"), (_PYTHON, "watchlint.python"))


def available() -> bool:
    return sys.platform.startswith("linux") and hasattr(os, "fork")


class Standby:
    """The parent's handle of a standby worker: `analyze` once at most, `dismiss` always."""

    def __init__(self, pid: int, jobs: int, results: int) -> None:
        self.pid = pid
        self._jobs = jobs  # write end: the unit to analyze
        self._results = results  # read end: its outcome

    @classmethod
    def start(cls, cache: FactsCache) -> Standby | None:
        """Fork the worker; None where it cannot be."""
        if not available():
            return None
        jobs_read, jobs_write = os.pipe()
        results_read, results_write = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            for end in (jobs_read, jobs_write, results_read, results_write):
                os.close(end)
            return None
        if pid == 0:  # pragma: no cover - runs in the child, which leaves through os._exit
            os.close(jobs_write)
            os.close(results_read)
            status = 1
            try:
                _serve(cache, jobs_read, results_write)
                status = 0
            finally:
                os._exit(status)  # neither the parent's exit handlers nor its buffered output
        os.close(jobs_read)
        os.close(results_write)
        return cls(pid, jobs_write, results_read)

    def expect(self, language: Language) -> None:
        """Tell the worker which front-end the unit to come likely needs, as soon as planning meets a unit to
        analyze again (before the rest are keyed and it is handed over): it imports that one first, cutting the
        other's import short."""
        with contextlib.suppress(OSError):  # the worker is gone: analyze says so
            _send(self._jobs, _HINT + _tag(language))

    def analyze(
        self, job: Job, settings: Settings, reported: frozenset[str], facts_key: str, outcome_key: str
    ) -> Callable[[], UnitOutcome | None]:
        """Give the worker a unit; the returned function waits for its outcome (None if the worker died)."""
        tag = _tag(job[0].language)
        message = tag + pickle.dumps((job, settings, reported, facts_key, outcome_key), pickle.HIGHEST_PROTOCOL)
        try:
            _send(self._jobs, message)
        except OSError:  # the worker is gone: its end of the pipe is closed
            return lambda: None

        def outcome() -> UnitOutcome | None:
            from watchlint.engine import UnitOutcome

            data = _receive(self._results)
            value = pickle.loads(data) if data is not None else None
            return value if isinstance(value, UnitOutcome) else None

        return outcome

    def dismiss(self) -> None:
        """Stop the worker (at once: it may still be importing) and reap it."""
        for end in (self._jobs, self._results):
            with contextlib.suppress(OSError):
                os.close(end)
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


def _tag(language: Language) -> bytes:
    from watchlint.language import Language

    return _PYTHON if language is Language.PYTHON else _GO


class _Wanted:
    """What the worker has been told: the language a hint names, then the unit (None at the end of the pipe)."""

    def __init__(self) -> None:
        self.hint: bytes | None = None
        self.received: list[bytes | None] = []  # the unit, once it has come

    def language(self) -> bytes | None:
        """The front-end wanted: the unit's (b"" at the end of the pipe), else the hint's, else None."""
        if self.received:
            data = self.received[0]
            return data[:1] if data is not None else b""
        return self.hint

    def receive(self, jobs: int) -> None:
        while True:
            data = _receive(jobs)
            if data is not None and data[:1] == _HINT:
                self.hint = data[1:2]
                continue
            self.received.append(data)
            return


def _serve(cache: FactsCache, jobs: int, results: int) -> None:
    """The worker: preload, wait for one unit (none when the pipe closes), analyze it, store and answer."""
    import importlib
    import threading

    # The unit is received while the modules load: a unit larger than the pipe's buffer would otherwise hold
    # the parent back until the imports are over.
    wanted = _Wanted()
    receiver = threading.Thread(target=wanted.receive, args=(jobs,), daemon=True)
    receiver.start()
    for module in _PRELOADED:
        importlib.import_module(module)
    pending = list(_FRONT_ENDS)
    while pending:  # the wanted front-end first; another's import stops at once while one is wanted
        language = wanted.language()
        chosen = next((item for item in pending if item[0] == language), pending[0])
        pending.remove(chosen)
        _preload_for(chosen[0], chosen[1], wanted)
    receiver.join()
    data = wanted.received[0] if wanted.received else None
    if data is None:
        return
    from watchlint.engine import analyze_job

    job, settings, reported, facts_key, outcome_key = pickle.loads(data[1:])
    outcome = analyze_job(job, settings, reported, cache, facts_key, outcome_key)
    _send(results, pickle.dumps(outcome, pickle.HIGHEST_PROTOCOL))


class _Interrupted(BaseException):
    """Raised inside an import to abandon it; no `except Exception` or `except ImportError` of the imported
    modules catches it."""


class _InterruptingFinder:
    """A meta path finder that finds nothing, but stops the import under way once a unit that does not need
    it has come (one of another language, or the end of the pipe), or a hint names another language."""

    def __init__(self, language: bytes, wanted: _Wanted) -> None:
        self._language = language
        self._wanted = wanted

    def find_spec(self, name: str, path: object, target: object = None) -> None:
        language = self._wanted.language()
        if language is not None and language != self._language:
            raise _Interrupted
        return None


def _preload_for(language: bytes, module: str, wanted: _Wanted) -> None:
    """Import the front-end `module` of `language` unless a unit (or a hint) of another language comes first.
    An interrupted import leaves the modules it finished loaded and the one under way out of `sys.modules`;
    this worker analyzes one unit, which does not import them, and then leaves."""
    import importlib

    finder = _InterruptingFinder(language, wanted)
    sys.meta_path.insert(0, finder)
    try:
        importlib.import_module(module)
    except _Interrupted:
        pass
    finally:
        sys.meta_path.remove(finder)


def _send(end: int, data: bytes) -> None:
    view = memoryview(_LENGTH.pack(len(data)) + data)
    while view:
        view = view[os.write(end, view) :]


def _receive(end: int) -> bytes | None:
    """One message, or None at the end of the pipe."""
    header = _read_exactly(end, _LENGTH.size)
    if header is None:
        return None
    return _read_exactly(end, _LENGTH.unpack(header)[0])


def _read_exactly(end: int, size: int) -> bytes | None:
    chunks = []
    while size:
        chunk = os.read(end, min(size, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)
