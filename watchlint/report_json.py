"""The JSON report: {"version": 1, "findings": [...], "notifications": [...]}, sorted, relative POSIX paths."""

from __future__ import annotations

from typing import Any

from watchlint import jsontext
from watchlint.catalog import Catalog
from watchlint.engine import Report
from watchlint.facts import Notification
from watchlint.findings import Finding, Fix, Mitigated, Related
from watchlint.rendered import FindingBlocks
from watchlint.source import Span

FORMAT_VERSION = 1
_FINDING_DEPTH = 2  # a finding is an item of the document's "findings" list


def render(report: Report, catalog: Catalog, show_mitigated: bool = False, blocks: FindingBlocks | None = None) -> str:
    """The report; `blocks` holds the findings' objects as rendered before (an edit re-renders its unit's)."""
    names = {rule.code: rule.name for rule in catalog.rules}

    def written(finding: Finding) -> dict[str, Any] | jsontext.Raw:
        if blocks is None or finding.suppression is not None:  # a baseline's mark is no part of the unit's key
            return _finding(finding, names.get(finding.code, ""))
        name = names.get(finding.code, "")
        return jsontext.Raw(blocks.block(finding, lambda: jsontext.dumps_at(_finding(finding, name), _FINDING_DEPTH)))

    document: dict[str, Any] = {
        "version": FORMAT_VERSION,
        "findings": [written(finding) for finding in report.findings],
        "notifications": [_notification(item) for item in report.notifications],
    }
    if show_mitigated:
        document["mitigated"] = [_mitigated(item) for item in report.mitigated]
    return jsontext.dumps(document) + "\n"


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


def _fix(fix: Fix) -> dict[str, Any]:
    return {
        "title": fix.title,
        "applicability": str(fix.applicability),
        "edits": [{**_span(edit.span), "new_text": edit.new_text} for edit in fix.edits],
    }


def _finding(finding: Finding, name: str) -> dict[str, Any]:
    suppression = None
    if finding.suppression is not None:
        suppression = {
            "kind": str(finding.suppression.kind),
            "justification": finding.suppression.justification,
        }
    return {
        "code": finding.code,
        "name": name,
        "level": str(finding.level),
        **_span(finding.span),
        "message": finding.message,
        "kind": finding.kind,
        "construct": finding.construct,
        "related": [_related(item) for item in finding.related],
        "help": finding.help,
        "fixes": [_fix(fix) for fix in finding.fixes],
        "suppressed": finding.is_suppressed,
        "suppression": suppression,
        "fingerprint": finding.fingerprint(),
    }


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
