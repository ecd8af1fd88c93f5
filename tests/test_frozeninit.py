"""Frozen slotted dataclasses given an `__init__` that sets their slots directly (watchlint/frozeninit.py)."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import InitVar, dataclass, field

import pytest

from watchlint.frozeninit import direct_init
from watchlint.go.model import TypeRef
from watchlint.source import Span


@dataclass(frozen=True, slots=True)
class _Generated:
    package: str
    name: str
    pointer: bool = False
    tags: tuple[str, ...] = ()


@direct_init
@dataclass(frozen=True, slots=True)
class _Direct:
    package: str
    name: str
    pointer: bool = False
    tags: tuple[str, ...] = ()


def test_a_class_set_directly_builds_compares_copies_and_pickles_as_the_dataclass_does() -> None:
    given = [(("k8s.io/api", "Pod"), {}), (("k8s.io/api",), {"name": "Pod", "tags": ("x",)}), (("p", "n", True), {})]
    for arguments, keywords in given:
        direct, generated = _Direct(*arguments, **keywords), _Generated(*arguments, **keywords)
        assert dataclasses.astuple(direct) == dataclasses.astuple(generated)
        assert repr(direct) == repr(generated).replace("_Generated", "_Direct")
    pod = _Direct("k8s.io/api", "Pod")
    assert pod == _Direct("k8s.io/api", "Pod", False, ())
    assert hash(pod) == hash(_Direct("k8s.io/api", "Pod"))
    assert dataclasses.replace(pod, pointer=True) == _Direct("k8s.io/api", "Pod", True)
    assert pickle.loads(pickle.dumps(pod)) == pod
    with pytest.raises(dataclasses.FrozenInstanceError):
        pod.name = "Secret"  # type: ignore[misc]
    with pytest.raises(TypeError, match=r"_Direct.__init__\(\) missing 1 required positional argument: 'name'"):
        _Direct("k8s.io/api")  # type: ignore[call-arg]


def test_the_front_ends_hot_classes_stay_frozen_and_ordered() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        TypeRef("k8s.io/api/core/v1", "Secret").pointer = True  # type: ignore[misc]
    assert sorted([Span("b.go", 1, 1, 1, 2), Span("a.go", 3, 1, 3, 2)])[0].path == "a.go"


def test_classes_whose_fields_cannot_be_set_directly_are_refused_where_they_are_defined() -> None:
    with pytest.raises(TypeError, match="not a frozen, slotted dataclass"):

        @direct_init
        @dataclass(slots=True)
        class _Mutable:
            name: str

    with pytest.raises(TypeError, match="not a frozen, slotted dataclass"):

        @direct_init
        @dataclass(frozen=True)
        class _Unslotted:
            name: str

    with pytest.raises(TypeError, match="plain defaults"):

        @direct_init
        @dataclass(frozen=True, slots=True)
        class _Factory:
            names: list[str] = field(default_factory=list)

    with pytest.raises(TypeError, match="plain defaults"):

        @direct_init
        @dataclass(frozen=True, slots=True, kw_only=True)
        class _KeywordOnly:
            name: str

    with pytest.raises(TypeError, match="plain defaults"):

        @direct_init
        @dataclass(frozen=True, slots=True)
        class _WithInitVar:
            name: str
            seed: InitVar[int] = 0

    with pytest.raises(TypeError, match="plain defaults"):

        @direct_init
        @dataclass(frozen=True, slots=True)
        class _PostInit:
            name: str

            def __post_init__(self) -> None:
                pass
