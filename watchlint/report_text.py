"""The text report, in the style of ruff and rustc: location, code, message, the source line, help."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

import click

from watchlint.engine import Report
from watchlint.facts import Notification
from watchlint.findings import Applicability, Finding, Fix, Mitigated
from watchlint.source import SourceLines, Span

if TYPE_CHECKING:
    from watchlint.rendered import Blocks

TAB_WIDTH = 4
MAX_PREVIEW_EDITS = 2  # the main edit and an import: enough to see what --fix would do
MAX_SNIPPET_WIDTH = 240  # display columns; longer lines (minified, generated) are cut around the span
SNIPPET_CONTEXT = 60


@dataclass(frozen=True, slots=True)
class TextOptions:
    color: bool = False
    show_suppressed: bool = False
    show_mitigated: bool = False
    show_summary: bool = True


def render(report: Report, lines: SourceLines, options: TextOptions, rendered: Blocks | None = None) -> str:
    """Render findings, optional mitigated sites and the summary line; `rendered` holds findings' blocks
    rendered before with the same colours."""
    paint = _Painter(options.color)
    shown = [finding for finding in report.findings if options.show_suppressed or not finding.is_suppressed]
    if rendered is None:
        blocks = [_render_finding(finding, lines, paint) for finding in shown]
    else:
        blocks = [rendered.block(finding, partial(_render_finding, finding, lines, paint)) for finding in shown]
    if options.show_mitigated and report.mitigated:
        blocks.append("\n".join(_render_mitigated(item, paint) for item in report.mitigated) + "\n")
    if options.show_summary:
        blocks.append(_summary(report, options, paint))
    return "\n".join(blocks)


def render_notification(notification: Notification, color: bool) -> str:
    """One line for stderr: `warning: path: message`."""
    label = click.style(f"{notification.level}:", fg="yellow", bold=True) if color else f"{notification.level}:"
    return f"{label} {notification.path}: {notification.message}"


class _Painter:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, **style: object) -> str:
        return click.style(text, **style) if self.enabled else text  # type: ignore[arg-type]


def _location(span: Span) -> str:
    return f"{span.path}:{span.line}:{span.column}"


def _render_finding(finding: Finding, lines: SourceLines, paint: _Painter) -> str:
    fixable = " [*]" if finding.is_fixable else ""
    head = f"{paint(_location(finding.span), bold=True)}: {paint(finding.code, fg='red', bold=True)}{fixable} "
    out = [head + finding.message]
    out.extend(_snippet(finding.span, lines, paint))
    indent = " " * (len(str(finding.span.line)) + 1)
    if finding.suppression is not None:
        reason = finding.suppression.justification or "no reason given"
        out.append(f"{indent}= suppressed: {reason} ({_location(finding.suppression.span)})")
    out.extend(f"{indent}= note: {_location(item.span)}: {item.message}" for item in finding.related)
    if finding.help:
        out.append(f"{indent}= {paint('help', fg='cyan', bold=True)}: {finding.help}")
    fix = next((fix for fix in finding.fixes if fix.edits), None)
    if fix is not None:  # the help may name what the fix does not do (a selector, a namespace scope)
        out.append(f"{indent}= {paint('fix', fg='cyan', bold=True)}: {fix.title} [{fix.applicability}]")
        out.extend(f"{indent}  {line}" for line in _preview(fix, lines, paint))
    return "\n".join(out) + "\n"


def _preview(fix: Fix, lines: SourceLines, paint: _Painter) -> list[str]:
    """The lines the fix changes, as `-`/`+` pairs under `path:line`, then how many edits are not shown: code
    pasted from a preview without them (the import a DisableFor entry needs, say) would not compile."""
    out = []
    shown = 0
    for edit in fix.edits[:MAX_PREVIEW_EDITS]:
        span = edit.span
        old = lines.line(span.path, span.line)
        if old is None or span.end_line != span.line:
            continue
        shown += 1
        out.append(f"{span.path}:{span.line}")
        is_insert = span.column == span.end_column
        if is_insert and span.column == 1 and edit.new_text.endswith("\n"):
            added = edit.new_text[:-1].split("\n")
        else:
            new = old[: span.column - 1] + edit.new_text + old[span.end_column - 1 :]
            out.append(paint(f"- {old.expandtabs(TAB_WIDTH)}", fg="red"))
            added = new.split("\n")
        out.extend(paint(f"+ {line.expandtabs(TAB_WIDTH)}", fg="green") for line in added)
    left_out = len(fix.edits) - shown
    if left_out:
        counted = f"and {_plural(left_out, 'more edit')}" if shown else f"{_plural(left_out, 'edit')} not shown"
        option = "--diff --unsafe-fixes" if fix.applicability is Applicability.UNSAFE else "--diff"
        out.append(f"… {counted} (see {option})")
    return out


def _snippet(span: Span, lines: SourceLines, paint: _Painter) -> list[str]:
    text = lines.line(span.path, span.line)
    if text is None:
        return []
    shown, start = _expand(text, span.column - 1)
    if span.end_line == span.line:
        _, end = _expand(text, span.end_column - 1)
    else:
        end = len(shown)
    shown, start, end = _window(shown, start, end)
    width = len(str(span.line))
    gutter = " " * width
    carets = "^" * max(1, end - start)
    return [
        f"{gutter} |",
        f"{span.line} | {shown}",
        f"{gutter} | {' ' * start}{paint(carets, fg='red', bold=True)}",
    ]


def _window(shown: str, start: int, end: int) -> tuple[str, int, int]:
    """Cut a line too long for a terminal (minified or generated code) to the span and some context around it."""
    if len(shown) <= MAX_SNIPPET_WIDTH:
        return shown, start, end
    end = min(end, start + MAX_SNIPPET_WIDTH - 2 * SNIPPET_CONTEXT)  # a span longer than the window shows its head
    left = max(0, start - SNIPPET_CONTEXT)
    right = min(len(shown), end + SNIPPET_CONTEXT)
    prefix = "…" if left > 0 else ""
    suffix = "…" if right < len(shown) else ""
    offset = len(prefix) - left
    return prefix + shown[left:right] + suffix, start + offset, end + offset


def _expand(text: str, column: int) -> tuple[str, int]:
    """Expand tabs for display and map a 0-based code-point column to its display column."""
    prefix = text[:column].expandtabs(TAB_WIDTH)
    return text.expandtabs(TAB_WIDTH), len(prefix)


def _render_mitigated(item: Mitigated, paint: _Painter) -> str:
    evidence = f" ({_location(item.evidence.span)}: {item.evidence.message})" if item.evidence else ""
    return f"{_location(item.span)}: {paint('ok', fg='green')} {item.code} [{item.reason}] `{item.construct}`{evidence}"


def _summary(report: Report, options: TextOptions, paint: _Painter) -> str:
    active = report.active_findings
    suppressed = len(report.findings) - len(active)
    files = _plural(report.files_analyzed, "file")
    details = []
    if report.baselined:
        details.append(f"{report.baselined} baselined")
    if suppressed:
        details.append(f"{suppressed} suppressed" + ("" if options.show_suppressed else ", hidden"))
    if report.mitigated and not options.show_mitigated:
        details.append(f"{_plural(len(report.mitigated), 'mitigated site')}, see --show-mitigated")
    suffix = f" ({'; '.join(details)})" if details else ""
    if not active:
        return paint(f"No findings in {files}{suffix}.", fg="green", bold=True)
    counted = _count_by_code(active)
    fixable = sum(1 for finding in active if finding.is_fixable)
    unsafe = sum(1 for finding in active if finding.has_unsafe_fix)
    # the files the findings are in, of those analyzed: "in 9 files" would read as where they are
    holding = len({finding.span.path for finding in active})
    place = files if holding == report.files_analyzed else f"{holding} of {files}"
    line = paint(f"Found {_plural(len(active), 'finding')} in {place}{suffix}: {counted}.", bold=True)
    if fixable:
        line += f"\n[*] {fixable} fixable with `--fix`."
    if unsafe:
        # counted in findings, as the line above: findings proposing one edit share it when it is applied
        line += f"\n{unsafe} {'more ' if fixable else ''}fixable with `--fix --unsafe-fixes`."
    return line


def _count_by_code(findings: Sequence[Finding]) -> str:
    counts: dict[str, int] = {}
    for finding in findings:
        counts[finding.code] = counts.get(finding.code, 0) + 1
    return ", ".join(f"{count} {code}" for code, count in sorted(counts.items()))


def _plural(count: int, noun: str, plural: str = "") -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {plural or noun + 's'}"
