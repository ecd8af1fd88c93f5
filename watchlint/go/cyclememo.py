"""Answers worked out once per question and depth by searches that follow calls, and may meet the question they
are answering again: met again while it is worked out (a cycle of calls), a question answers `in_cycle`; an
answer such a meeting cut short stays unkept, unless the question it met is the one being answered, whose own
answer is complete once it is worked out. Kept per depth: a search reached deeper is cut shorter by its limit."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")


class CycleMemo(Generic[_K, _V]):
    def __init__(self) -> None:
        self._known: dict[tuple[_K, int], _V] = {}
        self._running: set[_K] = set()  # the questions being worked out
        self._cut: set[_K] = set()  # those met again meanwhile, below the question being worked out

    def get(self, key: _K, depth: int, compute: Callable[[], _V], in_cycle: _V) -> _V:
        if key in self._running:
            self._cut.add(key)
            return in_cycle
        if (key, depth) in self._known:
            return self._known[(key, depth)]
        outer, self._cut = self._cut, set()
        self._running.add(key)
        try:
            answer = compute()
        finally:
            self._running.discard(key)
            met, self._cut = self._cut - {key}, outer
            self._cut |= met
        if not met:
            self._known[(key, depth)] = answer
        return answer
