"""The client part of the Python front-end: kubernetes(_asyncio), dynamic client, informer, lightkube, kr8s."""

from __future__ import annotations

import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from watchlint import python
from watchlint.catalog import Catalog, KindIndex
from watchlint.facts import Access, Evidence, Facts, Mitigation, ObjectForm, Operation, Restriction, Site
from watchlint.frontend import UnitInput
from watchlint.source import Span, decode_source


def extract(catalog: Catalog, files: dict[str, str]) -> Facts:
    sources = tuple(
        decode_source(textwrap.dedent(text).lstrip("\n").encode(), path) for path, text in sorted(files.items())
    )
    return python.extract(UnitInput(Path("."), ".", sources, KindIndex.build(catalog.kinds)))


def summary(facts: Facts) -> list[tuple[int, Operation, str, tuple[Mitigation, ...]]]:
    """Line, operation, kind and restriction kinds of every site: enough to tell the verdict."""
    return [
        (site.span.line, site.operation, site.kind, tuple(r.mitigation for r in site.restrictions))
        for site in facts.sites
    ]


def test_list_site_fields(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "inventory.py": """
                from kubernetes import client


                class Inventory:
                    def __init__(self):
                        self.core = client.CoreV1Api()

                    def secrets(self):
                        return self.core.list_secret_for_all_namespaces(timeout_seconds=10)
            """
        },
    )
    assert facts.sites == (
        Site(
            operation=Operation.LIST,
            access=Access.DIRECT_CLIENT,
            kind="Secret",
            form=ObjectForm.TYPED,
            span=Span("inventory.py", 9, 26, 9, 56),
            call="self.core.list_secret_for_all_namespaces",
            construct="self.core.list_secret_for_all_namespaces(timeout_seconds=10)",
            enclosing="Inventory.secrets",
            suggestion=(
                "Pass label_selector= or field_selector=, or list one namespace with "
                "list_namespaced_secret(<namespace>, …)"
            ),
        ),
    )
    assert facts.policies == ()


def test_selector_and_namespace_restrictions(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "a.py": """
                from kubernetes import client as k8s

                core = k8s.CoreV1Api()
                core.list_pod_for_all_namespaces(label_selector="app=shop", limit=5)
                core.list_namespaced_pod("shop")
                core.list_pod_for_all_namespaces(label_selector=None, field_selector="")
            """
        },
    )
    labelled, namespaced, empty = facts.sites
    assert labelled.restrictions == (
        Restriction(Mitigation.SELECTOR, "Pod", Span("a.py", 4, 34, 4, 59), '`label_selector="app=shop"`'),
        Restriction(Mitigation.ONE_PAGE, "Pod", Span("a.py", 4, 61, 4, 68), "`limit=5`: one page, no continue token"),
    )
    assert namespaced.restrictions == (
        Restriction(Mitigation.NAMESPACE, "Pod", Span("a.py", 5, 26, 5, 32), '`namespace="shop"`'),
    )
    assert empty.restrictions == ()


def test_lightkube_label_operators_are_read_as_the_terms_they_send(catalog: Catalog) -> None:
    """`not_equal`, `not_in` and `not_exists` send the excluding terms a string would: only excludes; `in_` and a
    plain value select."""
    facts = extract(
        catalog,
        {
            "a.py": """
                from lightkube import ALL_NS, Client
                from lightkube.operators import in_, not_equal, not_exists, not_in
                from lightkube.resources.core_v1 import Secret

                Client().list(Secret, namespace=ALL_NS, labels={"owner": not_equal("helm"), "tier": not_in(["a", "b"])})
                Client().list(Secret, namespace=ALL_NS, labels={"ephemeral": not_exists()})
                Client().list(Secret, namespace=ALL_NS, labels={"owner": not_equal("helm"), "app": in_(["shop"])})
            """
        },
    )
    details = [[(r.mitigation, r.is_effective, r.detail) for r in site.restrictions] for site in facts.sites]
    assert details == [
        [(Mitigation.SELECTOR, False, "excludes only owner!=helm,tier notin (a, b)")],
        [(Mitigation.SELECTOR, False, "excludes only !ephemeral")],
        [(Mitigation.SELECTOR, True, "")],
    ]


