"""Running extraction jobs: in order in this process, or in a process pool, largest units first, a few jobs at a
time, and on in a new pool when a worker dies."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from watchlint.extraction import Extracted, Job, extract_job, worker_died

if TYPE_CHECKING:
    from concurrent.futures import Future


@dataclass(frozen=True, slots=True)
class Jobs:
    """The units to extract, made into jobs only when their turn comes (reading their files then)."""

    take: Callable[[int], Job]  # the job at a position; called once per position
    sizes: Sequence[Callable[[], int]]  # each unit's bytes, for the order of a pool

    def __len__(self) -> int:
        return len(self.sizes)


IN_FLIGHT_PER_WORKER = 2  # one job running and the next already queued: a worker never waits for the parent


def run_jobs(jobs: Jobs, workers: int) -> Iterator[tuple[int, Extracted]]:
    """Each job's position and result. In one process they come in order; in a pool the largest units start
    first (the run lasts as long as its last unit) and results come as they are done: the report is sorted
    afterwards, so the output does not depend on -j. A pool is given a few jobs at a time, so that only the
    files of those are in memory; a pool a worker's death broke is replaced for the jobs not yet given."""
    if workers <= 1 or len(jobs) <= 1:
        for position in range(len(jobs)):
            yield position, extract_job(jobs.take(position))
        return
    sizes = [size() for size in jobs.sizes]
    waiting = sorted(range(len(jobs)), key=lambda position: sizes[position])  # popped from the end: largest first
    taken: list[tuple[int, Job]] = []  # read, not yet accepted by a pool
    while waiting or taken:
        yield from _pool_round(jobs, waiting, taken, workers)


def _pool_round(
    jobs: Jobs, waiting: list[int], taken: list[tuple[int, Job]], workers: int
) -> Iterator[tuple[int, Extracted]]:
    """Run jobs in one pool until none is left or a worker dies; then the jobs in flight fail and `waiting`
    and `taken` hold the rest."""
    # Imported here: multiprocessing costs ~10 ms of start-up that warm and one-unit runs do not need.
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    in_flight: dict[Future[Extracted], tuple[int, Job]] = {}
    with ProcessPoolExecutor(max_workers=min(workers, len(waiting) + len(taken))) as pool:
        while True:
            while (waiting or taken) and len(in_flight) < workers * IN_FLIGHT_PER_WORKER:
                if not taken:
                    position = waiting.pop()
                    taken.append((position, jobs.take(position)))
                try:
                    future = pool.submit(extract_job, taken[-1][1])
                except BrokenProcessPool:  # a worker died: the jobs in flight fail with it
                    for future, (position, job) in in_flight.items():
                        yield position, _result(future, job)
                    return
                in_flight[future] = taken.pop()
            if not in_flight:
                return
            done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            for future in done:
                position, job = in_flight.pop(future)
                yield position, _result(future, job)


def _result(future: Future[Extracted], job: Job) -> Extracted:
    from concurrent.futures.process import BrokenProcessPool

    try:
        return future.result()
    except BrokenProcessPool:  # a worker died (a native crash): the unit fails, the run goes on
        unit, notifications = job[0], job[4]
        return Extracted(None, frozenset(), [*notifications, worker_died(unit)])
