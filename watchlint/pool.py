"""Running extraction jobs: in order in this process, or in a process pool, the costliest first, a few at a
time, small Python units together, and on in a new pool when a worker dies."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from watchlint.extraction import Extracted, Job, extract_job, worker_died, worker_failed
from watchlint.language import Language

if TYPE_CHECKING:
    from concurrent.futures import Future


@dataclass(frozen=True, slots=True)
class Jobs:
    """The units to extract, made into jobs only when their turn comes (reading their files then)."""

    take: Callable[[int], Job]  # the job at a position; called once per position
    sizes: Sequence[Callable[[], int]]  # each unit's bytes, for the order of a pool
    languages: Sequence[Language]  # each unit's, to batch small units and weigh what each byte costs

    def __len__(self) -> int:
        return len(self.sizes)


IN_FLIGHT_PER_WORKER = 2  # one task running and the next already queued: a worker never waits for the parent
# A worker imports libcst before its first Python unit (~0.2 s, as long as analyzing ~60 KiB of Python): Python
# units smaller than this go to the pool together, in tasks of about this many bytes, so that a tree with a few
# small projects has one worker import it rather than every worker.
BATCH_BYTES: Mapping[Language, int] = {Language.PYTHON: 128 * 1024}
# What a byte costs to analyze, relative to Go's (measured on the benchmark tree: Go 0.6 us, Python 3.2 us with
# libcst's import), so that the longest tasks start first.
_COST_PER_BYTE: Mapping[Language, int] = {Language.GO: 1, Language.PYTHON: 5}

_Task = tuple[int, ...]  # the positions of the units one worker extracts in a row


def run_jobs(jobs: Jobs, workers: int) -> Iterator[tuple[int, Extracted]]:
    """Each job's position and result. In one process they come in order; in a pool the costliest tasks start
    first (the run lasts as long as its last task) and results come as they are done: the report is sorted
    afterwards, so the output does not depend on -j. A pool is given a few tasks at a time, so that only the
    files of those are in memory; a pool a worker's death broke is replaced for the tasks not yet given."""
    if workers <= 1 or len(jobs) <= 1:
        for position in range(len(jobs)):
            yield position, extract_job(jobs.take(position))
        return
    waiting = tasks([size() for size in jobs.sizes], jobs.languages)  # popped from the end: costliest first
    taken: list[tuple[_Task, list[Job]]] = []  # read, not yet accepted by a pool
    while waiting or taken:
        yield from _pool_round(jobs, waiting, taken, workers)


def tasks(sizes: Sequence[int], languages: Sequence[Language]) -> list[_Task]:
    """The units grouped into the pool's tasks, the least costly first: one unit each, but for those of a
    language in BATCH_BYTES smaller than its limit, which fill tasks of that many bytes, largest units first."""
    found: list[_Task] = []
    filling: dict[Language, list[int]] = {}  # the task being filled for each batched language
    filled: dict[Language, int] = {}  # and its bytes so far
    for position in sorted(range(len(sizes)), key=lambda position: -sizes[position]):
        language = languages[position]
        limit = BATCH_BYTES.get(language, 0)
        if sizes[position] >= limit:
            found.append((position,))
            continue
        filling.setdefault(language, []).append(position)
        filled[language] = filled.get(language, 0) + sizes[position]
        if filled[language] >= limit:
            found.append(tuple(filling.pop(language)))
            del filled[language]
    found.extend(tuple(batch) for batch in filling.values())
    costs = [size * _COST_PER_BYTE[language] for size, language in zip(sizes, languages, strict=True)]
    return sorted(found, key=lambda task: sum(costs[position] for position in task))


def _pool_round(
    jobs: Jobs, waiting: list[_Task], taken: list[tuple[_Task, list[Job]]], workers: int
) -> Iterator[tuple[int, Extracted]]:
    """Run tasks in one pool until none is left or a worker dies; then the tasks in flight fail and `waiting`
    and `taken` hold the rest."""
    # Imported here: multiprocessing costs ~10 ms of start-up that warm and one-unit runs do not need.
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    # What the workers import to make facts and this process to check them, imported before the workers are
    # forked rather than in each of them (~3 ms a worker); not at start-up, which a warm run does without.
    import watchlint.cacheoptions
    import watchlint.facts  # noqa: F401

    in_flight: dict[Future[list[Extracted]], tuple[_Task, list[Job]]] = {}
    with ProcessPoolExecutor(max_workers=min(workers, len(waiting) + len(taken))) as pool:
        while True:
            while (waiting or taken) and len(in_flight) < workers * IN_FLIGHT_PER_WORKER:
                if not taken:
                    task = waiting.pop()
                    taken.append((task, [jobs.take(position) for position in task]))
                try:
                    future = pool.submit(extract_jobs, taken[-1][1])
                except BrokenProcessPool:  # a worker died: the tasks in flight fail with it
                    for future, (task, given) in in_flight.items():
                        yield from zip(task, _results(future, given), strict=True)
                    return
                in_flight[future] = taken.pop()
            if not in_flight:
                return
            done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            for future in done:
                task, given = in_flight.pop(future)
                yield from zip(task, _results(future, given), strict=True)


def extract_jobs(jobs: Sequence[Job]) -> list[Extracted]:
    """A pool's task: its units' facts, one after the other."""
    return [extract_job(job) for job in jobs]


def _results(future: Future[list[Extracted]], jobs: list[Job]) -> list[Extracted]:
    from concurrent.futures.process import BrokenProcessPool

    try:
        return future.result()
    except BrokenProcessPool:  # a worker died (a native crash): its units fail, the run goes on
        return [Extracted(None, frozenset(), [*job[4], worker_died(job[0])]) for job in jobs]
    except Exception as error:  # the task failed outside the front-ends' guard: its units fail, the run goes on
        return [Extracted(None, frozenset(), [*job[4], worker_failed(job[0], error)]) for job in jobs]
