"""The checks on hand-built facts: which rule a site gets, what mitigates it, and what the message says."""

from __future__ import annotations

from dataclasses import replace

import pytest

from watchlint.checks import CHECKS, CheckContext
from watchlint.checks._message import shown
from watchlint.facts import (
    EXCLUDES_ONLY,
    Access,
    CachePolicy,
    Condition,
    Evidence,
    Facts,
    Language,
    Mitigation,
    ObjectForm,
    Operation,
    Restriction,
    Site,
)
from watchlint.findings import Finding, Level, Mitigated, Verdict
from watchlint.source import Span

KINDS = frozenset({"Secret", "ConfigMap", "Pod"})
CONTEXT = CheckContext(levels={code: Level.WARNING for code in CHECKS} | {"WL004": Level.NOTE}, kinds=KINDS)
MAIN = Span("cmd/main.go", 40, 12, 40, 22)
SITE_SPAN = Span("internal/controller/app.go", 10, 3, 10, 7)
OTHER_SPAN = Span("internal/controller/app.go", 20, 9, 20, 12)


def watch(kind: str = "Secret", **changes: object) -> Site:
    site = Site(
        operation=Operation.WATCH,
        access=Access.CACHE,
        kind=kind,
        form=ObjectForm.TYPED,
        span=SITE_SPAN,
        call="Owns",
        construct=f"Owns(&corev1.{kind}{{}})",
        enclosing="(*AppReconciler).SetupWithManager",
        policy_keys=("manager",),
    )
    return replace(site, **changes)  # type: ignore[arg-type]


def read(operation: Operation = Operation.GET, **changes: object) -> Site:
    call = "r.Get" if operation is Operation.GET else "r.List"
    site = Site(
        operation=operation,
        access=Access.CACHE,
        kind="ConfigMap",
        form=ObjectForm.TYPED,
        span=OTHER_SPAN,
        call=call,
        construct=f"{call}(ctx, key, &cm)",
        enclosing="(*AppReconciler).Reconcile",
        policy_keys=("manager",),
    )
    return replace(site, **changes)  # type: ignore[arg-type]


def policy(*restrictions: Restriction, key: str = "manager", label: str = "binary manager") -> CachePolicy:
    return CachePolicy(key=key, label=label, origins=(MAIN,), restrictions=restrictions)


def restriction(mitigation: Mitigation, kind: str | None = "Secret", **changes: object) -> Restriction:
    made = Restriction(mitigation=mitigation, kind=kind, span=MAIN, text=f"{mitigation} for {kind}")
    return replace(made, **changes)  # type: ignore[arg-type]


def verdicts(
    *sites: Site, policies: tuple[CachePolicy, ...] = (policy(),), language: Language = Language.GO
) -> list[Verdict]:
    facts = Facts(language=language, root=".", sites=sites, policies=policies)
    return [verdict for code in sorted(CHECKS) for verdict in CHECKS[code](facts, CONTEXT)]


def only(items: list[Verdict]) -> Verdict:
    assert len(items) == 1, items
    return items[0]


def test_unrestricted_owns_is_wl001_citing_the_manager_options() -> None:
    finding = only(verdicts(watch()))
    assert isinstance(finding, Finding)
    assert (finding.code, finding.span, finding.level) == ("WL001", SITE_SPAN, Level.WARNING)
    assert finding.message == "`Owns(&corev1.Secret{})` caches every Secret in the cluster"
    assert [(item.span, item.message) for item in finding.related] == [
        (MAIN, "cache options here leave Secret unrestricted")
    ]
    assert finding.help.startswith("Restrict Secret with cache.Options.ByObject")


def test_an_informer_factory_of_the_binary_is_not_cited_for_a_manager_watch_nor_the_other_way_round() -> None:
    factory = Span("pkg/webhook/controller.go", 93, 23, 93, 48)
    both = CachePolicy(
        key="manager", label="binary manager", origins=(MAIN, factory), restrictions=(), factory_origins=(factory,)
    )
    secrets = watch(access=Access.INFORMER_FACTORY, call="Secrets", construct="Core().V1().Secrets()")
    cited = {}
    for site in (watch(), secrets):
        finding = only(verdicts(site, policies=(both,)))
        assert isinstance(finding, Finding)
        cited[site.access] = [item.span for item in finding.related]
    assert cited == {Access.CACHE: [MAIN], Access.INFORMER_FACTORY: [factory]}


def test_predicate_makes_the_same_site_wl003_not_both() -> None:
    predicate = Evidence(Span("internal/controller/app.go", 11, 5, 11, 27), "builder.WithPredicates")
    finding = only(verdicts(watch(filters=(predicate,))))
    assert isinstance(finding, Finding)
    assert finding.code == "WL003"
    assert finding.message == "`Owns(&corev1.Secret{})` filters events only; every Secret is still cached"
    assert finding.related[0].message == "builder.WithPredicates filters events only"


@pytest.mark.parametrize(
    "mitigation",
    [Mitigation.BY_OBJECT, Mitigation.DEFAULT_NAMESPACES, Mitigation.DEFAULT_SELECTOR, Mitigation.UNRESOLVED],
    ids=str,
)
def test_cache_scope_mitigates_watches_and_reads(mitigation: Mitigation) -> None:
    scoped = policy(restriction(mitigation, kind=None if mitigation is not Mitigation.BY_OBJECT else "Secret"))
    items = verdicts(watch(), read(kind="Secret"), policies=(scoped,))
    assert [(type(item), item.code, getattr(item, "reason", None)) for item in items] == [
        (Mitigated, "WL001", mitigation),
        (Mitigated, "WL002", mitigation),
    ]


def test_by_object_entry_for_another_kind_does_not_mitigate() -> None:
    finding = only(verdicts(watch("Pod"), policies=(policy(restriction(Mitigation.BY_OBJECT, "Secret")),)))
    assert isinstance(finding, Finding)
    assert finding.code == "WL001"


