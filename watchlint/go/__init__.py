"""The Go front-end: extract(unit) -> Facts is its only public entry point."""

from __future__ import annotations

import re

from watchlint.facts import Comment, Facts, Language, Notification, NotificationLevel
from watchlint.frontend import UnitInput, file_failure
from watchlint.go import parser
from watchlint.source import SourceFile

# The convention of `go generate` (https://go.dev/s/generatedcode), searched in the file's head.
_GENERATED = re.compile(rb"^// Code generated .* DO NOT EDIT\.\r?$", re.MULTILINE)
_GENERATED_HEAD_BYTES = 16 * 1024


def is_generated(source: SourceFile) -> bool:
    return _GENERATED.search(source.data[:_GENERATED_HEAD_BYTES]) is not None


def extract(unit: UnitInput) -> Facts:
    files: list[str] = []
    comments: list[Comment] = []
    notifications: list[Notification] = []
    for source in unit.sources:
        if is_generated(source):
            continue
        try:
            tree = parser.parse(source)
            error = parser.first_syntax_error(tree)
            if error is not None:
                line = error.start_point.row + 1
                message = f"syntax error at line {line}; analyzed what parsed"
                notifications.append(Notification(source.path, message, NotificationLevel.WARNING))
            comments.extend(parser.extract_comments(source, tree))
        except Exception:  # one file's failure must not lose the unit
            notifications.append(file_failure(source))
            continue
        files.append(source.path)
    return Facts(
        language=Language.GO,
        root=unit.shown_root,
        files=tuple(files),
        comments=tuple(comments),
        notifications=tuple(notifications),
    )