@pytest.mark.parametrize(
    ("arguments", "mitigations"),
    [
        ("**{'limit': 5}", ()),
        ("**{'label_selector': 'a=b'}", (Mitigation.SELECTOR,)),
        ("**dict(field_selector='a=b')", (Mitigation.SELECTOR,)),
        ("**options", (Mitigation.UNRESOLVED,)),
        ("**{'label_selector': None}", ()),
    ],
)
def test_keyword_dictionaries(catalog: Catalog, arguments: str, mitigations: tuple[Mitigation, ...]) -> None:
    code = f"from kubernetes import client\n\nclient.CoreV1Api().list_job_for_all_namespaces({arguments})\n"
    assert summary(extract(catalog, {"a.py": code})) == [(3, Operation.LIST, "Job", mitigations)]


ONE_PAGE_HEADER = """\
from kubernetes import client

PROBE = 1
NO_LIMIT = None
core = client.CoreV1Api()


def probe(token, size=None, pages=500):
    core.list_pod_for_all_namespaces(limit=1)
    return core.list_pod_for_all_namespaces({})
"""


@pytest.mark.parametrize(
    ("arguments", "operation", "mitigations"),
    [
        ("limit=1, _continue=None", Operation.LIST, (Mitigation.ONE_PAGE,)),
        ("_continue=None, limit=500, timeout_seconds=5", Operation.LIST, (Mitigation.ONE_PAGE,)),
        ("limit=PROBE", Operation.LIST, (Mitigation.ONE_PAGE,)),
        ("limit=pages", Operation.LIST, (Mitigation.ONE_PAGE,)),
        ("limit=500, _continue=token", Operation.LIST, ()),
        ("limit=1, _continue=''", Operation.LIST, ()),
        ("limit=0", Operation.LIST, ()),
        ("limit=None", Operation.LIST, ()),
        ("limit=NO_LIMIT", Operation.LIST, ()),
        ("limit=size", Operation.LIST, ()),
        ("limit=int(token)", Operation.LIST, ()),
        ("_continue=None", Operation.LIST, ()),
        ("limit=1, **{'_continue': token}", Operation.LIST, ()),
        ("limit=1, watch=True", Operation.WATCH, ()),
    ],
)
def test_one_page_lists(
    catalog: Catalog, arguments: str, operation: Operation, mitigations: tuple[Mitigation, ...]
) -> None:
    """A list that reads one page of `limit` objects and asks for no other (line 9) is no list of every
    object; a continue token pages through all of them, and `limit=0`/`None` asks for all at once."""
    facts = extract(catalog, {"a.py": ONE_PAGE_HEADER.format(arguments)})
    assert summary(facts) == [(9, Operation.LIST, "Pod", (Mitigation.ONE_PAGE,)), (10, operation, "Pod", mitigations)]


def test_one_page_restriction_points_at_the_limit(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "count.py": """
                from kubernetes_asyncio import client


                async def count_pods(core: client.CoreV1Api) -> int:
                    listed = await core.list_pod_for_all_namespaces(limit=1, _continue=None)
                    return len(listed.items) + (listed.metadata.remaining_item_count or 0)
            """
        },
    )
    (site,) = facts.sites
    assert site.restrictions == (
        Restriction(
            Mitigation.ONE_PAGE, "Pod", Span("count.py", 5, 53, 5, 60), "`limit=1`: one page, no continue token"
        ),
    )


def test_one_page_through_the_dynamic_client_and_custom_objects(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "d.py": """
                from kubernetes import client, dynamic

                dyn = dynamic.DynamicClient(client.ApiClient())
                secrets = dyn.resources.get(api_version="v1", kind="Secret")
                secrets.get(limit=1)
                dyn.get(secrets, limit=1, _continue=None)
                secrets.get(limit=100, _continue=secrets.get(limit=100).metadata._continue)
                secrets.watch(limit=1)
                client.CustomObjectsApi().list_cluster_custom_object("batch", "v1", "jobs", limit=1)
            """
        },
    )
    assert summary(facts) == [
        (5, Operation.LIST, "Secret", (Mitigation.ONE_PAGE,)),
        (6, Operation.LIST, "Secret", (Mitigation.ONE_PAGE,)),
        (7, Operation.LIST, "Secret", ()),
        (7, Operation.LIST, "Secret", (Mitigation.ONE_PAGE,)),
        (8, Operation.WATCH, "Secret", ()),
        (9, Operation.LIST, "Job", (Mitigation.ONE_PAGE,)),
    ]


