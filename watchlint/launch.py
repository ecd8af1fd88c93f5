"""The command line's entry point: the garbage collector set to a slower pace and compiled dataclass code kept
(watchlint/codecache.py) before any dataclass is made, then watchlint.cli runs, and the process leaves without
tearing the interpreter down."""

from __future__ import annotations

import gc
import os
import sys
from typing import NoReturn

from watchlint import codecache

# The collector's pace for the command line: a run makes millions of objects and almost no cyclic garbage (the
# front-ends pause the collector while they build their trees, and cut the cycles they leave). At Python's default
# pace (a collection every 700 net allocations) its ~80 collections in a cold run of the 8x benchmark tree cost 2 %
# of the CPU of the parent and the workers it forks, for next to nothing: with no collection at all, a one-job
# run's peak memory grew by 1 MB. A hundred times less often.
_COLLECTION_THRESHOLDS = (100_000, 50, 100)


def main() -> NoReturn:
    gc.set_threshold(*_COLLECTION_THRESHOLDS)
    codecache.install()
    from watchlint.cli import main as run_command_line

    try:
        code = run_command_line()
    finally:
        codecache.save()
    _leave(code)


def _leave(code: int) -> NoReturn:
    """Exit once the output is flushed, skipping the interpreter's teardown: freeing every object and module
    one by one took ~30 ms, a sixth of a run the cache answers. Everything the run wrote is closed by then
    (reports are written atomically, pools and workers are joined)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader that went away, a stream closed: nothing more can reach it
            continue
    os._exit(code)
