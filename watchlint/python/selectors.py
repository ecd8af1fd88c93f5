"""The label selector an in-process test stands for, so a suggestion can name the exact `label_selector=`.

`labels.get("app") == "shop"` keeps `app=shop`, `"app" in labels` keeps `app`, `not in` keeps `!app`;
`and` joins requirements, and a test that only `continue`s keeps what it rejects. Anything else (`or`,
annotations, values that are no valid label) reads as no selector.
"""

from __future__ import annotations

import re

import libcst

from watchlint.python.flow import Flow
from watchlint.python.names import constant_string, is_none, literal_string

# Kubernetes label keys (an optional DNS-subdomain prefix and a name) and values
_KEY = re.compile(r"(?:[a-z0-9](?:[-a-z0-9.]{0,251}[a-z0-9])?/)?[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?")
_VALUE = re.compile(r"[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?")
_EQUALS = (libcst.Equal, libcst.NotEqual)
_CONTAINS = (libcst.In, libcst.NotIn)


def label_requirements(flow: Flow, test: libcst.BaseExpression, keeps: bool) -> list[str] | None:
    """The requirements of the objects a test keeps (`keeps`) or rejects; None when no selector says it."""
    if isinstance(test, libcst.UnaryOperation) and isinstance(test.operator, libcst.Not):
        return label_requirements(flow, test.expression, not keeps)
    if isinstance(test, libcst.BooleanOperation):
        # `a and b` keeps both; rejecting `a or b` keeps neither: either way each side must hold
        if isinstance(test.operator, libcst.And if keeps else libcst.Or):
            left = label_requirements(flow, test.left, keeps)
            right = label_requirements(flow, test.right, keeps)
            return left + right if left is not None and right is not None else None
        return None
    if isinstance(test, libcst.Comparison) and len(test.comparisons) == 1:
        return _comparison(flow, test.left, test.comparisons[0], keeps)
    key = _lookup(flow, test)
    if key is not None and _default(flow, test) not in (None, ""):
        return None  # `labels.get("managed", "yes")`: true for the unlabelled objects too (or not known)
    return [key] if key is not None and keeps else None  # a truthy label: present (an empty value aside)


def _comparison(
    flow: Flow, left: libcst.BaseExpression, target: libcst.ComparisonTarget, keeps: bool
) -> list[str] | None:
    operator, right = target.operator, target.comparator
    if isinstance(operator, _CONTAINS):
        key = constant_string(flow, left)
        if key is None or not _KEY.fullmatch(key) or not _is_labels(flow, right):
            return None
        return [key if isinstance(operator, libcst.In) == keeps else f"!{key}"]
    if not isinstance(operator, _EQUALS):
        return None
    key, value, looked_up = _lookup(flow, left), constant_string(flow, right), left
    if key is None:
        key, value, looked_up = _lookup(flow, right), constant_string(flow, left), right
    if key is None or value is None or not _VALUE.fullmatch(value):
        return None
    equal = isinstance(operator, libcst.Equal) == keeps
    default = _default(flow, looked_up)
    if default is _UNTOLD:
        return None  # `labels.get("managed", DEFAULT)`: what the unlabelled objects compare as is not known
    if equal and default is not None and default != value:
        return [f"{key}={value}"]
    if equal and default is not None:
        return None  # `labels.get("managed", "true") == "true"` keeps the unlabelled objects too: no selector says it
    return [f"{key}={value}" if equal else f"{key}!={value}"]  # `!=` keeps the objects without the label, as here


_UNTOLD = object()  # a default whose value the code does not show


def _default(flow: Flow, looked_up: libcst.BaseExpression) -> object:
    """The default of `labels.get(KEY, default)`: a string (`""` for None, which compares as a missing label),
    `_UNTOLD` for any other value; None for `labels.get(KEY)` or `labels[KEY]`."""
    if not isinstance(looked_up, libcst.Call) or len(looked_up.args) < 2:
        return None
    given = looked_up.args[1].value
    if is_none(given):
        return ""
    text = constant_string(flow, given)
    return text if text is not None else _UNTOLD


def _lookup(flow: Flow, node: libcst.BaseExpression) -> str | None:
    """The label key of `labels.get(KEY)`, `labels.get(KEY, default)` or `labels[KEY]`."""
    if isinstance(node, libcst.Call) and isinstance(node.func, libcst.Attribute) and node.func.attr.value == "get":
        container, key = node.func.value, (node.args[0].value if node.args else None)
    elif isinstance(node, libcst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, libcst.Index):
        container, key = node.value, node.slice[0].slice.value
    else:
        return None
    text = constant_string(flow, key) if key is not None else None
    if text is None or not _KEY.fullmatch(text) or not _is_labels(flow, container):
        return None
    return text


def _is_labels(flow: Flow, node: libcst.BaseExpression) -> bool:
    """`obj.metadata.labels`, `meta["labels"]`, `meta.get("labels", {})`, `(… or {})`, a name like `labels`."""
    if isinstance(node, libcst.BooleanOperation) and isinstance(node.operator, libcst.Or):
        return _is_labels(flow, node.left)
    if isinstance(node, libcst.Attribute):
        return node.attr.value == "labels"
    if isinstance(node, libcst.Name):
        return "label" in node.value.lower() and "annotation" not in node.value.lower()
    if isinstance(node, libcst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, libcst.Index):
        return literal_string(node.slice[0].slice.value) == "labels"
    if isinstance(node, libcst.Call) and isinstance(node.func, libcst.Attribute) and node.func.attr.value == "get":
        return bool(node.args) and literal_string(node.args[0].value) == "labels"
    return False