@pytest.mark.parametrize(
    ("method", "kind"),
    [
        ("list_config_map_for_all_namespaces", "ConfigMap"),
        ("list_endpoint_slice_for_all_namespaces", "EndpointSlice"),
        ("list_replica_set_for_all_namespaces", "ReplicaSet"),
        ("list_service_account_for_all_namespaces", "ServiceAccount"),
        ("list_endpoints_for_all_namespaces", "Endpoints"),
        ("list_event_for_all_namespaces", "Event"),
        ("list_pod_template_for_all_namespaces", None),
        ("list_deployment_for_all_namespaces", None),
        ("list_node", None),
        ("read_namespaced_secret", None),
    ],
)
def test_method_fragments_match_whole(catalog: Catalog, method: str, kind: str | None) -> None:
    facts = extract(catalog, {"a.py": f"import kubernetes\n\napi.{method}()\n"})
    assert [site.kind for site in facts.sites] == ([kind] if kind else [])


def test_api_object_through_helpers_and_aliases(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "a.py": """
                import kubernetes.client
                from kubernetes_asyncio import client as aio


                def core():
                    return kubernetes.client.CoreV1Api()


                async def run(api: aio.CoreV1Api):
                    core().list_pod_for_all_namespaces()
                    await api.list_secret_for_all_namespaces()
                    alias = api
                    await alias.list_config_map_for_all_namespaces()
            """
        },
    )
    assert [(site.span.line, site.kind) for site in facts.sites] == [(10, "Pod"), (11, "Secret"), (13, "ConfigMap")]


def test_project_functions_with_client_names_need_a_known_receiver(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "fake.py": """
                class Repository:
                    def list_secret_for_all_namespaces(self):
                        return []


                def list_pod_for_all_namespaces():
                    return []
            """,
            "use.py": """
                from kubernetes import client
                from fake import Repository, list_pod_for_all_namespaces


                def f(repository, api: client.CoreV1Api):
                    list_pod_for_all_namespaces()
                    Repository().list_secret_for_all_namespaces()
                    repository.list_secret_for_all_namespaces()
                    api.list_secret_for_all_namespaces()
                    client.CoreV1Api().list_pod_for_all_namespaces()
            """,
        },
    )
    assert [(site.span.path, site.span.line) for site in facts.sites] == [("use.py", 9), ("use.py", 10)]


def test_a_client_from_a_project_factory_is_no_project_object(catalog: Catalog) -> None:
    """prefect-kubernetes wraps the client's method in a task of the same name, and calls the client it
    gets from a context manager of its own: that call is the client's."""
    facts = extract(
        catalog,
        {
            "tasks.py": """
                from contextlib import contextmanager

                from kubernetes import client


                @contextmanager
                def get_client():
                    yield client.CoreV1Api()


                def list_config_map_for_all_namespaces():
                    with get_client() as core:
                        return core.list_config_map_for_all_namespaces()
            """,
        },
    )
    assert [(site.span.path, site.span.line, site.kind) for site in facts.sites] == [("tasks.py", 13, "ConfigMap")]


def test_a_wrapper_object_the_project_sets_at_start_up_is_the_projects(catalog: Catalog) -> None:
    """KubiScan calls its own wrapper class, whose method is named after the client's, on the object a getter
    returns or a class attribute holds, both filled at start-up: those calls are the wrapper's (its own call of
    the client is the site). A project function returning a kubernetes client still hands out the client."""
    facts = extract(
        catalog,
        {
            "wrapper.py": """
                from kubernetes import client


                class ApiClient:
                    def __init__(self):
                        self.core = client.CoreV1Api()

                    def list_pod_for_all_namespaces(self, watch):
                        return self.core.list_pod_for_all_namespaces(watch=watch)


                def core_api():
                    return client.CoreV1Api()
            """,
            "settings.py": """
                class Settings:
                    api_client = None


                def set_api_client(api_client):
                    Settings.api_client = api_client


                def get_api_client():
                    return Settings.api_client
            """,
            "use.py": """
                from settings import Settings, get_api_client
                from wrapper import core_api


                def pods():
                    get_api_client().list_pod_for_all_namespaces(watch=False)
                    api_client = get_api_client()
                    api_client.list_pod_for_all_namespaces(watch=False)
                    Settings.api_client.list_pod_for_all_namespaces(watch=False)
                    core_api().list_pod_for_all_namespaces()
                    core = core_api()
                    core.list_pod_for_all_namespaces()
            """,
        },
    )
    assert [(site.span.path, site.span.line) for site in facts.sites] == [
        ("use.py", 10),
        ("use.py", 12),
        ("wrapper.py", 9),
    ]


