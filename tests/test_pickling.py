"""Facts and checked outcomes survive pickling (the pool and the cache) field for field, through the
reducers registered in watchlint/pickling.py."""

from __future__ import annotations

import copyreg
import pickle
from dataclasses import dataclass
from pathlib import Path

import pytest

from watchlint import engine, extraction, pickling
from watchlint.catalog import Catalog
from watchlint.config import CommandLine
from watchlint.discover import discover
from watchlint.facts import Facts, Site
from watchlint.findings import Finding
from watchlint.source import Span

EXAMPLES = Path(__file__).parent.parent / "examples"


@pytest.mark.parametrize("example", ["go-operator", "kopf-operator"])
def test_facts_and_outcomes_of_the_examples_round_trip(
    example: str, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(EXAMPLES / example)
    resolver = engine.SettingsResolver(CommandLine(), catalog)
    (unit,) = discover([Path(".")], resolver).units
    settings = resolver.settings_for(unit.root)
    extracted = extraction.extract_unit(unit, settings, catalog)
    assert extracted.facts is not None
    assert extracted.facts.sites
    reported = frozenset(str(path.relative_to(Path.cwd())) for path in unit.files)
    outcome = engine.evaluate(extracted.facts, settings, extracted.kinds, reported)
    assert outcome.findings
    for value in (extracted, outcome):
        assert pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)) == value


def test_the_classes_that_travel_have_reducers() -> None:
    for cls in (Facts, Site, Finding, Span, extraction.Extracted, engine.UnitOutcome):
        assert cls in copyreg.dispatch_table


def test_a_class_with_its_own_post_init_is_refused() -> None:
    @dataclass(frozen=True, slots=True)
    class Checked:
        value: int

        def __post_init__(self) -> None:
            pass

    with pytest.raises(TypeError, match="Checked"):
        pickling.register(Checked)