@pytest.mark.parametrize(
    ("mitigation", "text", "cited"),
    [
        (Mitigation.BY_OBJECT, "ByObject entry for &corev1.Secret{}", "sets no Label, Field or Namespaces"),
        (Mitigation.DEFAULT_NAMESPACES, "DefaultNamespaces", "names no namespace"),
        (Mitigation.DEFAULT_SELECTOR, "DefaultLabelSelector", "selects everything"),
    ],
    ids=str,
)
def test_a_restriction_that_narrows_nothing_is_cited_in_its_own_words(
    mitigation: Mitigation, text: str, cited: str
) -> None:
    kind = "Secret" if mitigation is Mitigation.BY_OBJECT else None
    empty = restriction(mitigation, kind=kind, text=text, is_effective=False)
    finding = only(verdicts(watch(), policies=(policy(empty),)))
    assert isinstance(finding, Finding)
    assert finding.related[-1].message == f"{text} {cited}"


def test_an_empty_namespace_map_filled_under_a_condition_is_told_by_the_condition_alone() -> None:
    """`DefaultNamespaces: map[…]{}` then entries for --namespaces: "names no namespace" would read as if the
    scope could never apply."""
    condition = Condition("--namespaces is set", Span("cmd/main.go", 30, 2, 32, 3), holds_by_default=False)
    empty = restriction(Mitigation.DEFAULT_NAMESPACES, None, text="DefaultNamespaces", is_effective=False)
    filled = restriction(Mitigation.DEFAULT_NAMESPACES, None, text="DefaultNamespaces", condition=condition)
    finding = only(verdicts(watch(), policies=(policy(empty, filled),)))
    assert isinstance(finding, Finding)
    assert [related.message for related in finding.related[1:]] == [
        "DefaultNamespaces applies only when --namespaces is set"
    ]


@pytest.mark.parametrize(
    ("era", "help_text"),
    [
        (
            "current",
            "Restrict Secret with cache.Options.ByObject (the label or field the predicate tests, if any, or "
            "namespaces) in the manager options, so the informer holds only the objects the controller needs",
        ),
        (
            "legacy",
            "Restrict Secret with cache.Options.SelectorsByObject (the label or field the predicate tests, if any) "
            "in the options of the manager's NewCache (cache.BuilderWithOptions), so the informer holds only the "
            "objects the controller needs",
        ),
    ],
)
def test_a_predicate_only_watch_is_told_the_selector_option_of_its_era(era: str, help_text: str) -> None:
    """Before v0.15 a kind's selector takes a label or a field, not namespaces, and is set through NewCache."""
    filtered = watch(filters=(Evidence(OTHER_SPAN, "builder.WithPredicates filters events only"),))
    finding = only(verdicts(replace(filtered, cache_options_era=era)))
    assert isinstance(finding, Finding)
    assert (finding.code, finding.help) == ("WL003", help_text)


@pytest.mark.parametrize(
    ("site", "help_text"),
    [
        (
            watch(),
            "Restrict Secret with cache.Options.SelectorsByObject (Label or Field) in the options of the manager's "
            "NewCache (cache.BuilderWithOptions), which need controller-runtime v0.9 or later, or watch it with "
            "builder.OnlyMetadata (controller-runtime v0.7 or later)",
        ),
        (
            read(),
            "Read it through mgr.GetAPIReader(), or add ConfigMap to ClientDisableCacheFor (controller-runtime v0.7 "
            "or later) in the manager options",
        ),
    ],
    ids=["watch", "read"],
)
def test_the_options_controller_runtime_v06_lacks_are_helped_with_the_version_they_need(
    site: Site, help_text: str
) -> None:
    """flink-on-k8s-operator requires controller-runtime v0.6.0, which has no ClientDisableCacheFor nor
    builder.OnlyMetadata (both v0.7): the help says which version they need, and offers the API reader, which
    works as it is, first."""
    finding = only(verdicts(replace(site, cache_options_era="pre-v0.7")))
    assert isinstance(finding, Finding)
    assert finding.help == help_text


def test_a_restriction_a_wrapper_drops_is_cited_where_the_wrapper_replaces_it() -> None:
    """`options.Cache = cache.Options{…}` in the wrapper that builds the manager: the caller's namespaces never
    reach it, and the note points at the assignment that drops them."""
    replaced = Span("internal/runtime/runtime.go", 17, 2, 17, 15)
    dropped = restriction(
        Mitigation.DEFAULT_NAMESPACES,
        None,
        text="DefaultNamespaces",
        is_effective=False,
        dropped_by=Evidence(replaced, "`options.Cache = …`"),
    )
    finding = only(verdicts(watch(), policies=(policy(dropped),)))
    assert isinstance(finding, Finding)
    assert [(related.span, related.message) for related in finding.related[1:]] == [
        (replaced, "`options.Cache = …` here drops the caller's DefaultNamespaces")
    ]


@pytest.mark.parametrize(
    ("mitigation", "codes"),
    [(Mitigation.DISABLE_FOR, ["WL001"]), (Mitigation.FAIL_ON_MISSING_INFORMER, ["WL001"])],
    ids=["disable-for", "fail-on-missing-informer"],
)
def test_client_side_mitigations_clear_reads_but_not_watches(mitigation: Mitigation, codes: list[str]) -> None:
    kind = None if mitigation is Mitigation.FAIL_ON_MISSING_INFORMER else "Secret"
    items = verdicts(watch(), read(kind="Secret"), policies=(policy(restriction(mitigation, kind)),))
    assert [item.code for item in items if isinstance(item, Finding)] == codes
    assert [(item.code, item.reason) for item in items if isinstance(item, Mitigated)] == [("WL002", mitigation)]