def test_watch_stream_lands_on_stream(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "w.py": """
                from kubernetes import client, watch

                v1 = client.CoreV1Api()
                for event in watch.Watch().stream(v1.list_pod_for_all_namespaces, timeout_seconds=10):
                    print(event)
            """
        },
    )
    (site,) = facts.sites
    assert (site.operation, site.kind, site.span, site.call, site.filters) == (
        Operation.WATCH,
        "Pod",
        Span("w.py", 4, 28, 4, 34),
        "watch.Watch().stream",
        (),
    )


@pytest.mark.parametrize(
    ("arguments", "mitigations"),
    [
        ("v1.list_secret_for_all_namespaces", ()),
        ("v1.list_secret_for_all_namespaces, label_selector='a=b'", (Mitigation.SELECTOR,)),
        ("v1.list_namespaced_secret, 'shop'", (Mitigation.NAMESPACE,)),
        ("v1.list_namespaced_secret, namespace=ns", (Mitigation.NAMESPACE,)),
        ("functools.partial(v1.list_namespaced_secret, 'shop')", (Mitigation.NAMESPACE,)),
        ("func=v1.list_secret_for_all_namespaces", ()),
        ("listing", ()),
    ],
)
def test_watch_stream_arguments(catalog: Catalog, arguments: str, mitigations: tuple[Mitigation, ...]) -> None:
    code = (
        "import functools\nfrom kubernetes import client, watch\n\nv1 = client.CoreV1Api()\n"
        "listing = v1.list_secret_for_all_namespaces\n"
        f"stream = watch.Watch().stream({arguments})\n"
    )
    assert summary(extract(catalog, {"w.py": code})) == [(6, Operation.WATCH, "Secret", mitigations)]


def test_loop_label_filters_are_evidence(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "w.py": """
                from kubernetes_asyncio import client, watch


                async def run():
                    v1 = client.CoreV1Api()
                    async with watch.Watch().stream(v1.list_secret_for_all_namespaces) as stream:
                        async for event in stream:
                            if event["type"] == "ADDED":
                                pass
                            if event["object"].metadata.labels.get("app") != "shop":
                                continue
            """
        },
    )
    (site,) = facts.sites
    message = '`if event["object"].metadata.labels.get("app") != "shop"`'
    assert site.filters == (Evidence(Span("w.py", 10, 16, 10, 68), message),)


def test_loop_filter_in_a_method_the_loop_calls(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "w.py": """
                from kubernetes import client, watch


                class Reflector:
                    def run(self):
                        events = watch.Watch().stream(client.CoreV1Api().list_config_map_for_all_namespaces)
                        for event in events:
                            self.handle(event)

                    def handle(self, event):
                        if "shop.example.com/catalog" in (event["object"].metadata.annotations or {}):
                            print(event)
            """
        },
    )
    (site,) = facts.sites
    assert [item.span.line for item in site.filters] == [11]


def test_shared_informer(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "i.py": """
                from kubernetes import client
                from kubernetes.informer import SharedInformer

                v1 = client.CoreV1Api()
                SharedInformer(v1.list_config_map_for_all_namespaces)
                SharedInformer(list_func=v1.list_secret_for_all_namespaces, label_selector="a=b")
                SharedInformer(v1.list_namespaced_pod, "shop")
                SharedInformer(v1.list_node)
            """
        },
    )
    assert summary(facts) == [
        (5, Operation.WATCH, "ConfigMap", ()),
        (6, Operation.WATCH, "Secret", (Mitigation.SELECTOR,)),
        (7, Operation.WATCH, "Pod", (Mitigation.NAMESPACE,)),
    ]
    assert facts.sites[0].span == Span("i.py", 5, 1, 5, 15)


def test_dynamic_client(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "d.py": """
                from kubernetes import dynamic
                from kubernetes.client import api_client

                dyn = dynamic.DynamicClient(api_client.ApiClient())
                secrets = dyn.resources.get(api_version="v1", kind="Secret")
                secrets.get()
                secrets.get(namespace="shop")
                secrets.get("one", "shop")
                secrets.watch()
                secrets.watch("shop")
                dyn.get(secrets, label_selector="a=b")
                dyn.resources.get(api_version="events.k8s.io/v1", kind="Event").watch()
                dyn.resources.get(api_version="metrics.k8s.io/v1beta1", kind="Pod").get()
                dyn.resources.get(api_version="apps/v1", kind="Deployment").get()
            """
        },
    )
    assert summary(facts) == [
        (6, Operation.LIST, "Secret", ()),
        (7, Operation.LIST, "Secret", (Mitigation.NAMESPACE,)),
        (9, Operation.WATCH, "Secret", ()),
        (10, Operation.WATCH, "Secret", (Mitigation.NAMESPACE,)),
        (11, Operation.LIST, "Secret", (Mitigation.SELECTOR,)),
        (12, Operation.WATCH, "Event", ()),
    ]


