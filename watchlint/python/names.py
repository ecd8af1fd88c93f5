"""Resource names as kopf, kr8s, lightkube and the kubernetes client spell them, mapped to catalogue kinds.

Front-ends report canonical kinds only (DESIGN §2.6): `'secrets'`, `'secret'`, `'cm'`, `kind='Secret'`,
`list_config_map_for_all_namespaces` and `lightkube.resources.core_v1.Secret` all become a catalogue kind,
and a name in another API group (`pods.metrics.k8s.io`) becomes none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import libcst

from watchlint.catalog import KindIndex
from watchlint.python.flow import Flow

_VERSION = re.compile(r"v\d+(?:(?:alpha|beta)\d+)?")
# kopf's own test for "plural.version[.group]" (kopf/_cogs/structs/references.py, K8S_GROUP_VERSION_PATTERN)
_NAME_VERSION_GROUP = re.compile(r"[^.]*\.v\d+(?:(?:alpha|beta)\d+)?(?:\..*)?")
_LIST_ALL = re.compile(r"list_(?P<fragment>[a-z0-9_]+?)_for_all_namespaces")
_LIST_NAMESPACED = re.compile(r"list_namespaced_(?P<fragment>[a-z0-9_]+)")
KOPF_NAME_KEYWORDS = ("kind", "plural", "singular", "shortcut")


@dataclass(frozen=True, slots=True)
class ListMethod:
    """A kubernetes-client list method: `list_secret_for_all_namespaces`, `list_namespaced_secret`, or a
    CustomObjectsApi list, whose kind its arguments name (`list_cluster_custom_object(group, version, plural)`)."""

    kind: str  # "" for a custom object list until its arguments are read
    is_namespaced: bool
    is_custom: bool = False


CUSTOM_OBJECT_LISTS = {"list_cluster_custom_object": False, "list_namespaced_custom_object": True}


def kind_in_group(kinds: KindIndex, name: str, group: str | None) -> str | None:
    """The catalogue kind a resource name means in `group` (None: any group)."""
    kind = kinds.python_kind(name)
    if kind is None or group is None:
        return kind
    return kind if any(item.name == kind and item.group == group for item in kinds.kinds) else None


def group_of_api_version(api_version: str) -> str:
    """`v1` is the core group (""); `apps/v1` is `apps`."""
    return api_version.rpartition("/")[0]


def list_method(kinds: KindIndex, method: str) -> ListMethod | None:
    """The kind a kubernetes-client list method names, matched whole (SPEC §2: python_fragments)."""
    if method in CUSTOM_OBJECT_LISTS:
        return ListMethod("", is_namespaced=CUSTOM_OBJECT_LISTS[method], is_custom=True)
    match = _LIST_ALL.fullmatch(method)
    if match is not None:
        kind = kinds.fragment_kind(match["fragment"])
        return ListMethod(kind, is_namespaced=False) if kind else None
    match = _LIST_NAMESPACED.fullmatch(method)
    if match is not None:
        kind = kinds.fragment_kind(match["fragment"])
        return ListMethod(kind, is_namespaced=True) if kind else None
    return None


def kopf_kind(kinds: KindIndex, positional: list[str | None], keywords: dict[str, str | None]) -> str | None:
    """The kind of a kopf resource selector, read as kopf reads it (references.Selector)."""
    group: str | None = keywords.get("group")
    name: str | None = next((keywords[key] for key in KOPF_NAME_KEYWORDS if keywords.get(key)), None)
    match positional:
        case [str(first)] if _NAME_VERSION_GROUP.fullmatch(first):
            parts = first.split(".", 2)
            name, group = parts[0], parts[2] if len(parts) == 3 else group
        case [str(first)] if "." in first:
            name, group = first.split(".", 1)
        case [str(first)]:
            name = first
        case [str(first), str(second)] if "/" in first:
            group, name = first.rpartition("/")[0], second
        case [str(first), str(second)] if first == "v1":
            group, name = "", second
        case [str(first), str(second)]:
            group, name = first, second
        case [str(first), str(), str(third)]:
            group, name = first, third
        case []:
            pass
        case _:  # a callable, kopf.EVERYTHING or a value we cannot read: no specific resource
            return None
    return kind_in_group(kinds, name, group) if name else None


def kr8s_kind(kinds: KindIndex, text: str) -> str | None:
    """A kr8s kind string: `pods`, `Pod`, `po`, `pods.v1`, `jobs.batch`, `deployments.v1.apps`,
    `ingress.networking.k8s.io/v1`; what follows the name (and a version) is the whole group
    (`endpointslices.discovery.k8s.io`; `jobs.batch.volcano.sh` is Volcano's, not batch/v1's)."""
    head = text.split("/", 1)[0]
    name, _, rest = head.partition(".")
    version, _, after = rest.partition(".")
    group = after if _VERSION.fullmatch(version) else rest
    return kind_in_group(kinds, name, group or None)


def literal_string(node: libcst.CSTNode) -> str | None:
    if isinstance(node, libcst.SimpleString | libcst.ConcatenatedString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def constant_string(flow: Flow, node: libcst.BaseExpression) -> str | None:
    """A string literal, directly or through constants (`RESOURCE = "pods"`) that all agree."""
    values = {literal_string(origin) for origin in flow.origins(node)}
    if len(values) == 1:
        return values.pop()
    return None


def is_none(node: libcst.CSTNode) -> bool:
    return isinstance(node, libcst.Name) and node.value == "None"


def is_true(node: libcst.CSTNode | None) -> bool:
    return isinstance(node, libcst.Name) and node.value == "True"


def is_empty_literal(node: libcst.CSTNode) -> bool:
    """`None`, `""`, `[]`, `()`, `{}`, `False`: a value that narrows nothing."""
    if is_none(node) or (isinstance(node, libcst.Name) and node.value == "False"):
        return True
    if literal_string(node) == "":
        return True
    return isinstance(node, libcst.List | libcst.Tuple | libcst.Dict | libcst.Set) and not node.elements
