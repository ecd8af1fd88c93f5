"""Shared classification of sites: which rule a site belongs to, and whether anything restricts it.

WL001-WL004 all start here so that one site gives one verdict and one finding at most (SPEC §3).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from watchlint.checks._context import CheckContext
from watchlint.facts import (
    EVERY_NAMESPACE,
    EXCLUDES_ONLY,
    NO_CACHE,
    Access,
    CachePolicy,
    Facts,
    Mitigation,
    ObjectForm,
    Operation,
    Restriction,
    Site,
    any_of,
    applies_to,
    names_kind,
)
from watchlint.findings import Fix, Related
from watchlint.fixes import merged, same_change
from watchlint.source import Span

# Which operations each cache-policy mitigation narrows (SPEC §1); site-local restrictions always apply.
_POLICY_SCOPE: dict[Mitigation, frozenset[Operation]] = {
    Mitigation.BY_OBJECT: frozenset(Operation),
    Mitigation.DEFAULT_NAMESPACES: frozenset(Operation),
    Mitigation.DEFAULT_SELECTOR: frozenset(Operation),
    Mitigation.OPERATOR_NAMESPACES: frozenset(Operation),
    Mitigation.UNRESOLVED: frozenset(Operation),
    Mitigation.DISABLE_FOR: frozenset({Operation.GET, Operation.LIST}),
    Mitigation.FAIL_ON_MISSING_INFORMER: frozenset({Operation.GET, Operation.LIST}),
}
_UNCACHED_READS = {
    Access.API_READER: Mitigation.API_READER,
    Access.DIRECT_CLIENT: Mitigation.DIRECT_CLIENT,
    Access.CLIENTSET: Mitigation.CLIENTSET,
}
WATCHES_THAT_CACHE = frozenset({Access.CACHE, Access.INFORMER_FACTORY})
# How a restriction that narrows nothing is described: a ByObject entry without fields, an empty namespace map.
_NARROWS_NOTHING = {
    Mitigation.BY_OBJECT: "sets no Label, Field or Namespaces",
    Mitigation.DEFAULT_NAMESPACES: "names no namespace",
    Mitigation.DEFAULT_SELECTOR: "selects everything",
}


@dataclass(frozen=True, slots=True)
class Judgement:
    """The rule a site belongs to and, when nothing restricts it, the evidence for the message."""

    code: str
    mitigation: Mitigation | None  # None: the site is a finding
    evidence: Related | None = None  # what mitigates it
    policy: CachePolicy | None = None  # the policy that leaves it unrestricted
    related: tuple[Related, ...] = ()  # evidence for the finding
    note: str = ""  # message suffix: conditional scopes, the binary, a missing manager
    others: tuple[str, ...] = ()  # the keys of the other policies that leave the site open (other binaries)
    binaries: str = ""  # the end of `note` naming the binaries that leave the site open, where several reach it


def rule_of(site: Site) -> str:
    if site.operation is Operation.WATCH:
        return "WL003" if site.filters else "WL001"
    if site.operation is Operation.LIST and site.access in _UNCACHED_READS:
        return "WL004"
    return "WL002"


def judgement_of(site: Site, facts: Facts, context: CheckContext) -> Judgement:
    """`judge` with the context's kinds, made once per site: each rule judges every site of the facts."""
    key = (id(site), id(facts))
    found = context.judgements.get(key)
    if found is None or found[0] is not site or found[1] is not facts:
        found = context.judgements[key] = (site, facts, judge(site, facts, context.kinds, context.cluster_scoped))
    return found[2]


