"""What every check receives besides the facts: the levels in force and the high-cardinality kinds."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from watchlint.findings import Level

if TYPE_CHECKING:
    from watchlint.checks._judge import Judgement
    from watchlint.facts import Facts, Site


@dataclass(frozen=True, slots=True)
class CheckContext:
    levels: Mapping[str, Level]  # level per code, after configuration
    kinds: frozenset[str]  # canonical names of the high-cardinality kinds (catalogue plus extra-kinds)
    cluster_scoped: frozenset[str] = frozenset()  # those no namespace holds: helps offer no namespace for them
    # each site's judgement by the ids of the site and its facts (_judge.judgement_of), both held so that the ids
    # stay theirs: every rule judges every site
    judgements: dict[tuple[int, int], tuple[Site, Facts, Judgement]] = field(
        default_factory=dict, compare=False, repr=False
    )