def test_lightkube(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "l.py": """
                import lightkube
                from lightkube import ALL_NS, Client
                from lightkube.resources.core_v1 import Node, Secret
                from lightkube.models.core_v1 import Pod

                kube = Client()
                kube.list(Secret, namespace=ALL_NS)
                kube.watch(Secret, namespace="*")
                kube.list(Secret, namespace=lightkube.ALL_NS, fields={"type": "kubernetes.io/tls"})
                kube.list(Secret)
                kube.list(Secret, namespace="shop")
                kube.list(Node)
                kube.list(Pod, namespace=ALL_NS)
            """
        },
    )
    assert summary(facts) == [
        (7, Operation.LIST, "Secret", ()),
        (8, Operation.WATCH, "Secret", ()),
        (9, Operation.LIST, "Secret", (Mitigation.SELECTOR,)),
        (10, Operation.LIST, "Secret", (Mitigation.NAMESPACE,)),
        (11, Operation.LIST, "Secret", (Mitigation.NAMESPACE,)),
    ]
    assert facts.sites[3].restrictions[0].text == "the client's namespace"


def test_kr8s(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "k.py": """
                import kr8s
                import kr8s.asyncio
                from kr8s.objects import ConfigMap


                async def run(settings):
                    kr8s.get("secrets", namespace=kr8s.ALL)
                    kr8s.get("Secret", namespace="all", label_selector="a=b")
                    kr8s.get("secrets")
                    kr8s.get("secrets", "one", namespace=kr8s.ALL)
                    kr8s.watch("pods", kr8s.ALL)
                    ConfigMap.list(namespace=kr8s.ALL)
                    api = await kr8s.asyncio.api()
                    api.get("ev", namespace=kr8s.ALL)
                    kr8s.asyncio.get("ingresses.networking.k8s.io", namespace=kr8s.ALL)
                    settings.get("secrets")
            """
        },
    )
    assert summary(facts) == [
        (7, Operation.LIST, "Secret", ()),
        (8, Operation.LIST, "Secret", (Mitigation.SELECTOR,)),
        (9, Operation.LIST, "Secret", (Mitigation.NAMESPACE,)),
        (11, Operation.WATCH, "Pod", ()),
        (12, Operation.LIST, "ConfigMap", ()),
        (14, Operation.LIST, "Event", ()),
    ]


def test_django_model_named_like_a_kind(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "models.py": """
                from django.db import models
                import kubernetes


                class Secret(models.Model):
                    @classmethod
                    def list(cls, namespace=None):
                        return cls.objects.all()


                Secret.list(namespace="all")
                Secret.objects.get(name="x")
            """
        },
    )
    assert facts.sites == ()


def test_client_site_under_a_condition_off_by_default(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "a.py": """
                import os
                from kubernetes import client

                if os.getenv("AUDIT"):
                    client.CoreV1Api().list_pod_for_all_namespaces()
                elif os.getenv("OTHER", "yes"):  # holds when AUDIT does not
                    client.CoreV1Api().list_secret_for_all_namespaces()
            """
        },
    )
    audit, other = facts.sites
    assert audit.condition is not None
    assert (audit.condition.holds_by_default, audit.condition.span.line) == (False, 4)
    assert other.condition is not None
    assert other.condition.holds_by_default is True  # AUDIT is unset by default, and OTHER defaults to "yes"


def test_files_without_a_library_are_not_parsed_for_sites(catalog: Catalog) -> None:
    facts = extract(catalog, {"plain.py": "def list_pod_for_all_namespaces():\n    return []\n"})
    assert (facts.files, facts.sites) == (("plain.py",), ())


def test_conditional_keyword_entries(catalog: Catalog) -> None:
    facts = extract(
        catalog,
        {
            "a.py": """
                import os
                from kubernetes import client

                SELECTOR = os.getenv("SELECTOR")


                def pods(selector):
                    options = {"limit": 10}
                    if SELECTOR:
                        options["label_selector"] = SELECTOR
                    if selector:
                        options["field_selector"] = selector
                    return client.CoreV1Api().list_pod_for_all_namespaces(**options)
            """
        },
    )
    (site,) = facts.sites
    assert [(r.text, r.is_active) for r in site.restrictions] == [
        ("`label_selector` in `**options`", False),
        ("`field_selector` in `**options`", True),
    ]


