"""Unit tests of watchlint/suppress.py: which comments silence which findings, and which are malformed (SPEC §5)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from watchlint.facts import Comment, Language, Notification, NotificationLevel
from watchlint.findings import Finding, Level, Suppression, SuppressionKind
from watchlint.source import Span
from watchlint.suppress import apply_suppressions

GO_PATH = "internal/controller/app_controller.go"
PY_PATH = "operator/handlers.py"
LINE = 20  # the line of every finding below


def path_of(language: Language) -> str:
    return GO_PATH if language is Language.GO else PY_PATH


def finding(code: str = "WL002", language: Language = Language.GO, line: int = LINE) -> Finding:
    return Finding(
        code=code,
        level=Level.WARNING,
        span=Span(path_of(language), line, 12, line, 17),
        message="`r.Get` on Secret starts a cluster-wide Secret informer",
        kind="Secret",
        construct="r.Get(ctx, key, &secret)",
        enclosing="AppReconciler.Reconcile",
    )


def comment(text: str, language: Language = Language.GO, line: int = LINE, is_own_line: bool = False) -> Comment:
    column = 5 if is_own_line else 40
    return Comment(Span(path_of(language), line, column, line, column + len(text)), text, is_own_line)


def placed(place: str, text: str, language: Language) -> Comment:
    """A directive at the end of the finding's line, or alone on the line just above it."""
    if place == "same-line":
        return comment(text, language, LINE, is_own_line=False)
    return comment(text, language, LINE - 1, is_own_line=True)


SUPPRESSING = [
    (Language.GO, "//nolint:watchlint", SuppressionKind.NOLINT, ""),
    (Language.GO, "//nolint:watchlint // shared informer", SuppressionKind.NOLINT, "shared informer"),
    (Language.GO, "//nolint:gosec,watchlint // reason", SuppressionKind.NOLINT, "reason"),
    (Language.GO, "//nolint:gosec, watchlint", SuppressionKind.NOLINT, ""),
    (Language.GO, "//watchlint:ignore WL002 -- reflector needs all", SuppressionKind.IGNORE, "reflector needs all"),
    (Language.GO, "//watchlint:ignore WL002,WL003 -- reason", SuppressionKind.IGNORE, "reason"),
    (Language.GO, "//watchlint:ignore WL001, WL002 -- reason", SuppressionKind.IGNORE, "reason"),
    (Language.PYTHON, "# noqa: WL002", SuppressionKind.NOQA, ""),
    (Language.PYTHON, "# noqa: E501, WL002", SuppressionKind.NOQA, ""),
    (Language.PYTHON, "# noqa:WL002", SuppressionKind.NOQA, ""),
    (Language.PYTHON, "# noqa: E501,WL002,WL004", SuppressionKind.NOQA, ""),
    (Language.PYTHON, "# noqa: WL002 -- the reflector", SuppressionKind.NOQA, "the reflector"),
    (Language.PYTHON, "# type: ignore  # noqa: WL002", SuppressionKind.NOQA, ""),
    (Language.PYTHON, "# NOQA: WL002", SuppressionKind.NOQA, ""),
    (Language.PYTHON, "# watchlint: ignore[WL002] -- reason", SuppressionKind.IGNORE, "reason"),
    (Language.PYTHON, "# watchlint: ignore[WL002, WL003] -- reason", SuppressionKind.IGNORE, "reason"),
    (Language.PYTHON, "# watchlint:ignore[WL002] -- needs every secret", SuppressionKind.IGNORE, "needs every secret"),
]
SUPPRESSING_IDS = [
    "go-nolint",
    "go-nolint-reason",
    "go-nolint-list-reason",
    "go-nolint-list-space",
    "go-ignore",
    "go-ignore-two-codes",
    "go-ignore-two-codes-space",
    "py-noqa",
    "py-noqa-list",
    "py-noqa-no-space",
    "py-noqa-three",
    "py-noqa-reason",
    "py-noqa-after-type-ignore",
    "py-noqa-upper-case",
    "py-ignore",
    "py-ignore-two-codes",
    "py-ignore-no-space",
]


PLACES = ["same-line", "line-above"]


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize(("language", "text", "kind", "justification"), SUPPRESSING, ids=SUPPRESSING_IDS)
def test_directive_suppresses_the_finding(
    language: Language, text: str, kind: SuppressionKind, justification: str, place: str
) -> None:
    original = finding("WL002", language)
    directive = placed(place, text, language)
    marked, notes = apply_suppressions([original], [directive], language)
    assert marked == [replace(original, suppression=Suppression(kind, directive.span, justification))]
    assert marked[0].is_suppressed
    assert notes == []


