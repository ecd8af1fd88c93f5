"""The Python front-end: extract(unit) -> Facts is its only public entry point."""

from __future__ import annotations

from watchlint.facts import Comment, Facts, Language, Notification, NotificationLevel
from watchlint.frontend import UnitInput, file_failure
from watchlint.python import parser


def extract(unit: UnitInput) -> Facts:
    files: list[str] = []
    comments: list[Comment] = []
    notifications: list[Notification] = []
    for source in unit.sources:
        try:
            parser.parse(source)
            comments.extend(parser.extract_comments(source))
        except parser.PythonSyntaxError as error:
            notifications.append(Notification(source.path, f"{error}; file skipped", NotificationLevel.ERROR))
            continue
        except Exception:  # one file's failure must not lose the unit
            notifications.append(file_failure(source))
            continue
        files.append(source.path)
    return Facts(
        language=Language.PYTHON,
        root=unit.shown_root,
        files=tuple(files),
        comments=tuple(comments),
        notifications=tuple(notifications),
    )