def test_scope_off_by_default_does_not_count_and_the_message_says_when_it_would() -> None:
    condition = Condition("WATCH_NAMESPACE is non-empty", Span("cmd/main.go", 30, 2, 32, 3), holds_by_default=False)
    scope = restriction(Mitigation.DEFAULT_NAMESPACES, None, text="DefaultNamespaces", condition=condition)
    finding = only(verdicts(watch(), policies=(policy(scope),)))
    assert isinstance(finding, Finding)
    assert finding.message == (
        "`Owns(&corev1.Secret{})` caches every Secret in the cluster; "
        "DefaultNamespaces applies only when WATCH_NAMESPACE is non-empty"
    )
    assert finding.related[-1].span == condition.span


def test_a_scope_written_several_times_under_one_guard_is_noted_once() -> None:
    """Options that set DefaultNamespaces in three branches of one function, all under the same guard: one note."""
    condition = Condition("--config is set", Span("cmd/main.go", 147, 5, 147, 25), holds_by_default=False)
    writes = [
        restriction(
            Mitigation.DEFAULT_NAMESPACES,
            None,
            text="DefaultNamespaces",
            condition=condition,
            span=Span("api/loader.go", line, 3, line, 40),
        )
        for line in (59, 64, 76)
    ]
    finding = only(verdicts(watch(), policies=(policy(*writes),)))
    assert isinstance(finding, Finding)
    notes = [related for related in finding.related if "applies only when" in related.message]
    assert [(note.span, note.message) for note in notes] == [
        (condition.span, "DefaultNamespaces applies only when --config is set")
    ]


@pytest.mark.parametrize("holds", [True, None], ids=["on-by-default", "cannot-evaluate"])
def test_scope_under_a_condition_that_holds_or_cannot_be_evaluated_counts(holds: bool | None) -> None:
    condition = Condition("--namespace is set", MAIN, holds_by_default=holds)
    scope = restriction(Mitigation.DEFAULT_NAMESPACES, None, condition=condition)
    item = only(verdicts(watch(), policies=(policy(scope),)))
    assert isinstance(item, Mitigated)
    assert item.reason is Mitigation.DEFAULT_NAMESPACES


def test_site_that_exists_only_behind_a_false_flag_is_not_a_finding() -> None:
    condition = Condition("--enable-secrets is set", MAIN, holds_by_default=False)
    item = only(verdicts(watch(condition=condition)))
    assert isinstance(item, Mitigated)
    assert item.reason is Mitigation.OFF_BY_DEFAULT


def test_one_unrestricting_binary_is_enough_and_is_named() -> None:
    restricted = policy(restriction(Mitigation.BY_OBJECT), key="a", label="binary cmd/a")
    open_policy = policy(key="b", label="binary cmd/b")
    finding = only(verdicts(watch(policy_keys=("a", "b")), policies=(restricted, open_policy)))
    assert isinstance(finding, Finding)
    assert finding.message == "`Owns(&corev1.Secret{})` caches every Secret in the cluster (binary cmd/b)"


def test_module_without_manager_says_so() -> None:
    bare = CachePolicy(key="manager", label="module", origins=(), restrictions=())
    finding = only(verdicts(read(), policies=(bare,)))
    assert isinstance(finding, Finding)
    assert finding.message == (
        "`r.Get` on ConfigMap starts a cluster-wide ConfigMap informer; no manager options were found"
    )


@pytest.mark.parametrize(
    ("access", "reason"),
    [
        (Access.API_READER, Mitigation.API_READER),
        (Access.DIRECT_CLIENT, Mitigation.DIRECT_CLIENT),
        (Access.CLIENTSET, Mitigation.CLIENTSET),
    ],
    ids=str,
)
def test_uncached_get_is_mitigated_by_its_client(access: Access, reason: Mitigation) -> None:
    item = only(verdicts(read(access=access, policy_keys=())))
    assert isinstance(item, Mitigated)
    assert (item.code, item.reason) == ("WL002", reason)


def test_uncached_cluster_wide_list_is_wl004() -> None:
    finding = only(verdicts(read(Operation.LIST, access=Access.API_READER, policy_keys=())))
    assert isinstance(finding, Finding)
    assert (finding.code, finding.level) == ("WL004", Level.NOTE)
    assert finding.message == "`r.List` lists every ConfigMap in the cluster on each call"


@pytest.mark.parametrize("mitigation", [Mitigation.NAMESPACE, Mitigation.SELECTOR], ids=str)
def test_uncached_list_with_namespace_or_selector_is_mitigated(mitigation: Mitigation) -> None:
    local = restriction(mitigation, "ConfigMap")
    item = only(verdicts(read(Operation.LIST, access=Access.API_READER, policy_keys=(), restrictions=(local,))))
    assert isinstance(item, Mitigated)
    assert (item.code, item.reason) == ("WL004", mitigation)


def test_uncached_list_scoped_only_under_a_false_condition_says_when_the_scope_applies() -> None:
    condition = Condition("--namespace is set", MAIN, holds_by_default=False)
    local = restriction(Mitigation.NAMESPACE, "ConfigMap", text="client.InNamespace(ns)", condition=condition)
    site = read(Operation.LIST, access=Access.API_READER, policy_keys=(), restrictions=(local,))
    finding = only(verdicts(site))
    assert isinstance(finding, Finding)
    assert finding.message == (
        "`r.List` lists every ConfigMap in the cluster on each call; "
        "client.InNamespace(ns) applies only when --namespace is set"
    )
    assert [(item.span, item.message) for item in finding.related] == [
        (MAIN, "client.InNamespace(ns) applies only when --namespace is set")
    ]


def test_cached_list_with_namespace_option_still_fills_a_cluster_wide_informer() -> None:
    namespaced = restriction(Mitigation.NAMESPACE, "ConfigMap", is_effective=False)
    finding = only(verdicts(read(Operation.LIST, restrictions=(namespaced,))))
    assert isinstance(finding, Finding)
    assert finding.code == "WL002"


