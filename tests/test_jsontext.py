"""jsontext.dumps writes exactly what json.dumps(indent=2, ensure_ascii=False) writes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from watchlint import jsontext

SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
VALUES = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=4)
        | st.tuples(children, children)
        | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=30,
)


@given(VALUES)
def test_dumps_matches_the_standard_library(value: Any) -> None:
    assert jsontext.dumps(value) == json.dumps(value, indent=2, ensure_ascii=False)


def test_dumps_writes_nested_empty_containers_and_escapes() -> None:
    value = {"a": [], "b": {}, "c": [{"d": 'é\n"x"', "e": 1, "f": None, "g": True}]}
    assert jsontext.dumps(value) == (
        '{\n  "a": [],\n  "b": {},\n  "c": [\n    {\n      "d": "é\\n\\"x\\"",\n      "e": 1,\n'
        '      "f": null,\n      "g": true\n    }\n  ]\n}'
    )


@pytest.mark.parametrize("value", [{1: "x"}, {"a": object()}, [b"bytes"]])
def test_dumps_rejects_what_json_cannot_hold(value: Any) -> None:
    with pytest.raises(TypeError):
        jsontext.dumps(value)


def test_an_item_written_at_its_depth_is_placed_as_it_is() -> None:
    item = {"code": "WL001", "related": [{"line": 3, "message": 'ünïcode "quoted"'}], "fixes": [], "x": None}
    whole = {"version": 1, "findings": [item, item], "notifications": []}
    at_its_depth = json.dumps(item, indent=2, ensure_ascii=False).replace("\n", "\n    ")  # an item of a member
    placed = {"version": 1, "findings": [jsontext.Raw(at_its_depth)] * 2, "notifications": []}
    assert jsontext.dumps(placed) == jsontext.dumps(whole) == json.dumps(whole, indent=2, ensure_ascii=False)
