"""The permissions a kubebuilder project grants itself: its `// +kubebuilder:rbac:…` markers, from which
controller-gen writes the operator's role. A Get sent past the cache to the API server needs `get` on its
resource, where a cached one needed only `list` and `watch`: DisableFor keeps the operator working only where the
markers grant it, or where it has no markers for the resource (its role is written by hand, or by a chart, out
of sight).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from watchlint.catalog import Kind
from watchlint.go.model import GoFile
from watchlint.source import Span

_MARKER = re.compile(rb"^[ \t]*//[ \t]*\+kubebuilder:rbac:([^\r\n]*)", re.MULTILINE)
_CORE_GROUPS = frozenset({"", '""', "core"})


@dataclass(frozen=True, slots=True)
class Grant:
    """What the markers naming one resource grant, together, and where the first of them is."""

    verbs: frozenset[str]
    span: Span

    def allows(self, verb: str) -> bool:
        return verb in self.verbs or "*" in self.verbs


def rbac_grants(files: Iterable[GoFile]) -> dict[tuple[str, str], Grant]:
    """Per (API group, resource), the verbs the module's markers grant; "" is the core group."""
    found: dict[tuple[str, str], Grant] = {}
    for file in files:
        if b"+kubebuilder:rbac" not in file.source.data:
            continue
        for match in _MARKER.finditer(file.source.data):
            fields = _fields(match.group(1).decode("utf-8", "replace"))
            groups = {"" if group in _CORE_GROUPS else group for group in fields.get("groups", [""])}
            # `namespace=X` makes a Role in X: it names the resource, and grants nothing in the other namespaces
            verbs = frozenset() if any(fields.get("namespace", [])) else frozenset(fields.get("verbs", []))
            marker = file.source.span(match.start(1), match.end(1))
            for group in groups:
                for resource in fields.get("resources", []):
                    earlier = found.get((group, resource))
                    if earlier is None:
                        found[(group, resource)] = Grant(verbs, marker)
                    else:
                        found[(group, resource)] = Grant(earlier.verbs | verbs, earlier.span)
    return found


def _fields(text: str) -> dict[str, list[str]]:
    """`groups="",resources=secrets;configmaps,verbs=get;list` -> each key's values, unquoted (Kong writes
    `groups="discovery.k8s.io"`, which grants what `groups=discovery.k8s.io` does)."""
    fields: dict[str, list[str]] = {}
    for part in text.split(","):
        key, _, values = part.partition("=")
        fields[key.strip()] = [_unquoted(value.strip()) for value in values.split(";")]
    return fields


def _unquoted(value: str) -> str:
    return value[1:-1] if len(value) >= 2 and value[0] == value[-1] == '"' else value


def missing_grant(grants: dict[tuple[str, str], Grant], kind: Kind, verb: str) -> Grant | None:
    """The markers naming the kind's resource, where they grant it no `verb`; None where they do, or where no
    marker names it. Wildcards name it too (keda's `groups="*",resources="*",verbs=get`)."""
    keys = ((kind.group, kind.plural), (kind.group, "*"), ("*", kind.plural), ("*", "*"))
    naming = [grant for key in keys if (grant := grants.get(key)) is not None]
    if any(grant.allows(verb) for grant in naming):
        return None
    return naming[0] if naming else None
