"""The permissions a kubebuilder project grants itself: its `// +kubebuilder:rbac:…` markers, from which
controller-gen writes the operator's role. A Get sent past the cache to the API server needs `get` on its
resource, where a cached one needed only `list` and `watch`: DisableFor keeps the operator working only where the
markers grant it, or where it has no markers for the resource (its role is written by hand, or by a chart, out
of sight).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from watchlint.catalog import Kind
from watchlint.go.model import GoFile
from watchlint.source import Span

# a marker is a line comment of its own: the search starts at the marker's text, which the engine finds fast, and
# then looks back at its line (a pattern starting at every line's start tried each one)
_MARKER = re.compile(rb"\+kubebuilder:rbac:([^\r\n]*)")
_MARKER_LINE = re.compile(rb"[ \t]*//[ \t]*")
# a field of one runs to the next comma outside braces and quotes (`verbs={get,list}`)
_MARKER_FIELD = re.compile(r'(?:[^,{"]|\{[^}]*\}|"[^"]*")+')
_CORE_GROUPS = frozenset({"", '""', "core"})


_CLUSTER = ""  # the scope of a marker without `namespace=`: a ClusterRole's
_CACHE_VERBS = frozenset({"list", "watch", "*"})  # what a cache's informer needs of a resource


@dataclass(frozen=True, slots=True)
class Grant:
    """What the markers naming one resource grant, together, per scope ("" for cluster-wide, else the namespace
    of `namespace=X`, whose Role grants nothing elsewhere), and where the first of them is."""

    scopes: dict[str, frozenset[str]]
    span: Span

    @property
    def verbs(self) -> frozenset[str]:
        """The verbs granted cluster-wide."""
        return self.scopes.get(_CLUSTER, frozenset())

    def allows(self, verb: str) -> bool:
        return _grants(self.verbs, verb)


def _grants(verbs: frozenset[str], verb: str) -> bool:
    return verb in verbs or "*" in verbs


def rbac_grants(files: Iterable[GoFile]) -> dict[tuple[str, str], Grant]:
    """Per (API group, resource), the verbs the module's markers grant; "" is the core group."""
    found: dict[tuple[str, str], Grant] = {}
    for file in files:
        if b"+kubebuilder:rbac" not in file.source.data:
            continue
        for match in _markers(file.source.data):
            resources, scope, verbs = _marker_grant(match.group(1))
            marker: Span | None = None  # made only where the marker is the first to name a resource
            for key in resources:
                earlier = found.get(key)
                if earlier is None:
                    marker = marker or file.source.span(match.start(1), match.end(1))
                    found[key] = Grant({scope: verbs}, marker)
                else:
                    scopes = dict(earlier.scopes)
                    scopes[scope] = scopes.get(scope, frozenset()) | verbs
                    found[key] = Grant(scopes, earlier.span)
    return found


_MarkerGrant = tuple[tuple[tuple[str, str], ...], str, frozenset[str]]
# the same markers come back in every controller of every operator of a repository: each is read once
_marker_grants: dict[bytes, _MarkerGrant] = {}


def _marker_grant(marker: bytes) -> _MarkerGrant:
    """What one marker's text grants: the (API group, resource) pairs it names, its scope and its verbs."""
    grant = _marker_grants.get(marker)
    if grant is None:
        fields = _fields(marker.decode("utf-8", "replace"))
        groups = {"" if group in _CORE_GROUPS else group for group in fields.get("groups", [""])}
        resources = tuple((group, resource) for group in groups for resource in fields.get("resources", []))
        scope = next(iter(fields.get("namespace", [])), _CLUSTER)
        grant = _marker_grants[marker] = (resources, scope, frozenset(fields.get("verbs", [])))
    return grant


def _markers(data: bytes) -> Iterator[re.Match[bytes]]:
    for match in _MARKER.finditer(data):
        if _MARKER_LINE.fullmatch(data, data.rfind(b"\n", 0, match.start()) + 1, match.start()):
            yield match


def _fields(text: str) -> dict[str, list[str]]:
    """`groups="",resources=secrets;configmaps,verbs=get;list` -> each key's values, unquoted (Kong writes
    `groups="discovery.k8s.io"`, which grants what `groups=discovery.k8s.io` does). controller-gen also takes a
    list in braces, `verbs={get,list,watch}` (CrunchyData's postgres-operator), whose commas part values, not
    fields."""
    fields: dict[str, list[str]] = {}
    for part in _MARKER_FIELD.findall(text):
        key, _, values = part.partition("=")
        values = values.strip()
        listed = values[1:-1].split(",") if values.startswith("{") and values.endswith("}") else values.split(";")
        fields[key.strip()] = [_unquoted(value.strip()) for value in listed]
    return fields


def _unquoted(value: str) -> str:
    return value[1:-1] if len(value) >= 2 and value[0] == value[-1] == '"' else value


def missing_grant(grants: dict[tuple[str, str], Grant], kind: Kind, verb: str) -> Grant | None:
    """The markers naming the kind's resource, where a read sent past the cache would need `verb` in a scope
    they let the cache read (list or watch) but grant it no `verb` there; None where they grant it wherever the
    cache reads, or where no marker names the resource. Wildcards name it too (keda's `groups="*",
    resources="*",verbs=get`); a namespace's markers (k8ssandra's `namespace="k8ssandra"`) cover that
    namespace only, the cluster-wide ones every namespace."""
    keys = ((kind.group, kind.plural), (kind.group, "*"), ("*", kind.plural), ("*", "*"))
    naming = [grant for key in keys if (grant := grants.get(key)) is not None]
    if not naming:
        return None
    scopes: dict[str, frozenset[str]] = {}
    for grant in naming:
        for scope, verbs in grant.scopes.items():
            scopes[scope] = scopes.get(scope, frozenset()) | verbs
    everywhere = scopes.get(_CLUSTER, frozenset())
    cached = [scope for scope, verbs in scopes.items() if verbs & _CACHE_VERBS] or [_CLUSTER]
    if all(_grants(everywhere | scopes.get(scope, frozenset()), verb) for scope in cached):
        return None
    return naming[0]