def judge(site: Site, facts: Facts, kinds: frozenset[str], cluster_scoped: frozenset[str] = frozenset()) -> Judgement:
    """Classify one site: mitigated with a reason, or unrestricted with its evidence; a finding reported at
    a helper's call shows first where the helper watches or reads the kind. `cluster_scoped`: the kinds no
    namespace holds, which no namespace scope narrows."""
    if site.kind in cluster_scoped:
        site, facts = _without_namespace_scopes(site, facts)
    judgement = _judge(site, facts, kinds)
    if judgement.mitigation is not None:
        return judgement
    if site.form is ObjectForm.UNSTRUCTURED and (unstructured := _unstructured_option(site, facts)) is not None:
        # an unstructured object reads as uncached unless this option says otherwise: name it
        cached = Related(unstructured, "Unstructured: true caches unstructured objects too")
        judgement = replace(judgement, related=(*judgement.related, cached))
    for evidence in (site.transform, site.list_watch, site.unselected_caller, site.alternatives):
        if evidence is not None:
            judgement = replace(judgement, related=(*judgement.related, Related(evidence.span, evidence.message)))
    if (switched := site.switched_on) is not None:
        # a setting the site runs under, on by default: turning it off where the feature is not needed is a remedy
        note = Related(switched.span, f"runs only when {switched.text}, as by default ({switched.origin} decides it)")
        judgement = replace(judgement, related=(*judgement.related, note))
    if site.through is None:
        return judgement
    return replace(judgement, related=(Related(site.through.span, site.through.message), *judgement.related))


# the restrictions that narrow by namespace only: a cluster-scoped kind (an extra Node) is cached whole whatever
# they say (controller-runtime keeps cluster-scoped objects in a cluster-wide cache; client-go's Nodes() takes no
# namespace)
_NAMESPACE_SCOPES = frozenset({Mitigation.DEFAULT_NAMESPACES, Mitigation.NAMESPACE, Mitigation.OPERATOR_NAMESPACES})


def _without_namespace_scopes(site: Site, facts: Facts) -> tuple[Site, Facts]:
    def kept(restrictions: tuple[Restriction, ...]) -> tuple[Restriction, ...]:
        return tuple(r for r in restrictions if r.mitigation not in _NAMESPACE_SCOPES)

    policies = tuple(
        replace(policy, restrictions=kept(policy.restrictions))
        for policy in facts.policies
        if policy.key in site.policy_keys
    )
    return replace(site, restrictions=kept(site.restrictions)), replace(facts, policies=policies)


def _unstructured_option(site: Site, facts: Facts) -> Span | None:
    """Where the client options of a policy judging the site cache unstructured objects."""
    return next(
        (span for key in site.policy_keys if (policy := facts.policy(key)) and (span := policy.caches_unstructured)),
        None,
    )


def _judge(site: Site, facts: Facts, kinds: frozenset[str]) -> Judgement:
    code = rule_of(site)
    early = _early_mitigation(site, facts, kinds)
    local = next((r for r in site.restrictions if r.is_active), None)
    if (
        early is not None
        and early[0] is Mitigation.OFF_BY_DEFAULT
        and local is not None
        and local.mitigation is not Mitigation.UNRESOLVED
        and code != "WL002"
    ):
        # the site's own namespace or selector holds wherever it runs, and says more than "not by default"
        # (kured's node selector behind its flag); cache options may differ where the condition holds. A factory
        # built out of sight says less (clusterpedia's Secret lister, behind a feature gate off by default)
        return Judgement(code, local.mitigation, _evidence(local))
    if early is not None:
        mitigation, evidence = early
        return Judgement(code, mitigation, evidence)
    if _lists_unstructured_uncached(site, facts):
        reason = "; the client reads unstructured objects from the API server, uncached"
        return _uncached_list(site, code, Mitigation.UNSTRUCTURED, None, reason)
    if local is not None:
        return Judgement(code, local.mitigation, _evidence(local))
    if code == "WL004" or not site.policy_keys:
        return Judgement(code, None, related=_inactive(site.restrictions, site.kind), note=_local_note(site))
    return _judge_policies(site, facts, code)


