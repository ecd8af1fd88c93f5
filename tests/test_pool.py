"""The process pool's tasks: small Python units go together, so that few workers import libcst, and the
costliest tasks start first."""

from __future__ import annotations

from watchlint.language import Language
from watchlint.pool import BATCH_BYTES, tasks

GO, PY = Language.GO, Language.PYTHON
LIMIT = BATCH_BYTES[PY]


def test_small_python_units_share_a_task_and_go_units_have_one_each() -> None:
    sizes = [60_000, 4_000, 3_000, 50_000, 2_000]
    languages = [GO, PY, PY, GO, PY]
    # popped from the end: the Python task (9 KB, at five times Go's cost per byte) waits behind both Go units
    assert tasks(sizes, languages) == [(1, 2, 4), (3,), (0,)]


def test_python_tasks_close_at_the_byte_limit_largest_units_first() -> None:
    sizes = [LIMIT // 2, LIMIT // 2, LIMIT // 4, LIMIT + 1]
    languages = [PY, PY, PY, PY]
    # the unit over the limit goes alone; the two halves fill a task; the quarter is left for a last one
    assert tasks(sizes, languages) == [(2,), (0, 1), (3,)]


def test_the_costliest_task_is_taken_first_whatever_its_language() -> None:
    sizes = [100_000, 30_000]
    languages = [GO, PY]
    # 30 KB of Python costs more than 100 KB of Go: it is popped first
    assert tasks(sizes, languages)[-1] == (1,)