def test_unstructured_reads_are_uncached_unless_the_client_caches_them() -> None:
    item = only(verdicts(read(form=ObjectForm.UNSTRUCTURED)))
    assert isinstance(item, Mitigated)
    assert item.reason is Mitigation.UNSTRUCTURED
    caching = replace(policy(), caches_unstructured=MAIN)
    finding = only(verdicts(read(form=ObjectForm.UNSTRUCTURED), policies=(caching,)))
    assert isinstance(finding, Finding)
    assert finding.code == "WL002"
    # the option that makes an unstructured read cached is named: the read looks uncached otherwise
    assert (MAIN, "Unstructured: true caches unstructured objects too") in [
        (item.span, item.message) for item in finding.related
    ]


def test_cached_list_of_a_kind_in_disable_for_is_judged_as_an_uncached_list() -> None:
    disabled = restriction(Mitigation.DISABLE_FOR, "ConfigMap", text="DisableFor lists &corev1.ConfigMap{}")
    finding = only(verdicts(read(Operation.LIST), policies=(policy(disabled),)))
    assert isinstance(finding, Finding)
    assert (finding.code, finding.level) == ("WL004", Level.NOTE)
    assert [(item.span, item.message) for item in finding.related] == [
        (MAIN, "DisableFor lists &corev1.ConfigMap{}: every List of ConfigMap goes to the API server")
    ]
    namespaced = restriction(Mitigation.NAMESPACE, "ConfigMap")
    item = only(verdicts(read(Operation.LIST, read_restrictions=(namespaced,)), policies=(policy(disabled),)))
    assert isinstance(item, Mitigated)
    assert (item.code, item.reason) == ("WL002", Mitigation.DISABLE_FOR)


def test_disable_for_whose_contents_are_not_visible_makes_no_uncached_list() -> None:
    unseen = restriction(Mitigation.DISABLE_FOR, None, text="DisableFor: kinds() (contents not visible)")
    item = only(verdicts(read(Operation.LIST), policies=(policy(unseen),)))
    assert isinstance(item, Mitigated)
    assert (item.code, item.reason) == ("WL002", Mitigation.DISABLE_FOR)


def test_a_binary_that_caches_the_list_outweighs_one_that_sends_it_to_the_api_server() -> None:
    disabled = policy(restriction(Mitigation.DISABLE_FOR, "ConfigMap"), key="a", label="binary a")
    site = read(Operation.LIST, policy_keys=("a", "b"))
    finding = only(verdicts(site, policies=(disabled, policy(key="b", label="binary b"))))
    assert isinstance(finding, Finding)
    assert finding.code == "WL002"


def test_unstructured_list_through_a_cached_client_is_judged_as_an_uncached_list() -> None:
    finding = only(verdicts(read(Operation.LIST, form=ObjectForm.UNSTRUCTURED)))
    assert isinstance(finding, Finding)
    assert finding.code == "WL004"
    assert finding.message == (
        "`r.List` lists every ConfigMap in the cluster on each call; "
        "the client reads unstructured objects from the API server, uncached"
    )
    labelled = restriction(Mitigation.SELECTOR, "ConfigMap")
    item = only(verdicts(read(Operation.LIST, form=ObjectForm.UNSTRUCTURED, read_restrictions=(labelled,))))
    assert isinstance(item, Mitigated)
    assert (item.code, item.reason) == ("WL002", Mitigation.UNSTRUCTURED)


def test_kind_outside_the_catalogue_is_not_high_cardinality() -> None:
    item = only(verdicts(watch("Deployment")))
    assert isinstance(item, Mitigated)
    assert item.reason is Mitigation.NOT_HIGH_CARDINALITY


def test_metadata_only_watch_alone_is_mitigated() -> None:
    items = verdicts(watch(form=ObjectForm.METADATA))
    assert [(item.code, getattr(item, "reason", None)) for item in items] == [
        ("WL001", Mitigation.METADATA_ONLY),
        ("WL005", Mitigation.METADATA_ONLY),
    ]


def test_metadata_only_watch_with_a_typed_read_of_the_kind_is_wl005() -> None:
    metadata = watch("ConfigMap", form=ObjectForm.METADATA, construct="Owns(&corev1.ConfigMap{}, builder.OnlyMetadata)")
    typed = read()
    findings = [item for item in verdicts(metadata, typed) if isinstance(item, Finding)]
    assert [(item.code, item.span) for item in findings] == [("WL002", OTHER_SPAN), ("WL005", SITE_SPAN)]
    duplicate = findings[1]
    assert duplicate.message == (
        "`Owns(&corev1.ConfigMap{}, builder.OnlyMetadata)` caches ConfigMap metadata only, "
        "but ConfigMap is also read typed; a second, full informer is kept"
    )
    assert [(item.span, item.message) for item in duplicate.related] == [
        (OTHER_SPAN, "typed ConfigMap read here starts a full informer")
    ]


def test_a_metadata_watch_names_every_typed_twin_that_keeps_the_full_informer() -> None:
    """version-checker reads Pod typed through the manager's client and through its cache: fixing one read leaves
    the other keeping the full informer, so the finding names both."""
    metadata = watch("ConfigMap", form=ObjectForm.METADATA)
    cache_read = read(span=Span("internal/metrics/helpers.go", 53, 8, 53, 11), call="m.cache.Get")
    duplicate = next(item for item in verdicts(metadata, read(), cache_read) if item.code == "WL005")
    assert isinstance(duplicate, Finding)
    assert [(item.span.path, item.span.line) for item in duplicate.related] == [
        (OTHER_SPAN.path, OTHER_SPAN.line),
        ("internal/metrics/helpers.go", 53),
    ]


def test_typed_twin_in_another_binary_does_not_duplicate_the_cache() -> None:
    metadata = watch("ConfigMap", form=ObjectForm.METADATA, policy_keys=("a",))
    typed = read(policy_keys=("b",))
    policies = (policy(key="a"), policy(key="b"))
    assert not [
        item
        for item in verdicts(metadata, typed, policies=policies)
        if item.code == "WL005" and isinstance(item, Finding)
    ]