def _early_mitigation(site: Site, facts: Facts, kinds: frozenset[str]) -> tuple[Mitigation, Related | None] | None:
    if site.kind not in kinds:
        return Mitigation.NOT_HIGH_CARDINALITY, None
    # a read that never caches says so first, off by default or not
    if site.operation is Operation.GET and site.access in _UNCACHED_READS:
        evidence = site.access_evidence
        return _UNCACHED_READS[site.access], Related(evidence.span, evidence.message) if evidence else None
    condition = site.condition
    if condition is not None and condition.holds_by_default is False:
        return Mitigation.OFF_BY_DEFAULT, Related(condition.span, f"only when {condition.text}")
    if site.form is ObjectForm.METADATA:
        bypassing = bypassing_restriction(site, facts) if site.operation is Operation.GET else None
        if bypassing is not None:
            return Mitigation.DISABLE_FOR, _evidence(bypassing)
        return Mitigation.METADATA_ONLY, None
    unstructured_get = site.form is ObjectForm.UNSTRUCTURED and site.operation is Operation.GET
    if unstructured_get and (site.access is not Access.CACHE or not _caches_unstructured(site, facts)):
        return Mitigation.UNSTRUCTURED, None
    return None


def bypassing_restriction(site: Site, facts: Facts) -> Restriction | None:
    """The DisableFor that sends a cache-backed read to the API server in every binary judging it, also for a
    metadata-only read: controller-runtime looks DisableFor up by the object's GroupVersionKind, which for a
    PartialObjectMetadata is the kind it is set to, so such a read starts no informer. None where one binary
    caches the read."""
    if site.access is not Access.CACHE or site.operation is Operation.WATCH or not site.policy_keys:
        return None
    own = _own_client_disable_for(site, facts)
    if own is not None:
        return own
    found: Restriction | None = None
    for key in site.policy_keys:
        policy = facts.policy(key)
        active = _active(policy, site)[1] if policy is not None else None
        if active is None or active.mitigation is not Mitigation.DISABLE_FOR:
            return None
        found = found or active
    return found


def _caches_unstructured(site: Site, facts: Facts) -> bool:
    return any((policy := facts.policy(key)) and policy.caches_unstructured for key in site.policy_keys)


def _lists_unstructured_uncached(site: Site, facts: Facts) -> bool:
    """A List of unstructured objects through a cached client that does not cache them (the default)."""
    return (
        site.operation is Operation.LIST
        and site.form is ObjectForm.UNSTRUCTURED
        and site.access is Access.CACHE
        and not _caches_unstructured(site, facts)
    )


def _judge_policies(site: Site, facts: Facts, code: str) -> Judgement:
    own = _own_client_disable_for(site, facts)
    if own is not None:
        return Judgement(code, own.mitigation, _evidence(own))
    first_mitigation: Restriction | None = None
    uncached: Judgement | None = None  # a List a manager sends to the API server, with nothing narrowing it
    for position, key in enumerate(site.policy_keys):
        policy = facts.policy(key)
        if policy is None:
            continue
        applicable, active = _active(policy, site)
        if active is None:
            reaching = _reaching(applicable, site)
            transformed = any(transform.kind == site.kind for transform in policy.transforms)
            related = _origins(policy, site) + _inactive(reaching, site.kind, transformed)
            # the other binaries that leave it open too: one fix each is needed before it is closed
            others = [
                other
                for later in site.policy_keys[position + 1 :]
                if (other := facts.policy(later)) is not None and _active(other, site)[1] is None
            ]
            # why each of those leaves it open too (the manager's DefaultNamespaces, given only with a flag,
            # beside an agent that sets none): the notes of its options, once each
            for other in others:
                other_transformed = any(transform.kind == site.kind for transform in other.transforms)
                notes = _inactive(_reaching(_active(other, site)[0], site), site.kind, other_transformed)
                # one with no options for the kind at all: where its caches are built (hwameistor's scheduler)
                notes = notes or _origins(other, site)
                related += tuple(note for note in notes if note not in related)
            binaries = f" ({binaries_text([policy.label, *(other.label for other in others)])})"
            binaries = binaries if len(site.policy_keys) > 1 else ""
            note = _note(reaching, policy, site) + binaries
            keys = tuple(other.key for other in others)
            return Judgement(code, None, policy=policy, related=related, note=note, others=keys, binaries=binaries)
        if uncached is None and _served_uncached(active, site):
            reason = Related(active.span, f"{active.text}: every List of {site.kind} goes to the API server")
            judged = _uncached_list(site, code, active.mitigation, _evidence(active), reason, policy)
            uncached = judged if judged.mitigation is None else None
        first_mitigation = first_mitigation or active
    if uncached is not None:
        return uncached
    if first_mitigation is None:  # every key unknown: treat as no policy at all
        return Judgement(code, None, note="; no manager options were found")
    return Judgement(code, first_mitigation.mitigation, _evidence(first_mitigation))