def test_custom_object_lists_name_their_kind_in_arguments(catalog: Catalog) -> None:
    book = replace(catalog.kinds[0], name="Book", group="shop.example.com", plural="books", python_names=("books",))
    sources = (
        decode_source(
            textwrap.dedent(
                """\
                from kubernetes import client, watch

                api = client.CustomObjectsApi()
                api.list_cluster_custom_object("shop.example.com", "v1", "books")
                api.list_namespaced_custom_object(group="shop.example.com", version="v1", namespace="a", plural="books")
                api.list_cluster_custom_object("other.example.com", "v1", "books")
                watch.Watch().stream(api.list_cluster_custom_object, "shop.example.com", "v1", "books")
                """
            ).encode(),
            "a.py",
        ),
    )
    facts = python.extract(UnitInput(Path("."), ".", sources, KindIndex.build((*catalog.kinds, book))))
    assert summary(facts) == [
        (4, Operation.LIST, "Book", ()),
        (5, Operation.LIST, "Book", (Mitigation.NAMESPACE,)),
        (7, Operation.WATCH, "Book", ()),
    ]


def test_a_choice_that_names_itself_is_followed_without_end(catalog: Catalog) -> None:
    """`path = self.path if not path else path` handed to a call (kr8s's configuration): the choice is followed
    a few levels only, and the file is analyzed without an internal error."""
    text = """
        from kubernetes import client

        def load(path=None):
            path = path if path else path
            fetch = client.CoreV1Api().list_pod_for_all_namespaces
            fetch = fetch if path else fetch
            return open(path), run(fetch)
        """
    facts = extract(catalog, {"config.py": text})
    assert facts.notifications == ()
    assert summary(facts) == [(7, Operation.LIST, "Pod", ())]


def test_a_method_chosen_at_run_time_names_the_other_kinds_it_may_list(catalog: Catalog) -> None:
    """A list method looked up in a table by a key the code does not tell (robusta's counts by a configured
    kind) may list any of the table's kinds: the site is the first listing across all namespaces, and a note
    at the lookup names the others as wide; a namespaced entry, a kind listed twice and a told key add none."""
    text = """
        import os
        from kubernetes import client

        EVERYWHERE = {
            "pods": "list_pod_for_all_namespaces",
            "secrets": "list_secret_for_all_namespaces",
            "scoped": "list_namespaced_config_map",
            "again": "list_pod_for_all_namespaces",
            "configmaps": "list_config_map_for_all_namespaces",
        }
        LISTERS = {"pods": client.CoreV1Api().list_pod_for_all_namespaces, "nodes": client.CoreV1Api().list_node}

        def count(kind):
            method = getattr(client.CoreV1Api(), EVERYWHERE.get(kind.lower()))
            return len(method().items)

        def count_listed(kind):
            fetch = LISTERS[kind]
            return len(fetch().items)

        def count_configured():
            method = getattr(client.CoreV1Api(), EVERYWHERE[os.getenv("KIND", "secrets")])
            return len(method().items)

        def count_either(everything):
            v1 = client.CoreV1Api()
            method = v1.list_secret_for_all_namespaces if everything else v1.list_pod_for_all_namespaces
            return len(method().items)
        """
    facts = extract(catalog, {"counts.py": text})
    assert [(site.span.line, site.kind, site.alternatives) for site in facts.sites] == [
        (
            15,
            "Pod",
            Evidence(
                Span("counts.py", 14, 42, 14, 70),
                "`EVERYWHERE.get(kind.lower())` may also give the list of Secret or ConfigMap",
            ),
        ),
        (19, "Pod", None),  # Node is no kind the catalogue tracks
        (23, "Secret", None),
        (
            28,
            "Secret",
            Evidence(
                Span("counts.py", 27, 14, 27, 97),
                "`v1.list_secret_for_all_namespaces if everything else v1.list_po…` may also give the list of Pod",
            ),
        ),
    ]