def test_kopf_handler_streams_and_operator_namespaces_mitigate() -> None:
    handler = watch(
        access=Access.KOPF, call="@kopf.on.event", construct='@kopf.on.event("secrets")', policy_keys=("kopf",)
    )
    operator = CachePolicy(key="kopf", label="kopf operator", origins=(), restrictions=())
    finding = only(verdicts(handler, policies=(operator,)))
    assert isinstance(finding, Finding)
    assert (
        finding.message
        == '`@kopf.on.event("secrets")` streams every Secret in the cluster; no namespace scope was found in code'
    )
    scoped = replace(operator, restrictions=(restriction(Mitigation.OPERATOR_NAMESPACES, None),))
    item = only(verdicts(handler, policies=(scoped,)))
    assert isinstance(item, Mitigated)
    assert item.reason is Mitigation.OPERATOR_NAMESPACES


def test_kopf_runner_is_said_to_serve_every_namespace_only_when_it_is_given_none() -> None:
    handler = watch(access=Access.KOPF, call="@kopf.on.event", policy_keys=("kopf",))
    unscoped = CachePolicy(key="kopf", label="kopf operator", origins=(MAIN,), restrictions=())
    finding = only(verdicts(handler, policies=(unscoped,)))
    assert isinstance(finding, Finding)
    assert [item.message for item in finding.related] == ["kopf starts here and serves every namespace"]
    off = Condition("WATCH_NAMESPACES is non-empty", MAIN, holds_by_default=False)
    scope = restriction(Mitigation.OPERATOR_NAMESPACES, None, text="kopf.run(namespaces=namespaces)", condition=off)
    finding = only(verdicts(handler, policies=(replace(unscoped, restrictions=(scope,)),)))
    assert isinstance(finding, Finding)
    assert [item.message for item in finding.related] == [
        "kopf starts here",
        "kopf.run(namespaces=namespaces) applies only when WATCH_NAMESPACES is non-empty",
    ]


KNATIVE_HELP = (
    "Take the informer from the package's filtered form (…/secret/filtered) with a label selector that main "
    "registers first with filteredFactory.WithSelectors (…/informers/factory/filtered), or scope knative's "
    "injection with injection.WithNamespaceScope (every injected informer then sees that namespace only); where "
    "only Secrets of the system namespace are read, "
    "knative.dev/pkg/injection/clients/namespacedkube/informers/core/v1/secret holds those alone"
)
LIST_WATCH_HELP = (
    "Narrow the ListerWatcher passed to {} to a namespace, or set LabelSelector or FieldSelector in its ListFunc and "
    'WatchFunc options, e.g. cache.NewFilteredListWatchFromClient(restClient, "{}", namespace, '
    "func(o *metav1.ListOptions) {{ o.LabelSelector = … }})"
)


MANAGER_CACHE_HELP = "Restrict Secret with cache.Options.ByObject (Label, Field or Namespaces) in the manager options"


@pytest.mark.parametrize(
    ("language", "changes", "expected"),
    [
        (
            Language.GO,
            {"access": Access.CLIENTSET, "call": "Watch", "construct": "Watch(ctx, metav1.ListOptions{})"},
            "Set LabelSelector or FieldSelector in the metav1.ListOptions, or watch a single namespace "
            '(Secrets(ns) rather than Secrets(""))',
        ),
        (
            Language.PYTHON,
            {
                "access": Access.DIRECT_CLIENT,
                "call": "w.stream",
                "construct": "w.stream(v1.list_secret_for_all_namespaces)",
            },
            "Pass label_selector= or field_selector=, or watch a single namespace",
        ),
        (
            Language.GO,
            {"kind": "Pod", "access": Access.INFORMER_FACTORY, "call": "NewSharedIndexInformer"},
            LIST_WATCH_HELP.format("NewSharedIndexInformer", "pods"),
        ),
        (
            Language.GO,
            {"kind": "ConfigMap", "access": Access.INFORMER_FACTORY, "call": "NewInformerWithOptions"},
            LIST_WATCH_HELP.format("NewInformerWithOptions", "configmaps"),
        ),
        (  # a field selector that only excludes (VPA's `status.phase!=Pending`): the example keeps it
            Language.GO,
            {
                "kind": "Pod",
                "access": Access.INFORMER_FACTORY,
                "call": "NewInformerWithOptions",
                "restrictions": (
                    restriction(
                        Mitigation.SELECTOR,
                        "Pod",
                        text='fields.ParseSelectorOrDie("status.phase!=Pending")',
                        is_effective=False,
                        detail=EXCLUDES_ONLY + "status.phase!=Pending",
                    ),
                ),
            },
            LIST_WATCH_HELP.format("NewInformerWithOptions", "pods").replace(
                "o.LabelSelector = …", "o.FieldSelector = … (the one it sets now); o.LabelSelector = …"
            ),
        ),
        (
            Language.GO,
            {"access": Access.INFORMER_FACTORY, "call": "NewSecretInformer"},
            "Give NewSecretInformer a namespace, or use its NewFiltered… form with a label selector in "
            "tweakListOptions",
        ),
        (
            Language.GO,
            {"access": Access.INFORMER_FACTORY, "call": "NewFilteredSecretInformer"},
            "Give NewFilteredSecretInformer a namespace, or a tweakListOptions that sets a label selector",
        ),
        (
            Language.GO,
            {"access": Access.INFORMER_FACTORY, "call": "Secrets", "construct": "Core().V1().Secrets()"},
            "Build the informer factory with NewSharedInformerFactoryWithOptions and informers.WithNamespace, or a "
            "label or field selector in WithTweakListOptions, or, where it serves other kinds that must stay whole, "
            "take Secret from a factory of its own so built",
        ),
        (
            Language.GO,
            {
                "access": Access.INFORMER_FACTORY,
                "call": "secretinformer.Get",
                "construct": "secretinformer.Get(ctx)",
                "injected": True,
            },
            KNATIVE_HELP,
        ),
        (
            Language.GO,
            {"access": Access.INFORMER_FACTORY, "call": "Secrets", "construct": "Secrets()", "injected": True},
            KNATIVE_HELP,
        ),
        (
            Language.GO,
            {"access": Access.CACHE, "call": "GetInformer", "construct": "GetInformer(ctx, &corev1.Secret{})"},
            f"{MANAGER_CACHE_HELP}, or, where nothing reads its objects typed, ask GetInformer for a "
            "metav1.PartialObjectMetadata of the kind (metadata only)",
        ),
        (
            Language.GO,
            {
                "access": Access.CACHE,
                "call": "GetInformerForKind",
                "construct": 'GetInformerForKind(ctx, corev1.SchemeGroupVersion.WithKind("Secret"))',
            },
            f"{MANAGER_CACHE_HELP}, or, where nothing reads its objects typed, ask GetInformer for a "
            "metav1.PartialObjectMetadata of the kind (metadata only)",
        ),
        (
            Language.GO,
            {"access": Access.CACHE, "call": "IndexField", "construct": "IndexField(ctx, &corev1.Secret{}, …)"},
            # no List reads Secret through the cache here: the index serves nothing
            "No read of Secret through the cache is seen, and an index serves only cached Lists filtering on it: "
            f"where none does, remove the IndexField; else {MANAGER_CACHE_HELP[:1].lower()}{MANAGER_CACHE_HELP[1:]}",
        ),
        (
            Language.GO,
            {"access": Access.CACHE, "call": "Owns", "construct": "Owns(&corev1.Secret{})"},
            f"{MANAGER_CACHE_HELP}, or watch it with builder.OnlyMetadata",
        ),
        (
            Language.GO,
            {
                "access": Access.CACHE,
                "call": "c.Watch",
                "construct": "c.Watch(&source.Kind{Type: &corev1.Secret{}}, h)",
            },
            f"{MANAGER_CACHE_HELP}, or watch a metav1.PartialObjectMetadata of the kind in the source.Kind "
            "(metadata only)",
        ),
    ],
    ids=[
        "go-clientset-watch",
        "python-watch",
        "tools-cache-shared-index-informer",
        "tools-cache-informer-with-options",
        "tools-cache-informer-keeping-its-excluding-selector",
        "typed-informer",
        "typed-filtered-informer",
        "informer-factory",
        "knative-injected-informer",
        "knative-injection-factory",
        "manager-cache-get-informer",
        "manager-cache-get-informer-for-kind",
        "manager-cache-index-field",
        "manager-cache-builder",
        "manager-cache-source-kind",
    ],
)
def test_help_of_a_watch_speaks_the_constructors_language(
    language: Language, changes: dict[str, object], expected: str
) -> None:
    finding = only(verdicts(watch(policy_keys=(), **changes), language=language))
    assert isinstance(finding, Finding)
    assert (finding.code, finding.help) == ("WL001", expected)


