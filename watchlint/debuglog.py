"""Debug messages, shown with -v: `logging` is imported only when -v asks for them (a run without -v saves its
import, a few milliseconds of a warm run)."""

from __future__ import annotations

import sys

_FORMAT = "watchlint: %(name)s: %(message)s"


def configure(verbose: bool) -> None:
    """Send debug messages to stderr with -v; without it, keep logging at warnings if it is imported at all."""
    if not verbose and "logging" not in sys.modules:
        return  # nothing imported it: no message can be emitted, and the import is saved
    import logging

    level = logging.DEBUG if verbose else logging.WARNING
    logging.basicConfig(level=level, format=_FORMAT, stream=sys.stderr, force=True)


def debug(name: str, message: str, *args: object) -> None:
    """Log a debug message under a module's name, with the traceback of the exception being handled, if any."""
    logging = sys.modules.get("logging")
    if logging is not None:  # not imported: -v did not configure it, so the message would go nowhere
        logging.getLogger(name).debug(message, *args, exc_info=sys.exc_info()[1] is not None)
