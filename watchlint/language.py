"""The languages watchlint analyzes, one front-end each."""

from __future__ import annotations

from enum import StrEnum


class Language(StrEnum):
    GO = "go"
    PYTHON = "python"
