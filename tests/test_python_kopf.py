"""The kopf part of the Python front-end: handler sites and the project's namespace policy, as Facts."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from watchlint import python
from watchlint.catalog import Catalog, KindIndex
from watchlint.config import FrontEndOptions
from watchlint.facts import Access, Evidence, Facts, Mitigation, ObjectForm, Operation, Site
from watchlint.frontend import UnitInput
from watchlint.python.kopf import CONFIG_SCOPE, POLICY_KEY
from watchlint.source import Span, decode_source


def extract(catalog: Catalog, files: dict[str, str], *, kopf_namespaced: bool = False) -> Facts:
    sources = tuple(
        decode_source(textwrap.dedent(text).lstrip("\n").encode(), path) for path, text in sorted(files.items())
    )
    unit = UnitInput(Path("."), ".", sources, KindIndex.build(catalog.kinds), FrontEndOptions(kopf_namespaced))
    return python.extract(unit)


def only_site(facts: Facts) -> Site:
    (site,) = facts.sites
    return site


def test_decorator_is_a_watch_site_on_its_first_line(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "handlers.py": """
                import kopf


                @kopf.on.event("", "v1", "secrets")
                def on_secret(event, **_):
                    pass
            """
        },
    )
    assert only_site(facts) == Site(
        operation=Operation.WATCH,
        access=Access.KOPF,
        kind="Secret",
        form=ObjectForm.TYPED,
        span=Span("handlers.py", 4, 1, 4, 36),
        call="@kopf.on.event",
        construct='@kopf.on.event("", "v1", "secrets")',
        enclosing="on_secret",
        policy_keys=(POLICY_KEY,),
        suggestion=(
            "Start the operator with `kopf run --namespace=<namespace> …` (-n, once per namespace) rather than "
            "--all-namespaces/-A, and set kopf-namespaced = true in the watchlint config, which cannot see the "
            "command line"
        ),
    )
    (policy,) = facts.policies
    assert (policy.key, policy.label, policy.origins, policy.restrictions) == (POLICY_KEY, "kopf operator .", (), ())


@pytest.mark.parametrize(
    ("arguments", "kind"),
    [
        ('"secrets"', "Secret"),
        ('"secret"', "Secret"),
        ('"cm"', "ConfigMap"),
        ('"po"', "Pod"),
        ('"v1", "pods"', "Pod"),
        ('"", "v1", "configmaps"', "ConfigMap"),
        ('kind="Secret"', "Secret"),
        ('group="", version="v1", plural="endpoints"', "Endpoints"),
        ('"pods.v1"', "Pod"),
        ('"jobs.batch"', "Job"),
        ('"jobs.v1.batch"', "Job"),
        ('"batch/v1", "jobs"', "Job"),
        ('"batch", "v1", "jobs"', "Job"),
        ('"events.k8s.io", "v1", "events"', "Event"),
        ('"discovery.k8s.io", "v1", "endpointslices"', "EndpointSlice"),
        ('"metrics.k8s.io", "v1beta1", "pods"', None),
        ('"deployments"', None),
        ('"bookstores.shop.example.com"', None),
        ("kopf.EVERYTHING", None),
        ("lambda resource: True", None),
        ("RESOURCE_FROM_ELSEWHERE", None),
    ],
)
def test_resource_spellings(catalog: Catalog, arguments: str, kind: str | None) -> None:
    facts = extract(catalog, {"h.py": f"import kopf\n\n@kopf.on.create({arguments})\ndef h(**_): ...\n"})
    assert [site.kind for site in facts.sites] == ([kind] if kind else [])


def test_resource_through_module_constants(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "h.py": """
                import kopf

                PLURAL = "secrets"
                CORE_PODS = ("", "v1", "pods")


                @kopf.on.event(PLURAL)
                def a(**_): ...


                @kopf.on.event(*CORE_PODS)
                def b(**_): ...
            """
        },
    )
    assert [(site.kind, site.span.line) for site in facts.sites] == [("Secret", 7), ("Pod", 11)]


@pytest.mark.parametrize(
    ("imports", "decorator"),
    [
        ("import kopf as k", "k.on.update"),
        ("from kopf import on", "on.update"),
        ("from kopf.on import update", "update"),
        ("from kopf.on import update as on_update", "on_update"),
        ("import kopf", "kopf.on.update"),
    ],
)
def test_aliases_resolve_through_libcst(catalog: Catalog, imports: str, decorator: str) -> None:
    facts = extract(catalog, {"h.py": f'{imports}\n\n@{decorator}("secrets")\ndef h(**_): ...\n'})
    site = only_site(facts)
    assert (site.kind, site.call) == ("Secret", f"@{decorator}")


def test_lookalike_decorators_are_not_kopf(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "h.py": """
                import kopf
                from events import on


                @on.event("secrets")
                def bus_listener(**_): ...


                @kopf.on.validate("secrets")
                def admission(**_): ...


                def post():
                    kopf.event([], type="Normal", reason="Done", message="secrets")
            """
        },
    )
    assert facts.sites == ()


@pytest.mark.parametrize(
    ("handler", "filters"),
    [
        ('kopf.on.create("pods", labels={"app": "shop"})', ['`labels={"app": "shop"}`']),
        ('kopf.on.create("pods", annotations={"a": kopf.PRESENT})', ['`annotations={"a": kopf.PRESENT}`']),
        ('kopf.on.create("pods", when=lambda **_: True)', ["`when=lambda **_: True`"]),
        ('kopf.on.create("pods", field="spec.x", value="y")', ['`value="y"`']),
        ('kopf.on.update("pods", field="spec.x")', []),
        ('kopf.on.update("pods", field="spec.x", old="a", new="b")', ['`old="a"`', '`new="b"`']),
        ('kopf.on.field("pods", field="status.phase")', []),
        ('kopf.on.field("pods", field="status.phase", new="Failed")', ['`new="Failed"`']),
        ('kopf.on.create("pods", labels=None, when=None)', []),
    ],
)
def test_filters_are_evidence(catalog: Catalog, handler: str, filters: list[str]) -> None:
    facts = extract(catalog, {"h.py": f"import kopf\n\n@{handler}\ndef h(**_): ...\n"})
    assert [item.message for item in only_site(facts).filters] == filters


def test_filter_evidence_spans_the_argument_without_its_comma(catalog: Catalog) -> None:
    facts = extract(
        catalog, {"h.py": 'import kopf\n\n@kopf.on.create("pods", labels={"a": "b"}, id="x")\ndef h(**_): ...\n'}
    )
    assert only_site(facts).filters == (Evidence(Span("h.py", 3, 25, 3, 42), '`labels={"a": "b"}`'),)


def test_stacked_and_multi_line_decorators(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "h.py": """
                import kopf


                @kopf.on.resume("pods")
                @kopf.on.create(
                    "pods",
                    labels={"app": "shop"},
                )
                def h(**_): ...
            """
        },
    )
    first, second = facts.sites
    assert (first.span, first.filters) == (Span("h.py", 4, 1, 4, 24), ())
    assert second.span == Span("h.py", 5, 1, 5, 17)
    assert second.construct == '@kopf.on.create("pods", labels={"app": "shop"})'
    assert [item.message for item in second.filters] == ['`labels={"app": "shop"}`']


def test_function_call_registration_lands_on_the_decorator_name(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "h.py": """
                import kopf


                def log(**_): ...


                def register(registry):
                    kopf.on.event("secrets", registry=registry)(log)
                    kopf.index("pods")(log)
            """
        },
    )
    event, index = facts.sites
    assert (event.kind, event.span, event.call, event.enclosing) == (
        "Secret",
        Span("h.py", 8, 13, 8, 18),
        "kopf.on.event",
        "log",
    )
    assert (index.kind, index.span.line, index.span.column, index.call) == ("Pod", 9, 10, "kopf.index")


@pytest.mark.parametrize(
    ("runner", "text"),
    [
        ('kopf.run(namespaces=["shop"])', '`kopf.run(namespaces=["shop"])`'),
        ("kopf.run(namespaces=NAMESPACES)", "`kopf.run(namespaces=NAMESPACES)`"),
        ('kopf.operator(namespaces=["a", "b"], clusterwide=False)', '`kopf.operator(namespaces=["a", "b"])`'),
        ('kopf.spawn_tasks(namespace="shop")', '`kopf.spawn_tasks(namespace="shop")`'),
        ('kopf.run(namespaces=["team-*"])', '`kopf.run(namespaces=["team-*"])`'),
    ],
)
def test_namespace_scope_in_code(catalog: Catalog, runner: str, text: str) -> None:
    facts = extract(catalog, {"h.py": f'import kopf\n\n@kopf.on.event("pods")\ndef h(**_): ...\n\n{runner}\n'})
    (policy,) = facts.policies
    (restriction,) = policy.restrictions
    assert (restriction.mitigation, restriction.kind, restriction.text) == (Mitigation.OPERATOR_NAMESPACES, None, text)
    assert (restriction.span.line, restriction.is_active) == (6, True)
    assert [origin.line for origin in policy.origins] == [6]


@pytest.mark.parametrize(
    "runner",
    [
        "kopf.run(clusterwide=True)",
        "kopf.run()",
        "kopf.operator(namespaces=[])",
        'kopf.run(namespaces=["*"])',
        'kopf.run(namespaces=["!kube-system"])',
        "kopf.run(namespaces=None, clusterwide=True)",
    ],
)
def test_cluster_wide_runners_restrict_nothing(catalog: Catalog, runner: str) -> None:
    facts = extract(catalog, {"h.py": f'import kopf\n\n@kopf.on.event("pods")\ndef h(**_): ...\n\n{runner}\n'})
    (policy,) = facts.policies
    assert (policy.restrictions, [origin.line for origin in policy.origins]) == ((), [6])


def test_scope_in_another_file_of_the_project(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "op/handlers.py": 'import kopf\n\n@kopf.on.event("pods")\ndef h(**_): ...\n',
            "op/__main__.py": 'import kopf\n\nkopf.run(namespaces=["shop"])\n',
        },
    )
    (policy,) = facts.policies
    assert [r.span.path for r in policy.restrictions] == ["op/__main__.py"]
    assert only_site(facts).policy_keys == (policy.key,)


def test_unreadable_keyword_arguments_count_as_a_scope(catalog: Catalog) -> None:
    facts = extract(
        catalog, {"h.py": 'import kopf\n\n@kopf.on.event("pods")\ndef h(**_): ...\n\nkopf.run(**options)\n'}
    )
    (restriction,) = facts.policies[0].restrictions
    assert (restriction.mitigation, restriction.text) == (
        Mitigation.UNRESOLVED,
        "`kopf.run(**options)` may set namespaces",
    )


def test_scope_from_an_environment_variable_is_off_by_default(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "main.py": """
                import os

                import kopf


                @kopf.on.event("secrets")
                def h(**_): ...


                namespace = os.getenv("WATCH_NAMESPACE")
                if namespace:
                    kopf.run(namespaces=[namespace])
                else:
                    kopf.run(clusterwide=True)
            """
        },
    )
    (restriction,) = facts.policies[0].restrictions
    assert restriction.condition is not None
    assert (restriction.condition.text, restriction.condition.holds_by_default) == (
        "WATCH_NAMESPACE is non-empty",
        False,
    )
    assert restriction.condition.span.line == 11
    assert restriction.is_active is False


@pytest.mark.parametrize(
    ("default", "holds"),
    [('os.environ.get("NS", "shop")', True), ('os.environ.get("NS", "")', False), ("settings.namespace", None)],
)
def test_conditional_scope_value(catalog: Catalog, default: str, holds: bool | None) -> None:
    code = f"import os\nimport kopf\n\nNS = {default}\n\nkopf.run(namespaces=[NS] if NS else None)\n"
    facts = extract(catalog, {"main.py": code})
    (restriction,) = facts.policies[0].restrictions
    assert restriction.condition is not None
    assert restriction.condition.holds_by_default is holds


def test_config_key_scopes_the_project_at_its_first_handler(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {"a.py": 'import kopf\n\n@kopf.on.event("pods")\ndef h(**_): ...\n'},
        kopf_namespaced=True,
    )
    (restriction,) = facts.policies[0].restrictions
    assert (restriction.mitigation, restriction.text) == (Mitigation.OPERATOR_NAMESPACES, CONFIG_SCOPE)
    assert restriction.span == only_site(facts).span


def test_handler_defined_only_when_a_variable_is_set(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "h.py": """
                import os

                import kopf

                if os.environ.get("MIRROR"):

                    @kopf.on.event("secrets")
                    def mirror(**_): ...
            """
        },
    )
    condition = only_site(facts).condition
    assert condition is not None
    assert (condition.text, condition.holds_by_default) == ("MIRROR is non-empty", False)


def test_no_kopf_no_policy(catalog: Catalog) -> None:
    facts = extract(catalog, {"a.py": "import kubernetes\n"})
    assert (facts.sites, facts.policies, facts.files) == ((), (), ("a.py",))


def test_a_handler_registered_in_a_loop_is_a_site_for_each_resource_of_the_literal(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "handlers.py": """
                import kopf

                for plural in ("pods", "configmaps"):
                    kopf.on.event("", "v1", plural)(print)

                plural = "secrets"
            """
        },
    )
    assert [(site.kind, site.span.line) for site in facts.sites] == [("Pod", 4), ("ConfigMap", 4)]
