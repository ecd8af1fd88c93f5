"""WL002 implicit-informer-read: a Get/List through a cache-backed client starts a cluster-wide informer."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from watchlint.cacheoptions import cache_option_names
from watchlint.checks._context import CheckContext
from watchlint.checks._judge import Judgement, binaries_text, fixes_for, judgement_of
from watchlint.checks._message import shown
from watchlint.facts import Access, Facts, Mitigation, ObjectForm, Operation, Restriction, Site, any_of, names_kind
from watchlint.findings import Finding, Mitigated, Related, Verdict
from watchlint.fixes import Applicability, Edit, Fix

CODE = "WL002"


def check(facts: Facts, context: CheckContext) -> Iterator[Verdict]:
    yield from _alike_where_shared(list(_verdicts(facts, context)))


def _alike_where_shared(verdicts: list[Verdict]) -> Iterator[Verdict]:
    """One edit of a manager's options serves every read of the kind it disables: where it changes what one of
    them sees (its fix is unsafe), `--fix` must not make it for another finding offering it as safe."""
    unsafe: dict[frozenset[Edit], Finding] = {}
    for verdict in verdicts:
        if isinstance(verdict, Finding):
            for fix in verdict.fixes:
                if fix.applicability is Applicability.UNSAFE and fix.edits:
                    unsafe.setdefault(frozenset(fix.edits), verdict)
    for verdict in verdicts:
        if isinstance(verdict, Finding) and unsafe:
            verdict = replace(verdict, fixes=tuple(_unsafe_if_shared(fix, verdict, unsafe) for fix in verdict.fixes))
        yield verdict


def _unsafe_if_shared(fix: Fix, finding: Finding, unsafe: dict[frozenset[Edit], Finding]) -> Fix:
    other = unsafe.get(frozenset(fix.edits)) if fix.applicability is Applicability.SAFE else None
    if other is None or other is finding:
        return fix
    where = f"{other.span.path}:{other.span.line}"
    title = f"{fix.title}; the same edit is unsafe for the read at {where} (see its fix)"
    return replace(fix, title=title, applicability=Applicability.UNSAFE)


def _verdicts(facts: Facts, context: CheckContext) -> Iterator[Verdict]:
    watches: dict[tuple[str, str], list[Site]] | None = None
    readers: dict[tuple[str, str], list[Site]] | None = None
    for site in facts.sites:
        judgement = judgement_of(site, facts, context)
        if judgement.code != CODE:
            continue
        if judgement.mitigation is not None:
            yield Mitigated(CODE, site.span, site.kind, site.construct, judgement.mitigation, judgement.evidence)
            continue
        related = judgement.related
        if site.access_evidence is not None:
            related = (*related, Related(site.access_evidence.span, site.access_evidence.message))
        if watches is None:
            watches = open_watches(facts, context)
        by_key = watches_beside(site, watches)
        candidates = [watch for found in by_key.values() for watch in found]
        watch = _nearest(site, candidates)
        if watch is not None:
            others = len({candidate.span for candidate in candidates} - {watch.span})
            split = _split_by_watch(facts, judgement, by_key, watch)
            yield _reads_the_watched_informer(site, judgement, related, (watch, others), context, split)
            continue
        fixes = _listed_whole(site, _scoped_when_configured(site, judgement, fixes_for(site, judgement)))
        if readers is None:
            readers = _cache_readers(facts, context)
        beside = [other for key in site.policy_keys for other in readers.get((site.kind, key), [])]
        reader = _nearest(site, [other for other in beside if other.span != site.span])
        if reader is not None and fixes:
            # version-checker reads Pods typed through mgr.GetCache() too, which keeps the informer DisableFor
            # sends this read past
            where = f"{reader.span.path}:{reader.span.line}"
            saves = (
                f"it saves memory only once the read at {where} stops reading {site.kind} from the cache itself "
                "(DisableFor does not cover it)"
            )
            fixes = tuple(_while_watched(fix, saves, _lists_everything(site)) for fix in fixes)
        yield Finding(
            code=CODE,
            level=context.levels[CODE],
            span=site.span,
            message=f"{shown(site.call)} on {site.kind} starts a cluster-wide {site.kind} informer{judgement.note}",
            kind=site.kind,
            construct=site.construct,
            enclosing=site.enclosing,
            related=related,
            fixes=fixes,
            help=site.suggestion or _disable_help(site, judgement),  # the front-end's: a cache index to replace
        )


_SCOPES = (Mitigation.DEFAULT_NAMESPACES, Mitigation.DEFAULT_SELECTOR)


def _scoped_when_configured(site: Site, judgement: Judgement, fixes: tuple[Fix, ...]) -> tuple[Fix, ...]:
    """A List naming no namespace (for a selector scope, no selector either) through a cache scoped only when the
    operator is configured so (`if ns := os.Getenv("WATCH_NAMESPACE"); ns != "" {…}`): read from the API server it
    lists every namespace where the cache would list the scope's, so reading it uncached changes what the
    operator sees (unsafe)."""
    if site.operation is not Operation.LIST or not fixes or judgement.policy is None:
        return fixes
    scopes = [
        restriction
        for restriction in judgement.policy.restrictions
        if (
            restriction.mitigation in _SCOPES
            or (restriction.mitigation is Mitigation.BY_OBJECT and names_kind(restriction, site))
        )
        and restriction.is_effective
        and restriction.condition is not None
        and restriction.condition.holds_by_default is False
    ]
    scope = scopes[0] if scopes else None
    if scope is None or _keeps_within(site, scope):
        return fixes
    wanted = "namespace" if _scopes_namespaces(scope) else "selector or a namespace"
    # each branch that scopes the cache (k8ssandra's WATCH_NAMESPACE with a comma, and without): one phrase
    where = any_of([restriction.condition for restriction in scopes if restriction.condition is not None])
    lost = f"; where {where}, the List then reads every {site.kind} the cache would leave out: "
    lost += f"give it the scope's {wanted}"
    return tuple(replace(fix, title=f"{fix.title}{lost}", applicability=Applicability.UNSAFE) for fix in fixes)


def _keeps_within(site: Site, scope: Restriction) -> bool:
    """Whether the List's own options keep it within a scope of the cache: a namespace scope only by a namespace
    (a selector alone lists every namespace, which an operator granted a namespaced Role may not), a selector
    by either; one whose value is not seen counts."""
    own = {restriction.mitigation for restriction in site.read_restrictions}
    if Mitigation.UNRESOLVED in own:
        return True
    # a limit keeps the List short, not within the scope
    return Mitigation.NAMESPACE in own if _scopes_namespaces(scope) else bool(own - {Mitigation.ONE_PAGE})


def _scopes_namespaces(scope: Restriction) -> bool:
    return scope.mitigation is Mitigation.DEFAULT_NAMESPACES or (
        scope.mitigation is Mitigation.BY_OBJECT and "Namespaces" in scope.text
    )


def _disable_help(site: Site, judgement: Judgement) -> str:
    """Add the kind to DisableFor; where the options list it there under a condition off by default, apply that."""
    disable_for = cache_option_names(site.cache_options_era).disable_for
    restrictions = judgement.policy.restrictions if judgement.policy is not None else ()
    conditional = next(
        (
            restriction.condition
            for restriction in restrictions
            if restriction.mitigation is Mitigation.DISABLE_FOR
            and names_kind(restriction, site)
            and restriction.is_effective
            and restriction.condition is not None
            and restriction.condition.holds_by_default is False
        ),
        None,
    )
    # a library function handed a client.Client takes no reader: DisableFor is the only way past the cache
    reader = (
        f" ({site.library_reader} takes a client.Client, which mgr.GetAPIReader() is not)"
        if site.library_reader
        else ", or read it through mgr.GetAPIReader()"
    )
    if conditional is not None:
        return (
            f"The manager options list {site.kind} in {disable_for} only when {conditional.text}: list it there "
            f"whatever the setting{reader}"
        )
    if site.cache_options_era == "pre-v0.7" and not site.library_reader:
        # the module's controller-runtime has no ClientDisableCacheFor yet: the API reader works as it is
        return f"Read it through mgr.GetAPIReader(), or add {site.kind} to {disable_for} in the manager options"
    return f"Add {site.kind} to {disable_for} in the manager options{reader}"


def _nearest(site: Site, watches: list[Site]) -> Site | None:
    """The watch of the read's own file (the reconciler's usually), else of its package, else the first; of
    those, one known to run before one under a condition not told (nifikop watches Pods in both branches of a
    test of the API server's version)."""
    watches = sorted(watches, key=lambda watch: watch.condition is not None and not watch.condition.holds_by_default)
    folder = site.span.path.rpartition("/")[0]
    same_file = (watch for watch in watches if watch.span.path == site.span.path)
    same_package = (watch for watch in watches if watch.span.path.rpartition("/")[0] == folder)
    return next(same_file, None) or next(same_package, None) or (watches[0] if watches else None)


def _split_by_watch(
    facts: Facts, judgement: Judgement, by_key: dict[str, list[Site]], named: Site
) -> tuple[str, str, str] | None:
    """Of the binaries that leave a read open, where a watch starts the kind's informer and where the read
    starts it itself, where both are some (infra-operator-aws registers the owning controller in one of its two
    binaries only): the former, those of them running the watch named ("" where it runs in each), the latter;
    None where a watch starts it in each binary."""
    keys = (judgement.policy.key, *judgement.others) if judgement.policy is not None else ()
    policies = [(key, policy) for key in keys if (policy := facts.policy(key)) is not None]
    watched = [policy.label for key, policy in policies if by_key.get(key)]
    unwatched = [policy.label for key, policy in policies if not by_key.get(key)]
    if not watched or not unwatched:
        return None
    running = [policy.label for key, policy in policies if key in named.policy_keys and by_key.get(key)]
    named_in = "" if len(running) == len(watched) else binaries_text(running)
    return binaries_text(watched), named_in, binaries_text(unwatched)


def watches_beside(site: Site, watches: dict[tuple[str, str], list[Site]]) -> dict[str, list[Site]]:
    """Per policy of a site, the open watches of its kind (`open_watches`) that may run in the manager the site
    runs in: a watch another subcommand's manager runs starts no informer in the site's (sites whose managers
    are unknown may share one)."""
    return {
        key: [
            watch
            for watch in watches.get((site.kind, key), [])
            if not site.managers or not watch.managers or set(site.managers) & set(watch.managers)
        ]
        for key in site.policy_keys
    }


def sharing_watches(site: Site, watches: dict[tuple[str, str], list[Site]]) -> int:
    """How many other open watches of the site's kind start the informer it does (`watches_beside`)."""
    return len({watch.span for found in watches_beside(site, watches).values() for watch in found} - {site.span})


def shared_informer_note(count: int, kind: str) -> str:
    """Where other watches start the same informer (vault-config-operator watches Secrets in eleven controllers,
    apisix in nine): one selector serves them all, so it must keep what each needs; "" for none."""
    if not count:
        return ""
    shares = "share" if count > 1 else "shares"
    return f"; {other_watches(count, kind)} {shares} the informer: the selector must keep what each needs"


def _cache_readers(facts: Facts, context: CheckContext) -> dict[tuple[str, str], list[Site]]:
    """The open typed reads through the cache itself (`mgr.GetCache()`), by kind and cache policy: they keep the
    informer whatever DisableFor says, so disabling the kind for the client saves nothing while they read it."""
    return _open_typed(
        facts, context, lambda site: site.reads_cache_itself and site.operation is not Operation.WATCH, CODE
    )


def open_watches(facts: Facts, context: CheckContext) -> dict[tuple[str, str], list[Site]]:
    """The typed watches of the manager cache that nothing restricts, by kind and cache policy: they start the
    informer a read of their kind through the same cache uses."""
    return _open_typed(facts, context, lambda site: site.operation is Operation.WATCH)


def _open_typed(
    facts: Facts, context: CheckContext, picked: Callable[[Site], bool], code: str | None = None
) -> dict[tuple[str, str], list[Site]]:
    """The typed sites of the manager cache `picked` that nothing restricts (judged by rule `code`, where given),
    by kind and cache policy."""
    found: dict[tuple[str, str], list[Site]] = {}
    for site in facts.sites:
        if site.access is not Access.CACHE or site.form is not ObjectForm.TYPED or not picked(site):
            continue
        judgement = judgement_of(site, facts, context)
        if judgement.mitigation is None and code in (None, judgement.code):
            for key in site.policy_keys:
                found.setdefault((site.kind, key), []).append(site)
    return found


def _reads_the_watched_informer(
    site: Site,
    judgement: Judgement,
    related: tuple[Related, ...],
    watched: tuple[Site, int],
    context: CheckContext,
    split: tuple[str, str, str] | None = None,
) -> Finding:
    """A read of a kind a watch of the same cache already caches whole: the watch starts the informer, so
    DisableFor alone saves nothing; once the watch is narrowed, it keeps this read finding every object.
    `watched`: the watch named, and how many other open watches of the kind the cache has (infra-operator
    watches Secrets in nine places: narrowing the one named is not enough); `split`: where the read runs both in
    binaries a watch starts the informer in and in others (see _split_by_watch)."""
    watch, others = watched
    # a cache index starts the informer as a watch does (cass-operator's Event index), but is no watch
    starter = "index" if watch.call.rsplit(".", 1)[-1] == "IndexField" else "watch"
    where = f"{starter} at {watch.span.path}:{watch.span.line}"
    narrowed = f"{where} and {other_watches(others, site.kind)}" if others else where
    started = f"the {where} starts{judgement.note}"
    saves = ""
    if split is not None:
        watched_in, named_in, unwatched_in = split
        by = (
            f"watches start in {watched_in} (the {where} in {named_in})"
            if named_in
            else f"the {where} starts in {watched_in}"
        )
        started = f"{by}, and starts one itself in {unwatched_in}{judgement.note.removesuffix(judgement.binaries)}"
        saves = f"in {watched_in} "
    names = cache_option_names(site.cache_options_era)
    return Finding(
        code=CODE,
        level=context.levels[CODE],
        span=site.span,
        message=f"{shown(site.call)} on {site.kind} reads the cluster-wide {site.kind} informer that {started}",
        kind=site.kind,
        construct=site.construct,
        enclosing=site.enclosing,
        related=(Related(watch.span, f"{shown(watch.construct)} starts the informer"), *related),
        fixes=tuple(
            _while_watched(
                fix,
                f"{saves}it saves memory only once the {narrowed} {'are' if others else 'is'} narrowed",
                _lists_everything(site),
            )
            # a List the cache scopes only where configured lists every namespace once sent past it: said too
            for fix in _scoped_when_configured(site, judgement, fixes_for(site, judgement))
        ),
        help=(
            # a cache index to replace first, or a read through the client it writes with: and the watch
            f"{site.suggestion}; the {narrowed} {'cache' if others else 'caches'} every {site.kind} until "
            f"{'they are' if others else 'it is'} narrowed with {names.by_object}"
            if site.suggestion
            else f"The {narrowed} {'cache' if others else 'caches'} every {site.kind}: narrow "
            f"{'them' if others else 'it'} with {names.by_object} {names.by_object_in}, and "
            f"add {site.kind} to {names.disable_for} so this read still finds what the narrowed "
            "cache leaves out"
        ),
    )


def _while_watched(fix: Fix, saves: str, every: str) -> Fix:
    """A read's own fix while a watch (or index) keeps the informer whole: it sends the reads to the API server
    and saves no memory until that is narrowed (`saves`: "it saves memory only once the watch at … is narrowed"),
    so it is applied only on request (unsafe), saying so; `every` names the kind a List with no namespace nor
    selector of its own would then ask the API server for whole on each call (kube-image-keeper's Pod Lists)."""
    return replace(fix, title=f"{fix.title}; {saves}{_read_whole(every)}", applicability=Applicability.UNSAFE)


def _listed_whole(site: Site, fixes: tuple[Fix, ...]) -> tuple[Fix, ...]:
    """A List with no namespace nor selector of its own, which a fix sends to the API server: it saves the
    informer, and the List then reads every object of the kind on each call, which the title says (the scope a
    cache has only where configured says more, and is said instead)."""
    listed = _read_whole(_lists_everything(site))
    if not listed:
        return fixes
    return tuple(fix if "; where " in fix.title else replace(fix, title=f"{fix.title}{listed}") for fix in fixes)


def _read_whole(every: str) -> str:
    """What a fix title adds for a List it sends to the API server whole (`every`: its kind; "" for none)."""
    return f", and the List then reads every {every} from the API server on each call (WL004)" if every else ""


def other_watches(count: int, kind: str) -> str:
    """`1 other watch of Secret`, `3 other watches of Secret`."""
    return f"{count} other {'watches' if count > 1 else 'watch'} of {kind}"


def _lists_everything(site: Site) -> str:
    """The kind of a List that has no namespace nor selector of its own ("" for any other read): sent to the API
    server, it reads every object of the kind."""
    if site.operation is not Operation.LIST or any(item.is_active for item in site.read_restrictions):
        return ""
    return site.kind