NOT_SUPPRESSING = [
    (Language.GO, "//nolint"),
    (Language.GO, "//nolint // legacy"),
    (Language.GO, "//nolint:gosec"),
    (Language.GO, "//nolint:gosec,staticcheck // reason"),
    (Language.GO, "//nolint:watchlintx"),
    (Language.GO, "//watchlint:ignore WL001 -- reason"),
    (Language.GO, "//watchlint:ignore WL001,WL003 -- reason"),
    (Language.GO, "// see watchlint docs"),
    (Language.PYTHON, "# noqa"),
    (Language.PYTHON, "# noqa  # legacy"),
    (Language.PYTHON, "# noqa: E501"),
    (Language.PYTHON, "# noqa: E501, F401"),
    (Language.PYTHON, "# noqa: WL001"),
    (Language.PYTHON, "# noqa: WL00"),
    (Language.PYTHON, "# noqa: WL0021"),
    (Language.PYTHON, "# watchlint: ignore[WL001] -- reason"),
    (Language.PYTHON, "# watchlint: ignore[WL001, WL003] -- reason"),
    (Language.PYTHON, "# nolint:watchlint"),
    (Language.GO, "// noqa: WL002"),
]
NOT_SUPPRESSING_IDS = [
    "go-bare-nolint",
    "go-bare-nolint-reason",
    "go-nolint-other-linter",
    "go-nolint-other-linters",
    "go-nolint-longer-name",
    "go-ignore-other-code",
    "go-ignore-other-codes",
    "go-prose",
    "py-bare-noqa",
    "py-bare-noqa-comment",
    "py-noqa-other-code",
    "py-noqa-other-codes",
    "py-noqa-other-wl-code",
    "py-noqa-prefix",
    "py-noqa-longer-code",
    "py-ignore-other-code",
    "py-ignore-other-codes",
    "py-go-form",
    "go-python-form",
]


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize(("language", "text"), NOT_SUPPRESSING, ids=NOT_SUPPRESSING_IDS)
def test_comment_does_not_suppress(language: Language, text: str, place: str) -> None:
    original = finding("WL002", language)
    marked, notes = apply_suppressions([original], [placed(place, text, language)], language)
    assert marked == [original]
    assert notes == []


@pytest.mark.parametrize(
    ("language", "text"),
    [
        (Language.GO, "//nolint:watchlint"),
        (Language.GO, "//watchlint:ignore WL002 -- reason"),
        (Language.PYTHON, "# noqa: WL002"),
        (Language.PYTHON, "# watchlint: ignore[WL002] -- reason"),
    ],
    ids=["go-nolint", "go-ignore", "py-noqa", "py-ignore"],
)
def test_directive_above_that_trails_a_statement_does_not_suppress(language: Language, text: str) -> None:
    original = finding("WL002", language)
    directive = comment(text, language, LINE - 1, is_own_line=False)
    assert apply_suppressions([original], [directive], language) == ([original], [])


@pytest.mark.parametrize(
    ("language", "text", "line"),
    [
        (Language.GO, "//nolint:watchlint", LINE - 2),
        (Language.GO, "//watchlint:ignore WL002 -- reason", LINE - 2),
        (Language.GO, "//nolint:watchlint", LINE + 1),
        (Language.PYTHON, "# noqa: WL002", LINE - 2),
        (Language.PYTHON, "# watchlint: ignore[WL002] -- reason", LINE - 2),
        (Language.PYTHON, "# noqa: WL002", LINE + 1),
    ],
    ids=[
        "go-nolint-two-above",
        "go-ignore-two-above",
        "go-below",
        "py-noqa-two-above",
        "py-ignore-two-above",
        "py-below",
    ],
)
def test_directive_on_another_line_does_not_suppress(language: Language, text: str, line: int) -> None:
    original = finding("WL002", language)
    directive = comment(text, language, line, is_own_line=True)
    assert apply_suppressions([original], [directive], language) == ([original], [])


def test_directive_in_another_file_does_not_suppress() -> None:
    original = finding("WL002", Language.GO)
    other = Comment(Span("cmd/main.go", LINE, 40, LINE, 58), "//nolint:watchlint", False)
    assert apply_suppressions([original], [other], Language.GO) == ([original], [])


def test_nolint_watchlint_covers_every_code() -> None:
    findings = [finding(code) for code in ("WL001", "WL002", "WL003", "WL005")]
    directive = placed("same-line", "//nolint:watchlint", Language.GO)
    marked, _ = apply_suppressions(findings, [directive], Language.GO)
    assert [item.suppression for item in marked] == [Suppression(SuppressionKind.NOLINT, directive.span, "")] * 4


@pytest.mark.parametrize(
    ("language", "text"),
    [
        (Language.GO, "//watchlint:ignore WL002,WL003 -- reason"),
        (Language.PYTHON, "# watchlint: ignore[WL002, WL003] -- reason"),
        (Language.PYTHON, "# noqa: WL002, WL003"),
    ],
    ids=["go-ignore", "py-ignore", "py-noqa"],
)
def test_directive_with_two_codes_suppresses_exactly_those(language: Language, text: str) -> None:
    findings = [finding(code, language) for code in ("WL001", "WL002", "WL003", "WL004")]
    marked, notes = apply_suppressions(findings, [placed("same-line", text, language)], language)
    assert [(item.code, item.is_suppressed) for item in marked] == [
        ("WL001", False),
        ("WL002", True),
        ("WL003", True),
        ("WL004", False),
    ]
    assert notes == []