def test_long_constructs_are_shortened_in_messages() -> None:
    construct = "Watches(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(r.findObjectsForSecret), more)"
    finding = only(verdicts(watch(construct=construct)))
    assert isinstance(finding, Finding)
    assert finding.message == (
        "`Watches(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(r.findObje…` caches every Secret in the cluster"
    )
    assert finding.construct == construct


def test_typed_read_excluded_by_disable_for_starts_no_second_informer() -> None:
    metadata = watch("ConfigMap", form=ObjectForm.METADATA, construct="WatchesMetadata(&corev1.ConfigMap{}, h)")
    uncached = policy(restriction(Mitigation.DISABLE_FOR, "ConfigMap"))
    items = verdicts(metadata, read(), policies=(uncached,))
    assert [(item.code, getattr(item, "reason", None)) for item in items] == [
        ("WL001", Mitigation.METADATA_ONLY),
        ("WL002", Mitigation.DISABLE_FOR),
        ("WL005", Mitigation.METADATA_ONLY),
    ]


def test_a_read_of_a_watched_kind_names_the_watch_of_its_own_package() -> None:
    """Three controllers own Pods; the backup controller's read names the backup controller's watch."""
    owners = [
        watch("Pod", span=Span(f"internal/{name}/setup.go", 16, 3, 16, 7), construct="Owns(&corev1.Pod{})")
        for name in ("archive", "backup", "restore")
    ]
    reading = read(kind="Pod", span=Span("internal/backup/controller.go", 11, 16, 11, 20), call="r.Kube.List")
    findings = [item for item in verdicts(*owners, reading) if isinstance(item, Finding) and item.code == "WL002"]
    assert [finding.message for finding in findings] == [
        "`r.Kube.List` on Pod reads the cluster-wide Pod informer that the watch at internal/backup/setup.go:16 starts"
    ]


def test_a_watch_of_a_kind_read_typed_is_told_to_watch_metadata_only_once_the_reads_bypass_the_cache() -> None:
    """OnlyMetadata would leave the typed informer the reads start: the help offers it only once those reads go
    past the cache (their DisableFor fixes, after which `--fix` offers OnlyMetadata too)."""
    alone = only(verdicts(watch("Pod")))
    read_too = [item for item in verdicts(watch("Pod"), read(kind="Pod")) if item.code == "WL001"]
    assert isinstance(alone, Finding)
    assert alone.help.endswith(", or watch it with builder.OnlyMetadata")
    assert [item.help for item in read_too if isinstance(item, Finding)] == [
        "Restrict Pod with cache.Options.ByObject (Label, Field or Namespaces) in the manager options, or watch it "
        "with builder.OnlyMetadata once its typed reads bypass the cache (client.CacheOptions.DisableFor, see their "
        "fixes)"
    ]