def test_a_list_method_an_object_of_the_project_keeps_is_followed_to_its_calls(catalog: Catalog) -> None:
    """robusta keeps each kind's list methods in a model of its own (`ResourceLister(list_all=v1.list_…)`), in a
    table looked up by kind: calling the attribute the constructor was given lists as the method does. An
    attribute no constructor is given by keyword, or an object of a library's class, is not followed."""
    text = """
        from dataclasses import dataclass
        from typing import Callable

        from kubernetes import client

        @dataclass
        class Lister:
            list_all: Callable
            list_namespaced: Callable

        v1 = client.CoreV1Api()
        LISTERS = {
            "configmap": Lister(
                list_all=v1.list_config_map_for_all_namespaces, list_namespaced=v1.list_namespaced_config_map
            ),
            "secret": Lister(list_all=v1.list_secret_for_all_namespaces, list_namespaced=v1.list_namespaced_secret),
        }
        ONE = Lister(list_all=v1.list_pod_for_all_namespaces, list_namespaced=v1.list_namespaced_pod)

        def names(kind, namespace=None):
            lister = LISTERS[kind]
            if namespace:
                return lister.list_namespaced(namespace=namespace)
            return lister.list_all()

        def pods():
            return ONE.list_all(label_selector="app=shop")

        def other(factory):
            made = factory(list_all=v1.list_event_for_all_namespaces)
            return made.list_all()
        """
    facts = extract(catalog, {"names.py": text})
    assert summary(facts) == [
        (23, Operation.LIST, "ConfigMap", (Mitigation.NAMESPACE,)),
        (24, Operation.LIST, "ConfigMap", ()),
        (27, Operation.LIST, "Pod", (Mitigation.SELECTOR,)),
    ]
    assert [site.alternatives.message if site.alternatives else None for site in facts.sites] == [
        "`lister.list_namespaced` may also give the list of Secret",
        "`lister.list_all` may also give the list of Secret",
        None,
    ]


def test_a_choice_weighs_a_get_default_and_leaves_out_entries_bound_to_a_selector(catalog: Catalog) -> None:
    """`NAMES.get(kind, default)` may give its default too, and gives only it for a told key no entry has; a
    table entry a partial binds a label selector to lists no more than it selects: the site is the entry that
    lists everything, and the note names no selected kind."""
    text = """
        import functools
        from kubernetes import client

        v1 = client.CoreV1Api()
        NAMES = {"pods": "list_pod_for_all_namespaces", "secrets": "list_secret_for_all_namespaces"}
        LISTERS = {
            "secrets": functools.partial(v1.list_secret_for_all_namespaces, label_selector="app=shop"),
            "pods": v1.list_pod_for_all_namespaces,
            "events": v1.list_event_for_all_namespaces,
        }

        def count(kind):
            return len(getattr(v1, NAMES.get(kind, "list_config_map_for_all_namespaces"))().items)

        def count_config_maps():
            return len(getattr(v1, NAMES.get("configmaps", "list_config_map_for_all_namespaces"))().items)

        def count_listed(kind):
            fetch = LISTERS[kind]
            return len(fetch().items)
        """
    facts = extract(catalog, {"counts.py": text})
    notes = [
        (site.span.line, site.kind, site.alternatives.message if site.alternatives else None) for site in facts.sites
    ]
    assert notes == [
        (
            13,
            "Pod",
            '`NAMES.get(kind, "list_config_map_for_all_namespaces")` may also give the list of Secret or ConfigMap',
        ),
        (16, "ConfigMap", None),
        (20, "Pod", "`LISTERS[kind]` may also give the list of Event"),
    ]


def test_a_choice_is_not_told_by_what_the_code_may_change(catalog: Catalog) -> None:
    """What a lookup or a kept method gives is not told where the code may change it: a table the file adds
    entries to (its literal's keys are not all of them), a selector read
    from a setting (empty by default), a class with an `__init__` or a method of the attribute's name, an
    attribute of that name the file assigns (here in `Wrapped.__init__`, which leaves `Plain`'s untold too)."""
    text = """
        import functools
        import os
        from dataclasses import dataclass
        from typing import Callable

        from kubernetes import client

        v1 = client.CoreV1Api()
        ADDED = {"pods": v1.list_pod_for_all_namespaces}
        ADDED["secrets"] = v1.list_secret_for_all_namespaces
        SELECTED = {
            "secrets": functools.partial(v1.list_secret_for_all_namespaces, label_selector=os.getenv("SEL", "")),
            "pods": v1.list_pod_for_all_namespaces,
        }

        class Wrapped:
            def __init__(self, list_all):
                self.list_all = functools.partial(list_all, label_selector="app=shop")

        @dataclass
        class Plain:
            list_all: Callable

        WRAPPED = Wrapped(list_all=v1.list_config_map_for_all_namespaces)
        PLAIN = Plain(list_all=v1.list_event_for_all_namespaces)

        def added():
            fetch = ADDED.get("secrets", v1.list_service_account_for_all_namespaces)
            return fetch()

        def unseen(table):
            fetch = table.get("pods", v1.list_service_account_for_all_namespaces)
            return fetch()

        def selected(kind):
            fetch = SELECTED[kind]
            return fetch()

        def kept():
            WRAPPED.list_all()
            return PLAIN.list_all()
        """
    facts = extract(catalog, {"choices.py": text})
    noted = [
        (site.span.line, site.kind, site.alternatives.message if site.alternatives else None) for site in facts.sites
    ]
    assert noted == [
        (
            29,
            "Pod",
            # the entry added later is not seen, but the literal's no longer reads as all there is
            '`ADDED.get("secrets", v1.list_service_account_for_all_namespaces)` may also give the list of '
            "ServiceAccount",
        ),
        (33, "ServiceAccount", None),  # a table whose entries are not seen: the default is what the code shows
        (37, "Secret", "`SELECTED[kind]` may also give the list of Pod"),
    ]


