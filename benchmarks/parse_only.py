"""watchlint with its Go analysis taken out: what a cold Go-only run costs before any pass of the analysis.

`python parse_only.py check . --no-cache --exclude '*.py' …` runs watchlint's command line as the installed
`watchlint` does (start-up, discovery, the process pool, reading and pickling, the report), but the Go
front-end only parses each file, indexes its nodes and reads its comments, as `watchlint.go.extract` does
before its first pass, and returns facts without sites. Set beside the parse floor (floor.py), it measures how
much of a run the rest of the tool costs with no analysis at all: the bound below which the Go / floor ratio
cannot go.

The front-end is swapped by name (this module, `__main__` in the forked workers), so each worker imports
watchlint's Go front-end itself, as a real run's workers do.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from watchlint.facts import Facts
    from watchlint.frontend import UnitInput


def extract(unit: UnitInput) -> Facts:
    """A Go unit's files parsed, indexed and their comments read, as watchlint.go.extract starts; no site."""
    from watchlint import go
    from watchlint.facts import Facts
    from watchlint.go.module import read_go_mod
    from watchlint.language import Language

    run = go._Run(unit, read_go_mod(unit.root))
    go._parse_each(run, lambda source: go._parse(run, source))
    return Facts(
        language=Language.GO,
        root=unit.shown_root,
        files=tuple(run.analyzed),
        comments=tuple(run.comments),
        notifications=tuple(run.notifications),
    )


def main() -> NoReturn:
    from watchlint import codecache

    codecache.install()  # before the first dataclass, as watchlint.launch does
    from watchlint import extraction
    from watchlint.language import Language

    extraction._FRONT_END_MODULES = {**extraction._FRONT_END_MODULES, Language.GO: "__main__"}
    from watchlint.launch import main as launch

    launch()


if __name__ == "__main__":
    sys.exit(main())
