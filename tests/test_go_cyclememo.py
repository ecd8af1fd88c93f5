"""CycleMemo: answers kept once per question and depth, but not those a cycle through a question still being
worked out cut short (go/cyclememo.py)."""

from __future__ import annotations

from watchlint.go.cyclememo import CycleMemo


def test_an_answer_is_worked_out_once_per_question_and_depth() -> None:
    memo: CycleMemo[str, int] = CycleMemo()
    asked: list[tuple[str, int]] = []

    def answer(key: str, depth: int) -> int:
        asked.append((key, depth))
        return len(key) + depth

    assert memo.get("ab", 0, lambda: answer("ab", 0), -1) == 2
    assert memo.get("ab", 0, lambda: answer("ab", 0), -1) == 2
    assert memo.get("ab", 1, lambda: answer("ab", 1), -1) == 3
    assert asked == [("ab", 0), ("ab", 1)]


def test_a_question_met_again_while_worked_out_answers_the_cycle_value() -> None:
    memo: CycleMemo[str, frozenset[str]] = CycleMemo()

    def a() -> frozenset[str]:
        return frozenset({"a"}) | memo.get("a", 0, a, frozenset())

    assert memo.get("a", 0, a, frozenset()) == {"a"}  # the inner ask is the cycle: it adds nothing
    assert memo.get("a", 0, lambda: frozenset({"other"}), frozenset()) == {"a"}  # complete: kept


def test_an_answer_cut_short_by_a_cycle_through_an_outer_question_is_not_kept() -> None:
    memo: CycleMemo[str, frozenset[str]] = CycleMemo()

    def a() -> frozenset[str]:
        return frozenset({"a"}) | memo.get("b", 0, b, frozenset())

    def b() -> frozenset[str]:
        return frozenset({"b"}) | memo.get("a", 0, a, frozenset())  # a is still being worked out: cut short

    assert memo.get("a", 0, a, frozenset()) == {"a", "b"}
    # b's answer missed what a passes it: asked on its own, it is worked out again, and whole
    assert memo.get("b", 0, b, frozenset()) == {"a", "b"}