def test_a_read_off_by_default_that_disable_for_covers_asks_for_no_bypass_before_metadata_only_watches() -> None:
    """A typed read that runs only under a setting off by default, and that DisableFor sends to the API server
    where it runs, starts no typed informer either way: OnlyMetadata needs nothing first."""
    disabled = policy(restriction(Mitigation.DISABLE_FOR, kind="Pod"))
    condition = Condition("USE_EXTRA=true", Span("controllers/b.go", 18, 2, 23, 3), holds_by_default=False)
    gated = read(kind="Pod", condition=condition)
    judged = verdicts(watch("Pod"), gated, policies=(disabled,))
    assert [(item.code, item.reason) for item in judged if isinstance(item, Mitigated)] == [
        ("WL002", Mitigation.OFF_BY_DEFAULT)
    ]
    assert [item.help for item in judged if isinstance(item, Finding)] == [
        "Restrict Pod with cache.Options.ByObject (Label, Field or Namespaces) in the manager options, or watch it "
        "with builder.OnlyMetadata"
    ]
    cached = verdicts(watch("Pod"), gated)  # where it runs, the read starts the typed informer
    assert next(item.help for item in cached if isinstance(item, Finding)).endswith("see their fixes)")


def test_a_watch_beside_another_typed_watch_of_its_kind_is_told_to_make_both_metadata_only() -> None:
    """One typed watch left keeps the typed informer whole: making one of two watches metadata-only adds a second
    informer (WL005) rather than saving the first, so the help names the other watch too."""
    setup = "internal/controller/setup.go"
    owns = watch("ConfigMap", span=Span(setup, 14, 3, 14, 7), construct="Owns(&corev1.ConfigMap{})")
    watches = watch("ConfigMap", span=Span(setup, 15, 3, 15, 10), construct="Watches(&corev1.ConfigMap{}, h)")
    helps = [item.help for item in verdicts(owns, watches) if isinstance(item, Finding) and item.code == "WL001"]
    restrict = "Restrict ConfigMap with cache.Options.ByObject (Label, Field or Namespaces) in the manager options"
    keeping = "keeping what the other watch of ConfigMap needs too"
    assert (
        helps == [f"{restrict}, {keeping}, or watch it and the other watch of ConfigMap with builder.OnlyMetadata"] * 2
    )
    read_too = [item for item in verdicts(owns, watches, read()) if isinstance(item, Finding) and item.code == "WL001"]
    assert read_too[0].help.endswith(
        "once its typed reads bypass the cache (client.CacheOptions.DisableFor, see their fixes) and the other watch "
        "of ConfigMap is metadata-only too"
    )


@pytest.mark.parametrize(
    ("construct", "quoted"),
    [
        ('kopf.on.event("pods")', '`kopf.on.event("pods")`'),
        (  # an argument ends near the cut: the message cuts there, not inside `**extra`
            'kopf.on.event("pods", labels={"example.com/flow-run-id": kopf.PRESENT, **extra_labels})',
            '`kopf.on.event("pods", labels={"example.com/flow-run-id": kopf.PRESENT, …`',
        ),
        (  # none near it: cut where the length runs out
            'kopf.on.event("batch", "v1", "jobs", labels={"example.com/flow-run-identifier": kopf.PRESENT})',
            '`kopf.on.event("batch", "v1", "jobs", labels={"example.com/flow-run-iden…`',
        ),
        (  # the front-end elided an argument just before the cut: one ellipsis
            "watcherIndexer.Watch(ctx, &corev1.Secret{}, &Connection{}, …, connectionSecretFieldPath)",
            "`watcherIndexer.Watch(ctx, &corev1.Secret{}, &Connection{}, …`",
        ),
    ],
    ids=["whole", "at-an-argument", "at-the-length", "after-an-elided-argument"],
)
def test_long_constructs_are_shortened_at_an_argument_boundary_when_one_is_near(construct: str, quoted: str) -> None:
    assert shown(construct) == quoted


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        (
            {"call": "Pods", "construct": "Core().V1().Pods()", "text": "informers.WithNamespace", "flag": "--vpa"},
            "Set --vpa where it is deployed (informers.WithNamespace then scopes it to that namespace), or give the "
            "factory a label or field selector too (WithTweakListOptions), or, where it serves other kinds that must "
            "stay whole, take Pod from a factory of its own so built",
        ),
        (
            {
                "call": "podinformer.Get",
                "construct": "podinformer.Get(ctx)",
                "text": "injection.WithNamespaceScope",
                "flag": "--namespace",
                "injected": True,
            },
            "Set --namespace where it is deployed (injection.WithNamespaceScope then scopes every injected informer "
            "to that namespace), or take the informer from the package's filtered form (…/pod/filtered) with a label "
            "selector that main registers first with filteredFactory.WithSelectors (…/informers/factory/filtered)",
        ),
        (  # a helper's parameter, the setting one of its callers passes (kubernetes-ingress' --watch-namespace)
            {
                "call": "Secrets",
                "construct": "Core().V1().Secrets()",
                "text": "informers.WithNamespace",
                "flag": "--watch-namespace",
                "passed_by": "internal/k8s/controller.go:322",
            },
            "Set --watch-namespace where it is deployed (informers.WithNamespace then scopes it to that namespace), or "
            "give the factory a label or field selector too (WithTweakListOptions), or, where it serves other kinds "
            "that must stay whole, take Pod from a factory of its own so built",
        ),
        (  # a generated informer given the setting's namespace: the filtered form adds the selector
            {"call": "NewPodInformer", "construct": "NewPodInformer(cs, namespace, 0, nil)", "text": "namespace"}
            | {"flag": "--watch-namespace", "passed_by": "internal/kube/certificates/mgr.go:74"},
            "Set --watch-namespace where it is deployed (namespace then scopes it to that namespace), or use the "
            "NewFiltered… form of NewPodInformer with a label selector in tweakListOptions",
        ),
    ],
    ids=["informer-factory", "knative-injected-informer", "setting-a-caller-passes", "generated-informer"],
)
def test_an_informer_scoped_only_when_a_setting_is_given_is_helped_to_give_it(
    changes: dict[str, object], expected: str
) -> None:
    """`informers.WithNamespace(cf.Namespace)` with VPA's --vpa-object-namespace empty by default, knative's
    `injection.WithNamespaceScope(ctx, *namespace)`: the help names the setting first, then the narrowing the
    constructor takes, without naming the scope twice."""
    caller = changes.pop("passed_by", None)
    passed = f" ({caller} passes it)" if caller else ""
    off = Condition(f"{changes.pop('flag')} is set{passed}", OTHER_SPAN, False)
    scope = restriction(Mitigation.NAMESPACE, "Pod", text=changes.pop("text"), condition=off)
    site = watch("Pod", access=Access.INFORMER_FACTORY, restrictions=(scope,), policy_keys=(), **changes)
    finding = only(verdicts(site))
    assert isinstance(finding, Finding)
    assert finding.help == expected


