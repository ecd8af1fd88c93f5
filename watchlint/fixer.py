"""Apply fixes: safe ones by default, unsafe ones on request, in rounds until nothing changes (as ruff does).

Each round re-analyzes the tree with the edited contents held in memory, applies every chosen fix whose
edits do not overlap an earlier one's, and checks that each edited file still parses. Files are written
only at the end, atomically, keeping their mode, BOM and line endings; `--diff` writes nothing.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from watchlint.atomic import write_atomically
from watchlint.catalog import Catalog
from watchlint.config import CommandLine
from watchlint.engine import Report, RunOptions, run
from watchlint.findings import Applicability, Finding, Fix
from watchlint.source import SourceError, decode_source, display_path

MAX_ROUNDS = 10
_UTF8_BOM = b"\xef\xbb\xbf"


@dataclass(slots=True)
class FixOutcome:
    """What fixing changed, and the report of what remains."""

    report: Report
    original: dict[Path, bytes] = field(default_factory=dict)  # absolute path -> bytes before the first edit
    current: dict[Path, bytes] = field(default_factory=dict)  # absolute path -> bytes after the last round
    fixed: list[Finding] = field(default_factory=list)  # the findings whose fix was applied, over all rounds
    rounds: int = 0

    @property
    def applied(self) -> int:
        return len(self.fixed)

    @property
    def changed(self) -> list[Path]:
        return sorted(path for path, data in self.current.items() if data != self.original.get(path))

    def diff(self) -> str:
        """A unified diff of every changed file, paths relative to the working directory."""
        chunks: list[str] = []
        for path in self.changed:
            shown = display_path(path)
            before = self.original[path].decode("utf-8", errors="replace").splitlines(keepends=True)
            after = self.current[path].decode("utf-8", errors="replace").splitlines(keepends=True)
            chunks.extend(difflib.unified_diff(before, after, f"a/{shown}", f"b/{shown}"))
        return "".join(chunks)


def chosen_fix(finding: Finding, include_unsafe: bool) -> Fix | None:
    """The first fix of an unsuppressed finding that has edits and is allowed."""
    if finding.is_suppressed:
        return None
    allowed = {Applicability.SAFE, Applicability.UNSAFE} if include_unsafe else {Applicability.SAFE}
    return next((fix for fix in finding.fixes if fix.edits and fix.applicability in allowed), None)


def fix(
    paths: Sequence[Path],
    command_line: CommandLine,
    catalog: Catalog,
    include_unsafe: bool,
    options: RunOptions | None = None,
) -> FixOutcome:
    """Fix in rounds in memory; the caller writes (`write_all`) or prints the diff."""
    overlay: dict[Path, bytes] = {}
    outcome = FixOutcome(run(paths, command_line, catalog, options=options))
    cwd = Path.cwd()
    for _ in range(MAX_ROUNDS):
        broken = {n.path for n in outcome.report.notifications}  # never edit a file that failed to parse
        fixes = [
            (finding, chosen)
            for finding in outcome.report.findings
            if (chosen := chosen_fix(finding, include_unsafe)) is not None
            and not any(edit.span.path in broken for edit in chosen.edits)
        ]
        applied = _apply_round(fixes, overlay, outcome.original, cwd)
        if not applied:
            break
        outcome.fixed.extend(applied)
        outcome.rounds += 1
        outcome.report = run(paths, command_line, catalog, overlay, options)
    outcome.current = dict(overlay)
    return outcome


def _apply_round(
    fixes: list[tuple[Finding, Fix]], overlay: dict[Path, bytes], original: dict[Path, bytes], cwd: Path
) -> list[Finding]:
    """Apply the fixes whose edits overlap no earlier edit; return the findings they fixed. Those editing more
    files come first: a read that several managers run is judged by all of their options, so a narrower fix
    applied before its fix (DisableFor for the kind in one of them, for a read of that one alone) would leave the
    read fixed in the next round and the other managers unedited."""
    taken: dict[Path, list[tuple[int, int]]] = {}
    planned: dict[Path, list[tuple[int, int, str]]] = {}
    touched: list[tuple[Finding, set[Path]]] = []
    widest_first = sorted(fixes, key=lambda item: -len({edit.span.path for edit in item[1].edits}))
    for finding, candidate in widest_first:
        located = _locate(candidate, overlay, original, cwd)
        if located is None or any(_overlaps(taken.get(path, []), start, end) for path, start, end, _ in located):
            continue
        for path, start, end, text in located:
            taken.setdefault(path, []).append((start, end))
            planned.setdefault(path, []).append((start, end, text))
        touched.append((finding, {path for path, _, _, _ in located}))
    rejected = set()
    for path, edits in planned.items():
        edited = _edit(overlay[path], edits)
        if path.suffix == ".go":
            edited = _realigned(overlay[path], edited, edits)
        if _parses(path, edited):
            overlay[path] = edited
        else:
            rejected.add(path)  # the result would not parse: keep the file as it was
    return [finding for finding, paths in touched if not paths & rejected]


def _locate(
    candidate: Fix, overlay: dict[Path, bytes], original: dict[Path, bytes], cwd: Path
) -> list[tuple[Path, int, int, str]] | None:
    located = []
    for edit in candidate.edits:
        path = Path(os.path.normpath(cwd / edit.span.path))
        if path not in overlay:
            try:
                overlay[path] = original[path] = path.read_bytes()
            except OSError:
                return None
        try:
            source = decode_source(overlay[path], edit.span.path)
        except SourceError:
            return None
        bom = len(_UTF8_BOM) if overlay[path].startswith(_UTF8_BOM) else 0
        start = source.offset(edit.span.line, edit.span.column) + bom
        end = source.offset(edit.span.end_line, edit.span.end_column) + bom
        text = edit.new_text.replace("\n", "\r\n") if b"\r\n" in overlay[path] else edit.new_text
        located.append((path, start, end, text))
    return located


def _overlaps(taken: list[tuple[int, int]], start: int, end: int) -> bool:
    # Two insertions at one offset overlap too: their order would be arbitrary (a later round decides).
    return any((start < other_end and other_start < end) or start == other_start for other_start, other_end in taken)


def _edit(data: bytes, edits: list[tuple[int, int, str]]) -> bytes:
    for start, end, text in sorted(edits, reverse=True):
        data = data[:start] + text.encode("utf-8") + data[end:]
    return data


def _realigned(before: bytes, after: bytes, edits: list[tuple[int, int, str]]) -> bytes:
    """A Go file's trailing comments laid out again around the lines the edits changed, as gofmt would (see
    trailingcomments)."""
    from watchlint.go import trailingcomments  # the front-ends load on first use

    spans: list[trailingcomments.LineEdit] = []
    shift = 0
    for start, end, text in sorted(edits):
        old_first, old_last = before.count(b"\n", 0, start), before.count(b"\n", 0, end)
        first = old_first + shift
        spans.append((old_first, old_last, first, first + text.count("\n")))
        shift += text.count("\n") - (old_last - old_first)
    try:
        return trailingcomments.realign(before.decode("utf-8"), after.decode("utf-8"), spans).encode("utf-8")
    except UnicodeDecodeError:
        return after


def _parses(path: Path, data: bytes) -> bool:
    try:
        source = decode_source(data, path.name)
    except SourceError:
        return False
    if path.suffix == ".go":
        from watchlint.go import parser as go_parser  # the front-ends load on first use

        return go_parser.first_syntax_error(go_parser.parse(source)) is None
    if path.suffix == ".py":
        from watchlint.python import parser as python_parser  # the front-ends load on first use

        try:
            python_parser.parse(source)
        except python_parser.PythonSyntaxError:
            return False
    return True


def write_all(outcome: FixOutcome) -> None:
    """Write every changed file atomically (temp file + rename), keeping its permission bits."""
    for path in outcome.changed:
        write_atomically(path, outcome.current[path])
