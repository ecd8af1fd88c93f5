"""The command line's entry point: compiled dataclass code is kept (watchlint/codecache.py) before any
dataclass is made, then watchlint.cli runs."""

from __future__ import annotations

from watchlint import codecache


def main() -> int:
    codecache.install()
    from watchlint.cli import main as run_command_line

    try:
        return run_command_line()
    finally:
        codecache.save()
