"""GitHub workflow annotations: one `::warning file=…,line=…::message` command per unsuppressed finding."""

from __future__ import annotations

from watchlint.catalog import Catalog
from watchlint.engine import Report
from watchlint.facts import NotificationLevel
from watchlint.findings import Level

_COMMANDS = {Level.ERROR: "error", Level.WARNING: "warning", Level.NOTE: "notice"}
_NOTIFICATION_COMMANDS = {
    NotificationLevel.ERROR: "error",
    NotificationLevel.WARNING: "warning",
    NotificationLevel.NOTE: "notice",
}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render(report: Report, catalog: Catalog) -> str:
    names = {rule.code: rule.name for rule in catalog.rules}
    lines = []
    for finding in report.active_findings:
        span = finding.span
        properties = ",".join(
            f"{key}={_escape_property(str(value))}"
            for key, value in (
                ("file", span.path),
                ("line", span.line),
                ("col", span.column),
                ("endLine", span.end_line),
                ("endColumn", span.end_column),
                ("title", f"{finding.code} {names.get(finding.code, '')}".strip()),
            )
        )
        message = finding.message + (f"\n{finding.help}" if finding.help else "")
        lines.append(f"::{_COMMANDS[finding.level]} {properties}::{_escape_data(message)}")
    for notification in report.notifications:
        command = _NOTIFICATION_COMMANDS[notification.level]
        title = _escape_property("watchlint")
        file = _escape_property(notification.path)
        where = f",line={notification.line}" if notification.line is not None else ""
        lines.append(f"::{command} file={file}{where},title={title}::{_escape_data(notification.message)}")
    return "".join(line + "\n" for line in lines)
