"""Pickling of the frozen, slotted dataclasses that facts and checked outcomes are made of.

For a slotted dataclass, `dataclasses` writes a __getstate__/__setstate__ pair that calls
`dataclasses.fields()` for every object; a warm run unpickles thousands of them and every worker of the
pool pickles its facts. Registered here, an object is pickled as its class and field values, and
unpickled by calling the class, with the field names looked up once per class.
"""

from __future__ import annotations

import copyreg
import dataclasses
import operator
from collections.abc import Callable
from typing import Any


def register(*classes: type) -> None:
    """Pickle these dataclasses by their fields (none of them may have an __init__ of its own or
    init=False fields: unpickling calls the class with every field value in order)."""
    for cls in classes:
        fields = dataclasses.fields(cls)
        if any(not field.init for field in fields) or "__post_init__" in vars(cls):
            raise TypeError(f"{cls.__name__}: cannot be rebuilt from its field values alone")
        copyreg.pickle(cls, _reducer(cls, tuple(field.name for field in fields)))


def _reducer(cls: type, names: tuple[str, ...]) -> Callable[[Any], tuple[type, tuple[Any, ...]]]:
    values = operator.attrgetter(*names)
    if len(names) == 1:
        return lambda item: (cls, (values(item),))
    return lambda item: (cls, values(item))