def _own_client_disable_for(site: Site, facts: Facts) -> Restriction | None:
    """The DisableFor of the client a read goes through, built with client.New over a cache of its own
    (radix-operator's `client.New(cfg, client.Options{Cache: &client.CacheOptions{Reader: cache, DisableFor: …}})`
    over a `cache.New`): the binary's options hold it, the cache's policy judging the read does not. A List is
    left to the policies, which judge one sent to the API server by WL004."""
    if site.own_client is None or site.operation is Operation.LIST:
        return None
    judging = [policy for key in site.policy_keys if (policy := facts.policy(key)) is not None]
    if site.own_client_shared and not any(_disabled_for_the_managers_client(policy, site) for policy in judging):
        return None  # the reads through the manager's own client, given too, stay cached
    return next(
        (
            restriction
            for policy in facts.policies
            if policy.key not in site.policy_keys
            for restriction in policy.restrictions
            if restriction.client == site.own_client
            and restriction.mitigation is Mitigation.DISABLE_FOR
            and applies_to(restriction, site)
            and restriction.is_active
        ),
        None,
    )


def _active(policy: CachePolicy, site: Site) -> tuple[list[Restriction], Restriction | None]:
    """The options of a policy that judge a site, and the one that restricts it (None: it is left open)."""
    every = without_replaced([r for r in policy.restrictions if _applies(r, site, policy.key)], site.kind)
    if site.own_client_shared and not _disabled_for_the_managers_client(policy, site):
        # the client.New's DisableFor leaves the reads through the manager's own client cached
        every = [r for r in every if r.mitigation is not Mitigation.DISABLE_FOR]
    applicable = _judging(every, policy, site)
    # what names the kind (DisableFor listing it) says more than what holds for every kind
    # (ReaderFailOnMissingInformer), and decides first: the client sends the read elsewhere; of what names the
    # kind, DisableFor decides before a ByObject entry, whose cache the read then never reaches
    naming = [r for r in applicable if r.is_active and names_kind(r, site)]
    active = (
        next((r for r in naming if r.mitigation is Mitigation.DISABLE_FOR), None)
        or next(iter(naming), None)
        or next((r for r in applicable if r.is_active), None)
    )
    return applicable, active


def _disabled_for_the_managers_client(policy: CachePolicy, site: Site) -> bool:
    """Whether the DisableFor of the manager's own client options names the site's kind."""
    return any(
        r.mitigation is Mitigation.DISABLE_FOR and r.client is None and applies_to(r, site) and r.is_active
        for r in policy.restrictions
    )


