"""Suppression comments (SPEC §5): parse them per language and mark the findings they silence.

Suppressed findings are kept and flagged, never dropped, so SARIF can show the justification.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from watchlint.facts import Comment, Language, Notification
from watchlint.findings import Finding, Suppression, SuppressionKind

ALL_CODES = "*"  # //nolint:watchlint silences every watchlint code

_CODE_LIST = r"WL\d{3}(?:\s*,\s*WL\d{3})*"
_GO_NOLINT = re.compile(r"^//\s?nolint:(?P<linters>[\w.-]+(?:\s*,\s*[\w.-]+)*)(?:\s*//\s*(?P<reason>.*))?$")
_GO_IGNORE = re.compile(r"^//\s?watchlint:ignore\b(?P<rest>.*)$")
_GO_IGNORE_BODY = re.compile(rf"^\s+(?P<codes>{_CODE_LIST})\s*(?:--\s*(?P<reason>.*))?$")
_PY_NOQA = re.compile(r"#\s*noqa:\s*(?P<codes>[A-Z]+\d+(?:[\s,]+[A-Z]+\d+)*)", re.IGNORECASE)
_PY_IGNORE = re.compile(r"#\s*watchlint:\s*ignore\b(?P<rest>.*)$")
_PY_IGNORE_BODY = re.compile(rf"^\[(?P<codes>{_CODE_LIST})\]\s*(?:--\s*(?P<reason>.*))?$")
_SPLIT = re.compile(r"[\s,]+")


@dataclass(frozen=True, slots=True)
class Directive:
    """A parsed suppression comment."""

    comment: Comment
    kind: SuppressionKind
    codes: frozenset[str]  # exact codes, or {ALL_CODES}
    justification: str

    def covers(self, code: str) -> bool:
        return ALL_CODES in self.codes or code in self.codes


def parse_directive(comment: Comment, language: Language) -> Directive | str | None:
    """Return the directive a comment carries, a problem message when it is malformed, or None."""
    text = comment.text.strip()
    if language is Language.GO:
        return _parse_go(comment, text)
    return _parse_python(comment, text)


def _parse_go(comment: Comment, text: str) -> Directive | str | None:
    nolint = _GO_NOLINT.match(text)
    if nolint:
        linters = {name.strip() for name in nolint["linters"].split(",")}
        if "watchlint" not in linters:
            return None
        return Directive(comment, SuppressionKind.NOLINT, frozenset({ALL_CODES}), (nolint["reason"] or "").strip())
    ignore = _GO_IGNORE.match(text)
    if not ignore:
        return None
    return _ignore_directive(comment, _GO_IGNORE_BODY.match(ignore["rest"]), "//watchlint:ignore {codes} -- reason")


def _parse_python(comment: Comment, text: str) -> Directive | str | None:
    ignore = _PY_IGNORE.search(text)
    if ignore:
        body = _PY_IGNORE_BODY.match(ignore["rest"].strip())
        return _ignore_directive(comment, body, "# watchlint: ignore[{codes}] -- reason")
    noqa = _PY_NOQA.search(text)
    if not noqa:
        return None  # a bare noqa belongs to flake8 and ruff: it does not silence watchlint (DESIGN §2.5)
    codes = frozenset(code.upper() for code in _SPLIT.split(noqa["codes"].strip()) if code.upper().startswith("WL"))
    if not codes:
        return None
    reason = text[noqa.end() :].strip().removeprefix("--").strip()
    return Directive(comment, SuppressionKind.NOQA, codes, reason)


def _ignore_directive(comment: Comment, body: re.Match[str] | None, form: str) -> Directive | str:
    """Build an ignore directive; `form` is the expected spelling with a `{codes}` placeholder."""
    if body is None:
        return f"malformed suppression; expected `{form.format(codes='WL002')}`"
    codes_text = body["codes"].strip()
    reason = (body["reason"] or "").strip()
    if not reason:
        return f"suppression without a reason does not apply; expected `{form.format(codes=codes_text)}`"
    codes = frozenset(_SPLIT.split(codes_text))
    return Directive(comment, SuppressionKind.IGNORE, codes, reason)


def parse_directives(comments: Iterable[Comment], language: Language) -> tuple[list[Directive], list[Notification]]:
    directives, problems = [], []
    for comment in comments:
        parsed = parse_directive(comment, language)
        if isinstance(parsed, Directive):
            directives.append(parsed)
        elif isinstance(parsed, str):
            problems.append(Notification(comment.span.path, f"line {comment.span.line}: {parsed}"))
    return directives, problems


def apply_suppressions(
    findings: Sequence[Finding], comments: Iterable[Comment], language: Language
) -> tuple[list[Finding], list[Notification]]:
    """Mark each finding silenced by a directive on its line or on a comment-only line just above."""
    directives, problems = parse_directives(comments, language)
    by_line: dict[tuple[str, int], list[Directive]] = {}
    for directive in directives:
        span = directive.comment.span
        by_line.setdefault((span.path, span.line), []).append(directive)
    marked = []
    for finding in findings:
        match = _matching(finding, by_line)
        if match is not None:
            suppression = Suppression(match.kind, match.comment.span, match.justification)
            finding = replace(finding, suppression=suppression)
        marked.append(finding)
    return marked, problems


def _matching(finding: Finding, by_line: dict[tuple[str, int], list[Directive]]) -> Directive | None:
    path, line = finding.span.path, finding.span.line
    for directive in by_line.get((path, line), []):
        if directive.covers(finding.code):
            return directive
    for directive in by_line.get((path, line - 1), []):
        if directive.comment.is_own_line and directive.covers(finding.code):
            return directive
    return None
