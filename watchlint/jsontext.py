"""JSON text indented by two spaces, exactly as `json.dumps(value, indent=2, ensure_ascii=False)` writes it.

The standard library encodes indented JSON in pure Python, one generator step per value: a large report
spent more time there than in reading its facts from the cache. This writer appends to one list and leaves
the escaping of strings to the standard library's C function.
"""

from __future__ import annotations

import math
from json.encoder import encode_basestring  # the C implementation where CPython has it
from typing import Any

INDENT = "  "


class Raw(str):
    """JSON text written for its place (its lines indented for the depth it is at), placed as it is."""


def dumps(value: Any) -> str:
    """`value` (dicts with string keys, lists, tuples, strings, numbers, booleans, None, Raw) as indented JSON."""
    out: list[str] = []
    _write(value, "\n", out)
    return "".join(out)


def _write(value: Any, newline: str, out: list[str]) -> None:
    if type(value) is Raw:
        out.append(value)
    elif isinstance(value, str):
        out.append(encode_basestring(value))
    elif isinstance(value, dict):
        _write_object(value, newline, out)
    elif isinstance(value, list | tuple):
        _write_array(value, newline, out)
    else:
        out.append(_scalar(value))


def _write_object(value: dict[str, Any], newline: str, out: list[str]) -> None:
    if not value:
        out.append("{}")
        return
    inner = newline + INDENT
    separator = "{" + inner
    keys = _encoded_keys
    for key, item in value.items():
        encoded = keys.get(key)
        if encoded is None:
            if not isinstance(key, str):
                raise TypeError(f"keys must be str, not {type(key).__name__}")
            encoded = keys[key] = encode_basestring(key) + ": "
        kind = type(item)
        if kind is str:  # the common cases, without a call
            out.append(separator + encoded + encode_basestring(item))
        elif kind is int:
            out.append(separator + encoded + int.__repr__(item))
        else:
            out.append(separator + encoded)
            _write(item, inner, out)
        separator = "," + inner
    out.append(newline + "}")


_encoded_keys: dict[str, str] = {}  # reports repeat a few dozen keys thousands of times


def _write_array(value: list[Any] | tuple[Any, ...], newline: str, out: list[str]) -> None:
    if not value:
        out.append("[]")
        return
    inner = newline + INDENT
    separator = "[" + inner
    for item in value:
        out.append(separator)
        _write(item, inner, out)
        separator = "," + inner
    out.append(newline + "]")


def _scalar(value: object) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return float.__repr__(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