def without_replaced(restrictions: list[Restriction], kind: str) -> list[Restriction]:
    """The cache-wide defaults a ByObject entry for the kind does not replace (`Label: labels.Everything()`
    caches every object of the kind whatever DefaultLabelSelector says). Only an entry the default deployment
    surely has replaces: one under a condition that is false by default, or cannot be told, is no entry then
    (fission's ByObject Namespaces for TENANCY_MODE=dynamic leave its DefaultNamespaces in force)."""
    replaced = {
        name
        for restriction in restrictions
        if restriction.kind == kind and (restriction.condition is None or restriction.condition.holds_by_default)
        for name in restriction.replaces
    }
    return [r for r in restrictions if r.kind is not None or r.text not in replaced] if replaced else restrictions


def _served_uncached(restriction: Restriction, site: Site) -> bool:
    """Whether the restriction sends this List to the API server: DisableFor naming its kind, or a client that
    reads no cache (one whose contents are not visible keeps the List from the cache, not known to send it
    anywhere)."""
    return (
        restriction.mitigation is Mitigation.DISABLE_FOR
        and (names_kind(restriction, site) or (restriction.kind is None and restriction.detail == NO_CACHE))
        and site.operation is Operation.LIST
    )


def _uncached_list(
    site: Site,
    code: str,
    mitigation: Mitigation,
    evidence: Related | None,
    reason: Related | str,
    policy: CachePolicy | None = None,
) -> Judgement:
    """A cached client's List that reaches the API server all the same: its cache concern (`code`) is
    mitigated, and the List is judged as any uncached one (WL004) by its own namespace and selectors;
    `reason` says why it is uncached, as a related location or as a message suffix."""
    if any(restriction.is_active for restriction in site.read_restrictions):
        return Judgement(code, mitigation, evidence)
    related = _inactive(site.read_restrictions, site.kind)
    note = _conditional_note(site.read_restrictions)
    if isinstance(reason, str):
        note += reason
    else:
        related = (reason, *related)
    return Judgement("WL004", None, policy=policy, related=related, note=note)


def _applies(restriction: Restriction, site: Site, key: str) -> bool:
    """Whether a restriction of the policy `key` judges the site."""
    if not applies_to(restriction, site):
        return False
    if restriction.mitigation is Mitigation.DISABLE_FOR and site.reads_cache_itself:
        return False  # DisableFor sends the client's reads to the API server; the cache itself still serves
    own = site.own_client not in (None, restriction.client) and site.own_cache in ("", key)
    if restriction.mitigation is Mitigation.DISABLE_FOR and own:
        # a client built with client.New over the cache follows its own options only; other reads pool every
        # DisableFor of the binary, the client they read through not always being told (a cluster cache's
        # GetClient); but where that client reads a second cache, the manager's own client, given as well
        # (vault-secrets-operator's GetSecret), reads the manager's by its DisableFor
        return False
    if restriction.mitigation is Mitigation.DISABLE_FOR and restriction.client is not None and site.manager_client:
        # but a read through the manager's own client does not follow a client.New's options (opendatahub's
        # certificate client lists ConfigMap in DisableFor; the manager's client does not)
        return False
    return site.operation in _POLICY_SCOPE.get(restriction.mitigation, frozenset(Operation))


def _evidence(restriction: Restriction) -> Related:
    if restriction.assumed:  # a namespace read as is: it counts, but an empty one is every namespace
        return Related(restriction.span, f"{restriction.text} ({restriction.assumed}; every namespace if empty)")
    return Related(restriction.span, restriction.text)


def _origins(policy: CachePolicy, site: Site) -> tuple[Related, ...]:
    """Where the policy's caches are built: only those of the managers that run the site, where they are known
    (a binary pools the options of its subcommands' managers, but a helper's manager never runs the site)."""
    if site.manager_elsewhere:
        return ()
    if site.access is Access.KOPF:  # a runner given namespaces under a condition does not serve every one
        text = "kopf starts here" + ("" if policy.restrictions else " and serves every namespace")
    else:
        text = f"cache options here leave {site.kind} unrestricted"
    # an informer factory's options say nothing of a manager's cache, nor a manager's of a factory's informers:
    # a binary building only factories (a CLI reading through a client it builds elsewhere) cites none
    candidates = [span for span in policy.origins if (span in policy.factory_origins) is _from_factory(site)]
    running = tuple(span for span in candidates if span in site.managers)
    return tuple(Related(span, text) for span in running or candidates)