@pytest.mark.parametrize(
    ("site", "expected"),
    [
        (
            watch("Pod", access=Access.CLIENTSET, call="Watch", construct="Watch(ctx, metav1.ListOptions{})"),
            "Set --osm-namespace where it is deployed (the watch then sees that namespace only), or set "
            "LabelSelector or FieldSelector in the metav1.ListOptions",
        ),
        (
            read(Operation.LIST, access=Access.CLIENTSET, kind="Pod", call="List", construct="List(ctx, opts)"),
            "Set --osm-namespace where it is deployed (the list then reads that namespace only), or pass a label or "
            "field selector",
        ),
    ],
    ids=["clientset-watch", "clientset-list"],
)
def test_a_clientset_call_scoped_only_when_a_setting_is_given_is_helped_to_give_it(site: Site, expected: str) -> None:
    """`Events(namespace).Watch(…)` or `Pods(namespace).List(…)` of a flag empty by default: the code already
    names the namespace, so the help says to set the flag rather than to scope the call."""
    off = Condition("--osm-namespace is set", OTHER_SPAN, False)
    scope = restriction(Mitigation.NAMESPACE, "Pod", text="namespace", condition=off)
    finding = only(verdicts(replace(site, restrictions=(scope,), policy_keys=())))
    assert isinstance(finding, Finding)
    assert finding.help == expected


@pytest.mark.parametrize(
    ("site", "expected"),
    [
        (
            watch("Pod", access=Access.INFORMER_FACTORY, call="Pods", construct="Core().V1().Pods()"),
            "Set --filter-informers where it is deployed (WithTweakListOptions's LabelSelector then narrows the "
            "informer), or apply that selector unconditionally",
        ),
        (
            watch("Pod", access=Access.CLIENTSET, call="Watch", construct="Watch(ctx, opts)"),
            "Set --filter-informers where it is deployed (WithTweakListOptions's LabelSelector then narrows the "
            "watch), or apply that selector unconditionally",
        ),
        (
            read(Operation.LIST, access=Access.CLIENTSET, kind="Pod", call="List", construct="List(ctx, opts)"),
            "Set --filter-informers where it is deployed (WithTweakListOptions's LabelSelector then narrows the "
            "list), or apply that selector unconditionally",
        ),
    ],
    ids=["informer-factory", "clientset-watch", "clientset-list"],
)
def test_a_selector_set_only_when_a_setting_is_given_is_helped_to_give_it(site: Site, expected: str) -> None:
    """OLM's factories take their label selector only where a setting turns filtering on: the code already
    sets a selector, so the help says to give the setting or drop the condition, not to add one."""
    off = Condition("--filter-informers is set", OTHER_SPAN, False)
    selector = restriction(Mitigation.SELECTOR, "Pod", text="WithTweakListOptions's LabelSelector", condition=off)
    finding = only(verdicts(replace(site, restrictions=(selector,), policy_keys=())))
    assert isinstance(finding, Finding)
    assert finding.help == expected


@pytest.mark.parametrize(
    ("site", "text", "expected"),
    [
        (
            watch("Secret", access=Access.INFORMER_FACTORY, call="Secrets", construct="Core().V1().Secrets()"),
            "k8sinformers.WithNamespace",
            "Give k8sinformers.WithNamespace a namespace where the default deployment leaves it empty (it applies "
            'only when `namespace` is not empty; pkg/k8s/main.go:189 passes ""), or give the factory a label or '
            "field selector too (WithTweakListOptions), or, where it serves other kinds that must stay whole, take "
            "Secret from a factory of its own so built",
        ),
        (
            watch("Secret", access=Access.CLIENTSET, call="Watch", construct="Watch(ctx, opts)"),
            "namespace",
            "Give `namespace` a value where the default deployment leaves it empty (it applies only when "
            '`namespace` is not empty; pkg/k8s/main.go:189 passes ""), or set LabelSelector or FieldSelector in '
            "the metav1.ListOptions",
        ),
        (
            read(Operation.LIST, access=Access.CLIENTSET, kind="Secret", call="List", construct="List(ctx, opts)"),
            "namespace",
            "Give `namespace` a value where the default deployment leaves it empty (it applies only when "
            '`namespace` is not empty; pkg/k8s/main.go:189 passes ""), or pass a label or field selector',
        ),
    ],
    ids=["informer-factory", "clientset-watch", "clientset-list"],
)
def test_a_scope_empty_by_default_that_no_setting_names_is_helped_to_fill(site: Site, text: str, expected: str) -> None:
    """haproxy's factory takes `WithNamespace(namespace)` of a caller looping over `[]string{""}` when no
    namespace is listed: the code scopes it already, so the help says to give that scope a namespace rather than
    to add WithNamespace."""
    off = Condition('`namespace` is not empty (pkg/k8s/main.go:189 passes "")', OTHER_SPAN, False)
    scope = restriction(Mitigation.NAMESPACE, "Secret", text=text, condition=off)
    finding = only(verdicts(replace(site, restrictions=(scope,), policy_keys=())))
    assert isinstance(finding, Finding)
    assert finding.help == expected
