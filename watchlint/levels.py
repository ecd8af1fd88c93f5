"""Rule levels. Apart from findings.py, which re-exports them, because the rule catalogue and the settings
need them on every run, and a warm run needs no finding."""

from __future__ import annotations

from enum import StrEnum


class Level(StrEnum):
    """SARIF result levels, in decreasing severity."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"
