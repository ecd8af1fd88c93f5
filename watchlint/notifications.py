"""Notifications: problems with one file or unit that did not stop the run (a file that cannot be read, a
front-end's internal error). Apart from facts.py, which re-exports them, because discovery and a warm run
need them and not the facts."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from watchlint import pickling


class NotificationLevel(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True, slots=True)
class Notification:
    """A problem with one file or unit that did not stop the run."""

    path: str  # display path of the file or unit
    message: str  # one line for the user
    level: NotificationLevel = NotificationLevel.WARNING
    detail: str = ""  # a traceback, shown with -v and kept in SARIF
    line: int | None = None  # where in the file the problem is, when one line is (a syntax error)


pickling.register(Notification)
