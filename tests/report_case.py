"""A fixed report built from hand-made Facts over tests/fixtures/report/, shared by the reporter golden tests."""

from __future__ import annotations

from pathlib import Path

from watchlint.catalog import Catalog, KindIndex
from watchlint.config import CommandLine, resolve_settings
from watchlint.engine import Report, evaluate, make_report
from watchlint.facts import (
    Access,
    CachePolicy,
    Comment,
    Evidence,
    Facts,
    Language,
    Mitigation,
    Notification,
    NotificationLevel,
    ObjectForm,
    Operation,
    Restriction,
    Site,
)
from watchlint.source import Span

CASE = Path(__file__).parent / "fixtures" / "report"
CONTROLLER = "internal/controller/app_controller.go"
HANDLERS = "operator/handlers.py"


def _go_facts() -> Facts:
    manager = Span("cmd/main.go", 10, 19, 10, 29)
    policy = CachePolicy(key="cmd", label="binary cmd", origins=(manager,), restrictions=())

    def site(operation: Operation, kind: str, span: Span, call: str, construct: str, **extra: object) -> Site:
        return Site(
            operation=operation,
            access=Access.CACHE,
            kind=kind,
            form=ObjectForm.TYPED,
            span=span,
            call=call,
            construct=construct,
            enclosing="AppReconciler",
            policy_keys=("cmd",),
            **extra,  # type: ignore[arg-type]
        )

    client = Evidence(Span("cmd/main.go", 14, 33, 14, 48), "AppReconciler.Client is mgr.GetClient()")
    sites = (
        site(
            Operation.GET,
            "ConfigMap",
            Span(CONTROLLER, 21, 14, 21, 17),
            "r.Get",
            "r.Get(ctx, req.NamespacedName, &cm)",
            access_evidence=client,
        ),
        site(
            Operation.LIST,
            "Pod",
            Span(CONTROLLER, 26, 14, 26, 18),
            "r.List",
            "r.List(ctx, &pods, client.InNamespace(req.Namespace))",
            access_evidence=client,
        ),
        site(Operation.WATCH, "Pod", Span(CONTROLLER, 35, 3, 35, 7), "Owns", "Owns(&corev1.Pod{})"),
        site(
            Operation.WATCH,
            "Secret",
            Span(CONTROLLER, 36, 3, 36, 10),
            "Watches",
            "Watches(&corev1.Secret{}, …)",
            filters=(Evidence(Span(CONTROLLER, 37, 4, 37, 27), "builder.WithPredicates"),),
        ),
    )
    ignore = Comment(
        Span(CONTROLLER, 25, 2, 25, 81),
        "//watchlint:ignore WL002 -- the pod informer is shared with the Owns watch below",
        is_own_line=True,
    )
    return Facts(
        language=Language.GO,
        root=".",
        files=("cmd/main.go", CONTROLLER),
        sites=sites,
        policies=(policy,),
        comments=(ignore,),
    )


def _python_facts() -> Facts:
    kopf = Site(
        operation=Operation.WATCH,
        access=Access.KOPF,
        kind="ConfigMap",
        form=ObjectForm.TYPED,
        span=Span(HANDLERS, 5, 1, 5, 39),
        call="@kopf.on.event",
        construct='@kopf.on.event("", "v1", "configmaps")',
        enclosing="on_configmap",
        policy_keys=("kopf",),
    )
    listing = Site(
        operation=Operation.LIST,
        access=Access.DIRECT_CLIENT,
        kind="Secret",
        form=ObjectForm.TYPED,
        span=Span(HANDLERS, 13, 22, 13, 52),
        call="core.list_secret_for_all_namespaces",
        construct="core.list_secret_for_all_namespaces()",
        enclosing="sweep",
    )
    selected = Site(
        operation=Operation.LIST,
        access=Access.DIRECT_CLIENT,
        kind="ConfigMap",
        form=ObjectForm.TYPED,
        span=Span(HANDLERS, 15, 10, 15, 44),
        call="core.list_config_map_for_all_namespaces",
        construct='core.list_config_map_for_all_namespaces(label_selector="app=widget")',
        enclosing="sweep",
        restrictions=(
            Restriction(
                Mitigation.SELECTOR, "ConfigMap", Span(HANDLERS, 15, 45, 15, 72), 'label_selector="app=widget"'
            ),
        ),
    )
    noqa = Comment(Span(HANDLERS, 13, 63, 13, 77), "# noqa: WL004", is_own_line=False)
    return Facts(
        language=Language.PYTHON,
        root="operator",
        files=(HANDLERS,),
        sites=(kopf, listing, selected),
        policies=(CachePolicy(key="kopf", label="kopf operator", origins=(), restrictions=()),),
        comments=(noqa,),
        notifications=(
            Notification("operator/legacy.py", "syntax error at line 3; file skipped", NotificationLevel.ERROR, line=3),
        ),
    )


def build_report(catalog: Catalog) -> Report:
    """Run the real checks and suppressions on the hand-made facts; paths are relative to CASE."""
    settings = resolve_settings(None, CommandLine(), catalog)
    kinds = KindIndex.build(catalog.kinds).names
    outcomes = [evaluate(facts, settings, kinds, frozenset(facts.files)) for facts in (_go_facts(), _python_facts())]
    return make_report(
        (finding for outcome in outcomes for finding in outcome.findings),
        (item for outcome in outcomes for item in outcome.mitigated),
        (note for outcome in outcomes for note in outcome.notifications),
        sum(outcome.files_analyzed for outcome in outcomes),
    )