def _from_factory(site: Site) -> bool:
    return site.access is Access.INFORMER_FACTORY


def _judging(restrictions: list[Restriction], policy: CachePolicy, site: Site) -> list[Restriction]:
    """The options that judge a site: SPEC §3.1 pools a binary's options, but where the site runs under one
    of the binary's managers only, an option known to reach only others narrows nothing that manager holds.
    A site taken to run under several is judged by the pool: which managers run it is then often an
    over-approximation (a struct field every subcommand fills), and judging each would report what only one
    of them runs; nor are the managers an option reaches always all told (options built in one function and
    handed to the NewManager of others)."""
    running = [manager for manager in site.managers if manager in policy.origins]
    if not running:
        # managers built through a wrapper of the module, called by two subcommands: the policy's origin is the
        # wrapper's one construction, and its calls, which the site and the options name, are the managers
        reached = {manager for restriction in restrictions for manager in restriction.reaches}
        running = [manager for manager in site.managers if manager in reached]
    if len(running) != 1:
        return restrictions
    return [r for r in restrictions if not r.reaches or running[0] in r.reaches]


def _reaching(restrictions: list[Restriction], site: Site) -> list[Restriction]:
    """The options that reach the managers running the site, where both are known: the binary's pooled policy
    judges the site, but another subcommand's conditional ByObject entry does not explain why it is open."""
    if not site.managers:
        return restrictions
    running = frozenset(site.managers)
    return [r for r in restrictions if not r.reaches or not running.isdisjoint(r.reaches)]


def _inactive(
    restrictions: tuple[Restriction, ...] | list[Restriction], kind: str, transformed: bool = False
) -> tuple[Related, ...]:
    """Notes on the options that narrow nothing or only under a condition; `transformed` where the policy
    transforms the kind (an entry setting only a Transform: argocd-operator strips Secrets' data)."""
    related = []
    # an empty literal filled under a condition (`DefaultNamespaces: map[…]{}`, then entries added for
    # --namespaces) is told by the condition: "names no namespace" would say the scope can never apply
    filled = {r.text for r in restrictions if r.is_effective and r.condition is not None}
    for restriction in restrictions:
        if restriction.dropped_by is not None:
            dropped = restriction.dropped_by
            related.append(Related(dropped.span, f"{dropped.message} here drops the caller's {restriction.text}"))
            continue
        if not restriction.is_effective and not restriction.replaces and restriction.text in filled:
            continue
        if not restriction.is_effective and restriction.replaces:
            replaced = ", ".join(sorted(restriction.replaces - {"DefaultSelector"}) or restriction.replaces)
            related.append(Related(restriction.span, f"{restriction.text}, in place of {replaced}"))
        elif not restriction.is_effective:
            note = f"{restriction.text} {_narrows_nothing(restriction, kind, transformed)}"
            if restriction.detail.startswith(EXCLUDES_ONLY) and any(
                told.span.path == restriction.span.path and told.message == note for told in related
            ):
                continue  # the same exclusion written in both branches of an `if` (ingress-nginx's Helm one)
            related.append(Related(restriction.span, note))
        elif restriction.condition is not None:
            condition = restriction.condition
            related.append(Related(condition.span, _only_when(restriction.text, condition.text)))
    # one note per place and text: options written three times under one guard point at it once
    return tuple(dict.fromkeys(related))


