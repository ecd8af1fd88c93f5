"""Frozen slotted dataclasses whose `__init__` sets each slot through its descriptor.

A frozen dataclass's `__init__` sets each field with `object.__setattr__`, as its own `__setattr__` refuses:
the Go front-end makes about 110,000 such objects per 100,000 lines of Go (type references, calls, function
keys, declarations, spans), and unpickling facts makes them again. Setting the slots' descriptors directly
takes about half as long. The class stays frozen, and compares, copies (`dataclasses.replace`) and pickles as
before.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

_Class = TypeVar("_Class", bound=type)


def direct_init(cls: _Class) -> _Class:
    """Give a frozen, slotted dataclass an `__init__` that sets its slots directly (apply it above
    `@dataclass`). Only positional fields with plain defaults are supported: a class with a default factory,
    a keyword-only or init=False field, an InitVar or a `__post_init__` is refused where it is defined."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in vars(cls):
        raise TypeError(f"{cls.__name__}: not a frozen, slotted dataclass")
    fields = dataclasses.fields(cls)
    generated = vars(cls)["__init__"].__code__
    expected = ("self", *(field.name for field in fields))
    if (
        hasattr(cls, "__post_init__")
        or generated.co_kwonlyargcount
        or generated.co_varnames[: generated.co_argcount] != expected
        or any(field.default_factory is not dataclasses.MISSING for field in fields)
    ):
        raise TypeError(f"{cls.__name__}: only positional fields with plain defaults can be set directly")
    namespace: dict[str, Any] = {}
    parameters, body = [], []
    for field in fields:
        namespace[f"_set_{field.name}"] = vars(cls)[field.name].__set__
        if field.default is dataclasses.MISSING:
            parameters.append(field.name)
        else:
            namespace[f"_default_{field.name}"] = field.default
            parameters.append(f"{field.name}=_default_{field.name}")
        body.append(f"    _set_{field.name}(self, {field.name})\n")
    source = f"def __init__(self, {', '.join(parameters)}):\n{''.join(body) or '    pass'}\n"
    exec(source, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    cls.__init__ = init  # type: ignore[misc]
    return cls