def test_what_the_code_writes_elsewhere_is_told_apart_from_what_may_change_a_choice(catalog: Catalog) -> None:
    """A selector bound as a constant or an f-string selects; a `.get` on a table whose entries are not seen
    may give its default; a same-named local of another function, a comment or another object's attribute
    changes no table nor kept method; a class whose base may wrap its fields keeps nothing as given."""
    text = """
        import argparse
        import functools
        from dataclasses import dataclass
        from typing import Callable

        from kubernetes import client

        v1 = client.CoreV1Api()
        SELECTOR = "app=shop"
        NAME = "shop"
        LISTERS = {
            "secrets": functools.partial(v1.list_secret_for_all_namespaces, label_selector=SELECTOR),
            "maps": functools.partial(v1.list_config_map_for_all_namespaces, label_selector=f"app={NAME}"),
            "pods": v1.list_pod_for_all_namespaces,
        }

        class Wrapping:
            def __init_subclass__(cls):
                pass

        @dataclass
        class Kept:
            list_all: Callable

        @dataclass
        class Wrapped(Wrapping):
            list_all: Callable

        KEPT = Kept(list_all=v1.list_event_for_all_namespaces)
        WRAPPED = Wrapped(list_all=v1.list_service_account_for_all_namespaces)

        def listed(kind):
            fetch = LISTERS[kind]
            return fetch()

        def unseen(table):
            fetch = table.get("pods", v1.list_endpoints_for_all_namespaces)
            return fetch()

        def other():
            LISTERS = {}
            LISTERS["pods"] = None  # a local of its own, named alike
            options = argparse.Namespace()
            options.list_all = False  # another object's attribute
            # KEPT.list_all = None
            return LISTERS, options

        def kept():
            WRAPPED.list_all()
            return KEPT.list_all()
        """
    facts = extract(catalog, {"choices.py": text})
    assert summary(facts) == [
        (34, Operation.LIST, "Pod", ()),
        (38, Operation.LIST, "Endpoints", ()),
        (50, Operation.LIST, "Event", ()),
    ]


def test_a_kept_method_is_told_by_the_class_and_the_objects_its_attribute_is_assigned_on(catalog: Catalog) -> None:
    """A dataclass based on a plain dataclass of the project keeps its fields as given; an attribute assigned on
    an object a table lookup gives (which may be one of the class's) leaves the kept method untold, one assigned
    on an object of a library's class does not."""
    text = """
        import argparse
        import functools
        from dataclasses import dataclass
        from typing import Callable

        from kubernetes import client

        v1 = client.CoreV1Api()

        @dataclass
        class Named:
            name: str

        @dataclass
        class Lister(Named):
            list_all: Callable

        @dataclass
        class Other:
            list_each: Callable

        PODS = Lister(name="pods", list_all=v1.list_pod_for_all_namespaces)
        LISTERS = {"secrets": Other(list_each=v1.list_secret_for_all_namespaces)}
        narrowed = LISTERS.get("secrets")
        narrowed.list_each = functools.partial(v1.list_namespaced_secret, "shop")
        args = argparse.Namespace()
        args.list_all = False

        def pods():
            return PODS.list_all()

        def secrets():
            return LISTERS["secrets"].list_each()
        """
    facts = extract(catalog, {"listers.py": text})
    assert summary(facts) == [(30, Operation.LIST, "Pod", ())]
