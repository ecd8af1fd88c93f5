"""The user-facing error type: a mistake in the invocation or configuration, reported in one line with exit 2."""

from __future__ import annotations


class WatchlintError(Exception):
    """A usage, configuration or catalogue error; its message is shown as is, without a traceback."""