def _narrows_nothing(restriction: Restriction, kind: str, transformed: bool) -> str:
    """Why an option in place narrows nothing: a namespace list holding every namespace, a selector that only
    excludes, or one that selects nothing (an entry setting only a Transform keeps every object, smaller)."""
    if restriction.detail == EVERY_NAMESPACE:
        return 'lists every namespace (the "" key)'
    if restriction.detail.startswith(EXCLUDES_ONLY):
        return f"`{restriction.detail.removeprefix(EXCLUDES_ONLY)}` only excludes and keeps every other {kind}"
    narrows = _NARROWS_NOTHING.get(restriction.mitigation, "narrows nothing")
    if restriction.mitigation is Mitigation.BY_OBJECT and transformed:
        narrows += f"; its Transform keeps every {kind}, only smaller"
    return narrows


def _conditional_note(restrictions: tuple[Restriction, ...] | list[Restriction]) -> str:
    """Name the restriction that would apply but depends on a condition that can be false, and every setting
    that turns it on: the same option may be set under several conditions, any one of which applies it."""
    conditional = next((r for r in restrictions if r.is_effective and r.condition is not None), None)
    if conditional is None or conditional.condition is None:
        return ""
    condition = conditional.condition
    alike = [
        r.condition
        for r in restrictions
        if r.is_effective and r.text == conditional.text and r.condition is not None
        if r.condition.holds_by_default is False
    ]
    return "; " + _only_when(conditional.text, any_of(alike) if condition in alike else condition.text)


def _local_note(site: Site) -> str:
    return _conditional_note(site.restrictions)


def _note(applicable: list[Restriction], policy: CachePolicy, site: Site) -> str:
    """The message's end, but for the binaries: conditional scopes, missing options."""
    parts = [_conditional_note(applicable)]
    if not policy.origins and site.access is Access.CACHE:
        parts.append("; no manager options were found")
    elif not policy.origins and site.access is Access.KOPF:
        parts.append("; no namespace scope was found in code")
    return "".join(parts)


# Beyond this many binaries a message names the first few and counts the rest: a module building one binary per
# cloud service (oci-service-operator: 110 under cmd/manager) would otherwise make a message of 7,000 characters.
_BINARIES_LISTED = 8
_BINARIES_NAMED = 3


def binaries_text(labels: list[str]) -> str:
    """`binary cmd/a`; `binaries cmd/a and cmd/b`; other labels joined as they are; past eight, the first three
    and how many more."""
    if len(labels) == 1:
        return labels[0]
    binaries = all(label.startswith("binary ") for label in labels)
    names = [label.removeprefix("binary ") for label in labels] if binaries else labels
    if len(names) > _BINARIES_LISTED:
        listed = f"{', '.join(names[:_BINARIES_NAMED])} and {len(names) - _BINARIES_NAMED} more"
    else:
        listed = f"{', '.join(names[:-1])} and {names[-1]}"
    return f"binaries {listed}" if binaries else listed


def fixes_for(site: Site, judgement: Judgement) -> tuple[Fix, ...]:
    """The site's fixes that answer this rule and edit the options of the policy that leaves it open; where
    other binaries leave it open too, a fix making the same change to their options as well (the finding
    stays until each has it)."""
    key = judgement.policy.key if judgement.policy is not None else ""
    answering = [fix for fix in site.fixes if fix.code in ("", judgement.code)]
    found = []
    for fix in answering:
        if fix.policy == "":
            found.append(fix)
        elif fix.policy == key:
            alike = [
                next((other for other in answering if other.policy == other_key and same_change(fix, other)), None)
                for other_key in judgement.others
            ]
            found.append(merged([fix, *(other for other in alike if other is not None)]))
    return tuple(found)


def _only_when(restriction: str, condition: str) -> str:
    """`DefaultNamespaces applies only when X is set`; a restriction that already says what it does (`ByObject
    entry for &corev1.Pod{} sets Field`, `DisableFor lists &corev1.ConfigMap{}`) reads `… sets Field only when X
    is set`."""
    says = " sets " in restriction or " lists " in restriction
    return f"{restriction} {'only when' if says else 'applies only when'} {condition}"
