"""`watchlint inventory`: every kind an operator caches or streams, at what scope, and what it costs.

Built from the same facts as the checks: each site that starts an informer (a watch, a cached read, an
informer factory, a kopf index) or a stream, grouped per cache (a binary's manager, a second cache, a
kopf operator) and kind, with the scope the cache policy gives the kind and a footprint for a profile.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from watchlint.catalog import rules_directory
from watchlint.checks._judge import judge, without_replaced
from watchlint.errors import WatchlintError
from watchlint.facts import Access, CachePolicy, Facts, Mitigation, ObjectForm, Operation, Restriction, Site

# Mitigations that keep a site from starting an informer at all.
_UNCACHED = frozenset(
    {
        Mitigation.DISABLE_FOR,
        Mitigation.API_READER,
        Mitigation.DIRECT_CLIENT,
        Mitigation.CLIENTSET,
        Mitigation.FAIL_ON_MISSING_INFORMER,
        Mitigation.UNSTRUCTURED,
        Mitigation.OFF_BY_DEFAULT,
        Mitigation.NOT_HIGH_CARDINALITY,
    }
)
_SCOPES = frozenset(
    {Mitigation.BY_OBJECT, Mitigation.DEFAULT_NAMESPACES, Mitigation.DEFAULT_SELECTOR, Mitigation.NAMESPACE}
)
_HELD = frozenset({Access.CACHE, Access.INFORMER_FACTORY})
_NARROWED_STREAMS = frozenset({Mitigation.NAMESPACE, Mitigation.SELECTOR})


@dataclass(frozen=True, slots=True)
class KindProfile:
    objects: int
    bytes: int


@dataclass(frozen=True, slots=True)
class Profile:
    """A cluster: object counts and in-memory sizes per kind, and the assumptions for scopes."""

    name: str
    description: str
    namespaces: int
    selector_fraction: float
    nodes: int | None  # a selector on spec.nodeName keeps one node's share; None: the selector fraction
    metadata_bytes: int
    transform_factor: float
    default: KindProfile
    kinds: dict[str, KindProfile]

    def of(self, kind: str) -> KindProfile:
        return self.kinds.get(kind, self.default)


@dataclass(frozen=True, slots=True)
class Scope:
    """How much of a kind a cache holds."""

    text: str  # "cluster-wide", "namespaces team-a", "label selector", "uncached (DisableFor)", "streamed"
    is_held: bool  # the cache keeps the objects (False: uncached or only streamed)
    namespaces: int | None = None  # known namespace count; 0 when they come from a variable
    selector: bool = False
    one_node: bool = False  # a field selector on spec.nodeName: a node agent's cache holds its node's objects


@dataclass(slots=True)
class Entry:
    """One kind in one cache of one unit."""

    unit: str
    cache: str  # the CachePolicy label, or "streams" for clients without a cache
    kind: str
    scope: Scope
    forms: set[ObjectForm] = field(default_factory=set)  # typed and/or metadata informers
    transformed: bool = False
    sites: list[Site] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)  # "path:line: what restricts it"
    objects: int = 0
    bytes: int = 0  # estimated steady-state footprint

    @property
    def per_object(self) -> int:
        return self.bytes // self.objects if self.objects else 0


def load_profile(name: str, overrides: dict[str, int] | None = None) -> Profile:
    """A built-in profile (small, medium, large) or a TOML file with the same shape, with count overrides."""
    path = Path(name)
    try:
        if path.suffix == ".toml":
            document = tomllib.loads(path.read_text(encoding="utf-8"))
            tables = document.get("profile", {})
            table = next(iter(tables.values())) if tables else document
        else:
            builtin = tomllib.loads((rules_directory() / "profiles.toml").read_text(encoding="utf-8"))["profile"]
            if name not in builtin:
                raise WatchlintError(f"--profile: {name!r} is not small, medium, large or a .toml file")
            table = builtin[name]
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise WatchlintError(f"{name}: cannot read profile: {error}") from None
    return _profile(path.stem if path.suffix == ".toml" else name, table, overrides or {})


def _profile(name: str, table: dict[str, Any], overrides: dict[str, int]) -> Profile:
    try:
        kinds = {kind: KindProfile(int(v["objects"]), int(v["bytes"])) for kind, v in table.get("kinds", {}).items()}
        for kind, objects in overrides.items():
            kinds[kind] = KindProfile(objects, kinds.get(kind, KindProfile(0, int(table["default_bytes"]))).bytes)
        return Profile(
            name=name,
            description=str(table.get("description", "")),
            namespaces=int(table["namespaces"]),
            selector_fraction=float(table["selector_fraction"]),
            nodes=int(table["nodes"]) if "nodes" in table else None,
            metadata_bytes=int(table["metadata_bytes"]),
            transform_factor=float(table["transform_factor"]),
            default=KindProfile(int(table["default_objects"]), int(table["default_bytes"])),
            kinds=kinds,
        )
    except (KeyError, TypeError, ValueError) as error:
        raise WatchlintError(f"profile {name}: missing or invalid {error}") from None


def parse_objects(text: str, kind_names: Iterable[str]) -> dict[str, int]:
    """`secret=20000,configmap=30000` -> {"Secret": 20000, "ConfigMap": 30000}."""
    by_lower = {kind.lower(): kind for kind in kind_names}
    counts = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, _, value = item.partition("=")
        kind = by_lower.get(name.strip().lower())
        if kind is None or not value.strip().isdigit():
            raise WatchlintError(f"--objects: {item!r} is not KIND=COUNT with a known kind")
        counts[kind] = int(value)
    return counts


def build(
    facts: Facts, kinds: frozenset[str], profile: Profile, cluster_scoped: frozenset[str] = frozenset()
) -> list[Entry]:
    """The inventory of one unit, largest footprint first; `cluster_scoped`: the kinds no namespace holds."""
    entries: dict[tuple[str, str], Entry] = {}
    for site in facts.sites:
        if site.kind not in kinds:
            continue
        judged = judge(site, facts, kinds, cluster_scoped)
        # a site that does not run by default holds nothing, whatever else restricts it
        not_started = site.condition is not None and site.condition.holds_by_default is False
        if not_started or (judged.mitigation in _UNCACHED and site.operation is not Operation.WATCH):
            key = (_cache_label(site, facts), site.kind)
            entry = entries.setdefault(key, Entry(facts.root, key[0], site.kind, _uncached(judged.mitigation)))
            entry.sites.append(site)
            continue
        key = (_cache_label(site, facts), site.kind)
        scope = _scope(site, facts, profile)
        entry = entries.setdefault(key, Entry(facts.root, key[0], site.kind, scope))
        if not entry.scope.is_held and scope.is_held:
            entry.scope = scope  # an informer beats the uncached reads of the same kind
        entry.sites.append(site)
        if scope.is_held:
            entry.forms.add(site.form)
        entry.transformed = entry.transformed or _is_transformed(site, facts)
        entry.evidence.extend(_evidence(site, facts))
    for entry in entries.values():
        _estimate(entry, profile)
        entry.evidence = sorted(set(entry.evidence))
    return sorted(entries.values(), key=lambda item: (-item.bytes, item.cache, item.kind))


def _cache_label(site: Site, facts: Facts) -> str:
    if site.access not in _HELD:
        if site.access is Access.KOPF:
            return "kopf operator"
        return "watch streams" if site.operation is Operation.WATCH else "no cache"
    if site.access is Access.INFORMER_FACTORY:
        return "client-go informer factories"
    policies = [policy for key in site.policy_keys if (policy := facts.policy(key)) is not None]
    return policies[0].label if policies else "manager cache"


def _uncached(mitigation: Mitigation | None) -> Scope:
    reason = {
        Mitigation.DISABLE_FOR: "DisableFor",
        Mitigation.API_READER: "API reader",
        Mitigation.DIRECT_CLIENT: "client without cache",
        Mitigation.CLIENTSET: "clientset",
        Mitigation.FAIL_ON_MISSING_INFORMER: "ReaderFailOnMissingInformer",
        Mitigation.UNSTRUCTURED: "unstructured",
        Mitigation.OFF_BY_DEFAULT: "off by default",
    }.get(mitigation or Mitigation.UNRESOLVED, str(mitigation))
    return Scope(f"uncached ({reason})", is_held=False)


def _restrictions(site: Site, facts: Facts) -> list[Restriction]:
    found = [r for r in site.restrictions if r.is_active]
    for key in site.policy_keys[:1]:
        policy = facts.policy(key)
        if policy is not None:  # a ByObject entry's `Label: labels.Everything()` replaces the default selector
            kept = without_replaced(list(policy.restrictions), site.kind)
            found.extend(r for r in kept if r.is_active and r.kind in (None, site.kind))
    # an informer factory's own selector (a list-options tweak) scopes its informer; a List's selector
    # narrows what one call returns, never the informer a cached read starts
    scopes = _SCOPES | {Mitigation.SELECTOR} if site.access is Access.INFORMER_FACTORY else _SCOPES
    return [r for r in found if r.mitigation in scopes or r.mitigation is Mitigation.UNRESOLVED]


def _scope(site: Site, facts: Facts, profile: Profile) -> Scope:
    if site.access not in _HELD and site.access is not Access.KOPF:
        if site.operation is Operation.WATCH:  # a clientset's or client library's watch: no cache behind it
            narrowed = any(r.is_active and r.mitigation in _NARROWED_STREAMS for r in site.restrictions)
            return Scope("streamed, namespace or selector" if narrowed else "streamed, cluster-wide", is_held=False)
        return Scope(f"read live ({site.access})", is_held=False)
    if site.access is Access.KOPF and site.operation is Operation.WATCH and "index" not in site.call:
        scoped = any(r.is_active for key in site.policy_keys if (p := facts.policy(key)) for r in p.restrictions)
        return Scope("streamed, operator namespaces" if scoped else "streamed, cluster-wide", is_held=False)
    restrictions = _restrictions(site, facts)
    namespaces = [r for r in restrictions if r.mitigation in (Mitigation.DEFAULT_NAMESPACES, Mitigation.NAMESPACE)]
    by_object = [r for r in restrictions if r.mitigation is Mitigation.BY_OBJECT]
    selectors = [r for r in restrictions if r.mitigation in (Mitigation.DEFAULT_SELECTOR, Mitigation.SELECTOR)]
    if by_object:
        detail = by_object[0].text.split(" sets ", 1)[-1]
        # namespaces each narrowed by a selector (`Namespaces (every namespace by a selector)`) select
        is_namespaced = "Namespaces" in detail and not any(word in detail for word in ("Label", "Field", "selector"))
        text = "ByObject " + detail.replace("Label", "label selector").replace("Field", "field selector")
        if _on_node_name(by_object[0]):
            return Scope(f"{text} (one node's)", True, selector=True, one_node=True)
        return Scope(text, True, namespaces=0 if is_namespaced else None, selector=not is_namespaced)
    if namespaces:
        detail = namespaces[0].detail or "namespaces from a variable"
        count = len(detail.removeprefix("namespaces ").split(", ")) if "from" not in detail else 0
        return Scope(detail, True, namespaces=count)
    if selectors:
        default = selectors[0].mitigation is Mitigation.DEFAULT_SELECTOR
        text = "default label or field selector" if default else selectors[0].text
        if any(_on_node_name(selector) for selector in selectors):
            return Scope(f"{text} (one node's)", True, selector=True, one_node=True)
        return Scope(text, True, selector=True)
    if any(r.mitigation is Mitigation.UNRESOLVED for r in restrictions):
        return Scope("restricted (value not visible)", True, selector=True)
    return Scope("cluster-wide", True)


def _on_node_name(restriction: Restriction) -> bool:
    """A field selector on `spec.nodeName`: what a DaemonSet's agent keeps of the Pods, its own node's."""
    return "spec.nodeName" in restriction.detail.removeprefix("fields ").split(", ")


def _is_transformed(site: Site, facts: Facts) -> bool:
    for key in site.policy_keys:
        policy = facts.policy(key)
        if policy is not None and any(t.kind in (None, site.kind) for t in policy.transforms):
            return True
    return False


def _evidence(site: Site, facts: Facts) -> list[str]:
    shown = []
    for restriction in _restrictions(site, facts):
        span = restriction.span
        shown.append(f"{span.path}:{span.line}: {restriction.text}")
    for key in site.policy_keys[:1]:
        policy: CachePolicy | None = facts.policy(key)
        if policy is not None:
            shown.extend(
                f"{t.span.path}:{t.span.line}: {t.text}" for t in policy.transforms if t.kind in (None, site.kind)
            )
    return shown


def _estimate(entry: Entry, profile: Profile) -> None:
    """Objects held and bytes: the profile's count narrowed by the scope, at full, metadata or transformed size."""
    if not entry.scope.is_held:
        entry.objects, entry.bytes = 0, 0
        return
    kind = profile.of(entry.kind)
    objects = float(kind.objects)
    if entry.scope.namespaces is not None:
        share = max(entry.scope.namespaces, 1) / max(profile.namespaces, 1)
        objects *= min(share, 1.0)
    if entry.scope.one_node and profile.nodes:
        objects /= profile.nodes
    elif entry.scope.selector:
        objects *= profile.selector_fraction
    count = round(objects)
    size = kind.bytes * profile.transform_factor if entry.transformed else float(kind.bytes)
    total = 0.0
    if ObjectForm.TYPED in entry.forms or ObjectForm.UNSTRUCTURED in entry.forms:
        total += count * size
    if ObjectForm.METADATA in entry.forms:
        total += count * profile.metadata_bytes  # a second, metadata-only informer beside a typed one
    entry.objects, entry.bytes = count, round(total)
