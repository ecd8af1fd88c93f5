"""SARIF 2.1.0: one run, every rule in tool.driver.rules, results with fingerprints, suppressions and fixes.

Built with sarif-om objects and serialized by walking their attrs fields (property names come from
the fields' `schema_property_name` metadata). None and schema defaults (`rank: -1`, `index: -1`…) are
dropped, except `level`, which is always explicit.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Any

import attr
import sarif_om as sarif

from watchlint import jsontext
from watchlint.catalog import Catalog, Rule
from watchlint.engine import Report
from watchlint.facts import Notification, NotificationLevel
from watchlint.findings import Finding, Fix, Level, Related
from watchlint.metadata import NAME, VERSION, repository_url, rule_doc_url
from watchlint.source import SourceLines, Span

EXPLICIT_FIELDS = frozenset({"level"})  # written even when equal to the schema default
SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"
FINGERPRINT_KEY = "watchlint/v1"
MAX_RESULTS = 25_000  # GitHub code scanning rejects runs with more results


def within_github_limit(report: Report, limit: int = MAX_RESULTS) -> Report:
    """Keep at most `limit` results, the most severe first, and say how many were left out."""
    if len(report.findings) <= limit:
        return report
    rank = {Level.ERROR: 0, Level.WARNING: 1, Level.NOTE: 2}
    order = sorted(range(len(report.findings)), key=lambda index: (rank[report.findings[index].level], index))
    kept = sorted(order[:limit])
    left_out = len(report.findings) - limit
    message = (
        f"{left_out} results left out: GitHub code scanning accepts at most {limit} per run; the most severe were kept"
    )
    note = Notification(".", message, NotificationLevel.WARNING)
    return replace(
        report,
        findings=tuple(report.findings[index] for index in kept),
        notifications=(*report.notifications, note),
    )


def render(report: Report, catalog: Catalog, lines: SourceLines) -> str:
    report = within_github_limit(report)
    rules = list(catalog.active_rules)
    index = {rule.code: position for position, rule in enumerate(rules)}
    line_hashes = _LineHashes(lines)
    run = sarif.Run(
        tool=sarif.Tool(
            driver=sarif.ToolComponent(
                name=NAME,
                version=VERSION,
                semantic_version=VERSION,
                information_uri=repository_url() or None,
                rules=[_rule(rule) for rule in rules],
            )
        ),
        invocations=[
            sarif.Invocation(
                execution_successful=not report.has_failed_entirely,
                tool_execution_notifications=[_notification(item) for item in report.notifications],
            )
        ],
        results=[_result(finding, index, line_hashes) for finding in report.findings],
        column_kind="unicodeCodePoints",
    )
    log = sarif.SarifLog(version="2.1.0", schema_uri=SCHEMA_URI, runs=[run])
    return jsontext.dumps(to_json(log)) + "\n"


def to_json(value: Any) -> Any:
    """Serialize sarif-om objects to JSON-ready values, dropping None and schema defaults."""
    if attr.has(type(value)):
        document = {}
        for field in attr.fields(type(value)):
            item = getattr(value, field.name)
            if item is None or (field.name not in EXPLICIT_FIELDS and item == _default(field)):
                continue
            document[field.metadata["schema_property_name"]] = to_json(item)
        return document
    if isinstance(value, list | tuple):
        return [to_json(item) for item in value]
    if isinstance(value, dict):
        return {key: to_json(item) for key, item in value.items()}
    return value


def _default(field: Any) -> Any:
    default = field.default
    if isinstance(default, attr.Factory):  # type: ignore[arg-type]
        return default.factory()
    return default


def _rule(rule: Rule) -> sarif.ReportingDescriptor:
    return sarif.ReportingDescriptor(
        id=rule.code,
        name=rule.name,
        short_description=sarif.MultiformatMessageString(text=rule.summary),
        full_description=sarif.MultiformatMessageString(text=_first_paragraph(rule.body)),
        help=sarif.MultiformatMessageString(text=rule.body, markdown=rule.body),
        help_uri=rule_doc_url(rule.code) or None,
        default_configuration=sarif.ReportingConfiguration(level=str(rule.level)),
        properties=sarif.PropertyBag(tags=list(rule.tags)),
    )


def _first_paragraph(body: str) -> str:
    """The text under `## What it does`, up to the first blank line."""
    text = body.split("## What it does", 1)[-1].strip()
    return text.split("\n\n", 1)[0].replace("\n", " ").strip()


def _location(span: Span, message: str | None = None, location_id: int | None = None) -> sarif.Location:
    return sarif.Location(
        id=location_id,
        physical_location=sarif.PhysicalLocation(
            artifact_location=sarif.ArtifactLocation(uri=span.path, uri_base_id=SRCROOT),
            region=sarif.Region(
                start_line=span.line,
                start_column=span.column,
                end_line=span.end_line,
                end_column=span.end_column,
            ),
        ),
        message=sarif.Message(text=message) if message else None,
    )


def _related(items: tuple[Related, ...]) -> list[sarif.Location] | None:
    if not items:
        return None
    return [_location(item.span, item.message, position) for position, item in enumerate(items)]


def _fix(fix: Fix) -> sarif.Fix:
    changes: dict[str, list[sarif.Replacement]] = {}
    for edit in fix.edits:
        region = sarif.Region(
            start_line=edit.span.line,
            start_column=edit.span.column,
            end_line=edit.span.end_line,
            end_column=edit.span.end_column,
        )
        replacement = sarif.Replacement(
            deleted_region=region, inserted_content=sarif.ArtifactContent(text=edit.new_text)
        )
        changes.setdefault(edit.span.path, []).append(replacement)
    return sarif.Fix(
        description=sarif.Message(text=f"{fix.title} ({fix.applicability})"),
        artifact_changes=[
            sarif.ArtifactChange(
                artifact_location=sarif.ArtifactLocation(uri=path, uri_base_id=SRCROOT),
                replacements=replacements,
            )
            for path, replacements in sorted(changes.items())
        ],
    )


def _result(finding: Finding, index: dict[str, int], line_hashes: _LineHashes) -> sarif.Result:
    suppressions = None
    if finding.suppression is not None:
        suppressions = [sarif.Suppression(kind="inSource", justification=finding.suppression.justification or None)]
    fixes = [_fix(fix) for fix in finding.fixes if fix.edits] or None
    return sarif.Result(
        rule_id=finding.code,
        rule_index=index.get(finding.code),
        level=str(finding.level),
        message=sarif.Message(text=finding.message),
        locations=[_location(finding.span)],
        related_locations=_related(finding.related),
        partial_fingerprints={
            "primaryLocationLineHash": line_hashes.hash(finding.span),
            FINGERPRINT_KEY: finding.fingerprint(),
        },
        suppressions=suppressions,
        fixes=fixes,
        properties={"kind": finding.kind, "help": finding.help},
    )


def _notification(item: Notification) -> sarif.Notification:
    location = sarif.Location(
        physical_location=sarif.PhysicalLocation(
            artifact_location=sarif.ArtifactLocation(uri=item.path, uri_base_id=SRCROOT),
            region=sarif.Region(start_line=item.line) if item.line is not None else None,
        )
    )
    return sarif.Notification(
        level=str(item.level),
        message=sarif.Message(text=item.message),
        locations=[location],
        exception=sarif.Exception(kind="InternalError", message=item.detail) if item.detail else None,
    )


class _LineHashes:
    """primaryLocationLineHash: a hash of the whitespace-free line text plus its occurrence in the file."""

    def __init__(self, lines: SourceLines) -> None:
        self._lines = lines
        self._seen: dict[tuple[str, str], int] = {}

    def hash(self, span: Span) -> str:
        text = self._lines.line(span.path, span.line) or ""
        digest = hashlib.sha256("".join(text.split()).encode("utf-8")).hexdigest()[:16]
        occurrence = self._seen.get((span.path, digest), 0) + 1
        self._seen[(span.path, digest)] = occurrence
        return f"{digest}:{occurrence}"
