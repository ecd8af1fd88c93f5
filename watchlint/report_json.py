"""The JSON report: {"version": 1, "findings": [...], "notifications": [...]}, sorted, relative POSIX paths."""

from __future__ import annotations

from collections.abc import Iterable
from json.encoder import encode_basestring as _quoted  # the C implementation where CPython has it
from typing import Any

from watchlint import jsontext
from watchlint.catalog import Catalog
from watchlint.engine import Report
from watchlint.facts import Notification
from watchlint.findings import Finding, Fix, Mitigated, Related, number_occurrences
from watchlint.rendered import AheadBlocks, Blocks, block_id
from watchlint.source import Span

FORMAT_VERSION = 1
_FINDING_DEPTH = 2  # a finding is an item of the document's "findings" list


def render(report: Report, catalog: Catalog, show_mitigated: bool = False, blocks: Blocks | None = None) -> str:
    """The report; `blocks` holds the findings' objects as rendered before (an edit re-renders its unit's, a
    run without a cache its last unit's)."""
    names = _rule_names(catalog)

    def written(finding: Finding) -> jsontext.Raw:
        name = names.get(finding.code, "")
        if blocks is None or finding.suppression is not None:  # a baseline's mark is no part of the unit's key
            return jsontext.Raw(_finding(finding, name))
        return jsontext.Raw(blocks.block(finding, lambda: _finding(finding, name)))

    document: dict[str, Any] = {
        "version": FORMAT_VERSION,
        "findings": [written(finding) for finding in report.findings],
        "notifications": [_notification(item) for item in report.notifications],
    }
    if show_mitigated:
        document["mitigated"] = [_mitigated(item) for item in report.mitigated]
    return jsontext.dumps(document) + "\n"


def render_ahead(findings: Iterable[Finding], catalog: Catalog, ahead: AheadBlocks) -> None:
    """Render one unit's findings as its outcome comes, numbered as the report will number them (by file, and
    each file is one unit's); suppressed ones are left to the report, where a baseline may mark others."""
    names = _rule_names(catalog)
    for finding in number_occurrences(list(findings)):
        if finding.suppression is None:
            ahead.blocks[block_id(finding)] = _finding(finding, names.get(finding.code, ""))


def _rule_names(catalog: Catalog) -> dict[str, str]:
    return {rule.code: rule.name for rule in catalog.rules}


def _span(span: Span) -> dict[str, Any]:
    return {
        "path": span.path,
        "line": span.line,
        "column": span.column,
        "end_line": span.end_line,
        "end_column": span.end_column,
    }


def _related(item: Related) -> dict[str, Any]:
    return {**_span(item.span), "message": item.message}


# A finding's object, written as jsontext.dumps writes it at the depth of an item of the document's findings:
# directly rather than built as dicts for the general writer, which took twice as long, and a report's findings
# are written after the last unit is analyzed, when nothing else runs (~25 ms for 800 findings).
_FINDING_NEWLINE = "\n" + jsontext.INDENT * _FINDING_DEPTH


def _finding(finding: Finding, name: str) -> str:
    """A finding's object at the depth of an item of the document's findings (jsontext.Raw's)."""
    outer = _FINDING_NEWLINE
    inner = outer + jsontext.INDENT
    if finding.suppression is None:
        suppression = "null"
    else:
        deeper = inner + jsontext.INDENT
        suppression = (
            f'{{{deeper}"kind": {_quoted(str(finding.suppression.kind))},'
            f'{deeper}"justification": {_quoted(finding.suppression.justification)}{inner}}}'
        )
    related = _items(
        [_spanned(item.span, item.message, "message", inner + jsontext.INDENT) for item in finding.related], inner
    )
    fixes = _items([_fix(fix, inner + jsontext.INDENT) for fix in finding.fixes], inner)
    return (
        f'{{{inner}"code": {_quoted(finding.code)},{inner}"name": {_quoted(name)},'
        f'{inner}"level": {_quoted(str(finding.level))},{_span_members(finding.span, inner)},'
        f'{inner}"message": {_quoted(finding.message)},{inner}"kind": {_quoted(finding.kind)},'
        f'{inner}"construct": {_quoted(finding.construct)},{inner}"related": {related},'
        f'{inner}"help": {_quoted(finding.help)},{inner}"fixes": {fixes},'
        f'{inner}"suppressed": {"true" if finding.is_suppressed else "false"},{inner}"suppression": {suppression},'
        f'{inner}"fingerprint": {_quoted(finding.fingerprint())}{outer}}}'
    )


def _fix(fix: Fix, newline: str) -> str:
    inner = newline + jsontext.INDENT
    edits = _items(
        [_spanned(edit.span, edit.new_text, "new_text", inner + jsontext.INDENT) for edit in fix.edits], inner
    )
    return (
        f'{{{inner}"title": {_quoted(fix.title)},{inner}"applicability": {_quoted(str(fix.applicability))},'
        f'{inner}"edits": {edits}{newline}}}'
    )


def _spanned(span: Span, text: str, key: str, newline: str) -> str:
    """An object of a span's members and one more string (a related place's message, an edit's text)."""
    inner = newline + jsontext.INDENT
    return f'{{{_span_members(span, inner)},{inner}"{key}": {_quoted(text)}{newline}}}'


def _span_members(span: Span, inner: str) -> str:
    return (
        f'{inner}"path": {_quoted(span.path)},{inner}"line": {span.line},{inner}"column": {span.column},'
        f'{inner}"end_line": {span.end_line},{inner}"end_column": {span.end_column}'
    )


def _items(objects: list[str], newline: str) -> str:
    """A list of objects written at the depth below `newline`'s."""
    if not objects:
        return "[]"
    inner = newline + jsontext.INDENT
    return "[" + inner + ("," + inner).join(objects) + newline + "]"


def _notification(item: Notification) -> dict[str, Any]:
    return {"path": item.path, "level": str(item.level), "message": item.message}


def _mitigated(item: Mitigated) -> dict[str, Any]:
    return {
        "code": item.code,
        **_span(item.span),
        "kind": item.kind,
        "construct": item.construct,
        "reason": str(item.reason),
        "evidence": _related(item.evidence) if item.evidence else None,
    }