def test_suppressed_findings_are_kept_in_order_and_flagged() -> None:
    findings = [finding("WL002", line=10), finding("WL002", line=LINE), finding("WL001", line=30)]
    directive = placed("line-above", "//watchlint:ignore WL002 -- shared with Owns", Language.GO)
    marked, notes = apply_suppressions(findings, [directive], Language.GO)
    assert len(marked) == len(findings)
    assert [item.span.line for item in marked] == [10, LINE, 30]
    assert [item.suppression for item in marked] == [
        None,
        Suppression(SuppressionKind.IGNORE, Span(GO_PATH, LINE - 1, 5, LINE - 1, 49), "shared with Owns"),
        None,
    ]
    assert notes == []


def test_first_matching_directive_on_the_same_line_wins_over_the_line_above() -> None:
    original = finding("WL002")
    own = placed("same-line", "//watchlint:ignore WL002 -- on the line", Language.GO)
    upper = placed("line-above", "//watchlint:ignore WL002 -- above", Language.GO)
    (marked,), _ = apply_suppressions([original], [upper, own], Language.GO)
    assert marked.suppression == Suppression(SuppressionKind.IGNORE, own.span, "on the line")


GO_FORM = "`//watchlint:ignore WL002 -- reason`"
PY_FORM = "`# watchlint: ignore[WL002] -- reason`"


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize(
    ("language", "text", "problem"),
    [
        (Language.GO, "//watchlint:ignore WL002", f"suppression without a reason does not apply; expected {GO_FORM}"),
        (
            Language.GO,
            "//watchlint:ignore WL002 --",
            f"suppression without a reason does not apply; expected {GO_FORM}",
        ),
        (
            Language.GO,
            "//watchlint:ignore WL002 --   ",
            f"suppression without a reason does not apply; expected {GO_FORM}",
        ),
        (Language.GO, "//watchlint:ignore", f"malformed suppression; expected {GO_FORM}"),
        (Language.GO, "//watchlint:ignore WL002 because", f"malformed suppression; expected {GO_FORM}"),
        (Language.GO, "//watchlint:ignore WL2 -- reason", f"malformed suppression; expected {GO_FORM}"),
        (Language.GO, "//watchlint:ignore unfiltered-watch -- reason", f"malformed suppression; expected {GO_FORM}"),
        (
            Language.PYTHON,
            "# watchlint: ignore[WL002]",
            f"suppression without a reason does not apply; expected {PY_FORM}",
        ),
        (
            Language.PYTHON,
            "# watchlint: ignore[WL002] --",
            f"suppression without a reason does not apply; expected {PY_FORM}",
        ),
        (Language.PYTHON, "# watchlint: ignore", f"malformed suppression; expected {PY_FORM}"),
        (Language.PYTHON, "# watchlint: ignore WL002 -- reason", f"malformed suppression; expected {PY_FORM}"),
        (Language.PYTHON, "# watchlint: ignore[wl002] -- reason", f"malformed suppression; expected {PY_FORM}"),
    ],
    ids=[
        "go-no-reason",
        "go-empty-reason",
        "go-blank-reason",
        "go-no-code",
        "go-reason-without-dashes",
        "go-short-code",
        "go-rule-name",
        "py-no-reason",
        "py-empty-reason",
        "py-no-code",
        "py-no-brackets",
        "py-lower-case-code",
    ],
)
def test_unusable_ignore_directive_does_not_apply_and_is_reported(
    language: Language, text: str, problem: str, place: str
) -> None:
    original = finding("WL002", language)
    directive = placed(place, text, language)
    marked, notes = apply_suppressions([original], [directive], language)
    assert marked == [original]
    assert notes == [
        Notification(path_of(language), f"line {directive.span.line}: {problem}", NotificationLevel.WARNING)
    ]


def test_unusable_directive_is_reported_even_without_findings() -> None:
    directive = comment("//watchlint:ignore WL004", Language.GO, 7, is_own_line=True)
    assert apply_suppressions([], [directive], Language.GO) == (
        [],
        [
            Notification(
                GO_PATH,
                "line 7: suppression without a reason does not apply; expected `//watchlint:ignore WL004 -- reason`",
            )
        ],
    )


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        (Language.GO, "//watchlint:ignore WL001,WL003", "`//watchlint:ignore WL001,WL003 -- reason`"),
        (Language.PYTHON, "# watchlint: ignore[WL004]", "`# watchlint: ignore[WL004] -- reason`"),
    ],
    ids=["go", "python"],
)
def test_missing_reason_message_repeats_the_codes_written(language: Language, text: str, expected: str) -> None:
    directive = comment(text, language, 3, is_own_line=True)
    _, notes = apply_suppressions([], [directive], language)
    assert notes == [
        Notification(
            path_of(language),
            f"line 3: suppression without a reason does not apply; expected {expected}",
            NotificationLevel.WARNING,
        )
    ]
