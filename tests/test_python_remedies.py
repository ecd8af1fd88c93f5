"""Python fixes and suggestions: the namespaced-list edits, the names they pass, the exact text suggestions,
and what `--fix` does to the files (mode, line endings, files that do not parse) and to SARIF."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import CliResult, validate_sarif, write_tree

from watchlint import python
from watchlint.catalog import Catalog, Kind, KindIndex
from watchlint.config import CommandLine
from watchlint.engine import run
from watchlint.facts import Facts, Site
from watchlint.fixes import Applicability, Fix
from watchlint.frontend import UnitInput
from watchlint.source import decode_source

FIXTURES = Path(__file__).parent / "fixtures" / "python"
LOOP_HELP = 'Pass label_selector="{}", what the loop keeps, so the API server sends only matching objects'
NAMESPACED_HELP = "Pass label_selector= or field_selector=, or {} one namespace with {}"
CUSTOM = "list_namespaced_custom_object(group, version, <namespace>, plural)"
WATCH_ONE = "Pass label_selector= or field_selector=, or watch one namespace with {}"
COMMAND_LINE = (
    "the operator with `kopf run --namespace=<namespace> …` (-n, once per namespace) rather than "
    "--all-namespaces/-A, and set kopf-namespaced = true in the watchlint config, which cannot see the command line"
)
FILTERS = "kopf applies handler filters after streaming every object: "
SCOPED = "to serve only those namespaces"
LIGHTKUBE_HELP = "Pass labels= or fields=, or {} a single namespace (namespace=…)"


# a namespaced custom resource, as a project's extra-kinds would add it
BOOK = Kind("Book", "books.example.com", "v1", "books", True, ("example.com/api/v1",), ("Book",), ("books",), ())


def extract(catalog: Catalog, text: str, path: str = "a.py") -> Facts:
    source = decode_source(textwrap.dedent(text).lstrip("\n").encode(), path)
    return python.extract(UnitInput(Path("."), ".", (source,), KindIndex.build((*catalog.kinds, BOOK))))


def only_site(facts: Facts) -> Site:
    (site,) = facts.sites
    return site


def applied(text: str, fix: Fix, path: str = "a.py") -> str:
    """The snippet with the fix's edits applied, last first."""
    source = decode_source(textwrap.dedent(text).lstrip("\n").encode(), path)
    data = source.data
    for edit in sorted(fix.edits, key=lambda edit: edit.span, reverse=True):
        start = source.offset(edit.span.line, edit.span.column)
        end = source.offset(edit.span.end_line, edit.span.end_column)
        data = data[:start] + edit.new_text.encode() + data[end:]
    return data.decode()


# -- exact suggestions ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("case", "expected"),
    [
        (
            "suggestions/loop-label-selectors",
            [
                ("WL003", "loops.py", 14, LOOP_HELP.format("app.kubernetes.io/managed-by=cert-operator")),
                ("WL003", "loops.py", 22, LOOP_HELP.format("tier=web,!canary")),
                ("WL003", "loops.py", 28, LOOP_HELP.format("shop.example.com/catalog")),
                # annotations have no selector, `or` none either: the namespaced list is named instead
                ("WL003", "loops.py", 35, WATCH_ONE.format("list_namespaced_service_account(<namespace>, …)")),
                ("WL003", "loops.py", 41, WATCH_ONE.format("list_namespaced_endpoints(<namespace>, …)")),
                ("WL003", "loops.py", 49, LOOP_HELP.format("batch.example.com/queue=nightly")),
                # a list's loop over its items keeps the same objects a selector would
                ("WL004", "loops.py", 55, LOOP_HELP.format("app=shop")),
                ("WL004", "loops.py", 62, LOOP_HELP.format("tier=web")),
                # `.get(key, default)` keeps the unlabelled objects where the default passes the test: no selector
                ("WL003", "loops.py", 69, WATCH_ONE.format("list_namespaced_secret(<namespace>, …)")),
                ("WL003", "loops.py", 77, LOOP_HELP.format("tier=web")),
                # an if/else handling every object filters nothing
                ("WL001", "loops.py", 85, WATCH_ONE.format("list_namespaced_config_map(<namespace>, …)")),
                # a branch that only logs passes the object by: the test filters
                ("WL003", "loops.py", 94, LOOP_HELP.format("app=shop")),
                # nor do the tests inside a dispatch's branches
                ("WL001", "loops.py", 103, WATCH_ONE.format("list_namespaced_pod(<namespace>, …)")),
                # a default the code does not show: what the unlabelled objects compare as is not known
                ("WL003", "loops.py", 113, WATCH_ONE.format("list_namespaced_endpoints(<namespace>, …)")),
                # a helper's early return keeps what its test rejects, whichever way the loop reads its answer
                ("WL003", "loops.py", 146, LOOP_HELP.format("app=shop")),
                ("WL003", "loops.py", 150, LOOP_HELP.format("app=shop")),
                ("WL003", "loops.py", 154, LOOP_HELP.format("tier=web")),
                # an answer that is no constant: what the loop keeps is not known
                ("WL003", "loops.py", 160, WATCH_ONE.format("list_namespaced_service_account(<namespace>, …)")),
                # a return doing the work handles what its test holds for; a helper keeping objects another way
                # too, or before its label test, keeps objects no selector of that label would
                ("WL003", "loops.py", 195, LOOP_HELP.format("tier=web")),
                ("WL003", "loops.py", 197, WATCH_ONE.format("list_namespaced_config_map(<namespace>, …)")),
                ("WL003", "loops.py", 201, WATCH_ONE.format("list_namespaced_pod(<namespace>, …)")),
                ("WL003", "loops.py", 205, LOOP_HELP.format("app=shop")),
                ("WL004", "loops.py", 209, LOOP_HELP.format("app=shop")),
                ("WL004", "loops.py", 210, LOOP_HELP.format("app=shop")),
                # a value the loop drops ends the work early; a helper handling the other objects too, a test
                # nested under another condition, a loop handling what the helper turns away: no selector
                ("WL003", "loops.py", 238, LOOP_HELP.format("tier=web")),
                ("WL003", "loops.py", 240, WATCH_ONE.format("list_namespaced_config_map(<namespace>, …)")),
                ("WL003", "loops.py", 242, WATCH_ONE.format("list_namespaced_pod(<namespace>, …)")),
                ("WL003", "loops.py", 246, WATCH_ONE.format("list_namespaced_endpoints(<namespace>, …)")),
                # work inside the value returned (a list named backlog is no logger) handles what the test holds
                # for; work before the test, or branches before an `elif`, handle the others too
                ("WL003", "loops.py", 276, LOOP_HELP.format("tier=web")),
                ("WL003", "loops.py", 278, LOOP_HELP.format("tier=web")),
                ("WL003", "loops.py", 280, WATCH_ONE.format("list_namespaced_pod(<namespace>, …)")),
                ("WL003", "loops.py", 282, WATCH_ONE.format("list_namespaced_endpoints(<namespace>, …)")),
                # a call on a receiver named `logic` is work, not a log line
                ("WL003", "loops.py", 300, LOOP_HELP.format("tier=web")),
            ],
        ),
        (
            "suggestions/kopf-scopes",
            [
                (
                    "WL001",
                    "clusterwide/operator.py",
                    10,
                    "Replace `clusterwide=True` with `namespaces=[WATCH_NAMESPACE]` in `kopf.run` at "
                    f"clusterwide/operator.py:16 {SCOPED}",
                ),
                ("WL001", "command-line/handlers.py", 6, "Start " + COMMAND_LINE),
                ("WL003", "command-line/handlers.py", 11, FILTERS + "start " + COMMAND_LINE),
                (
                    "WL001",
                    "embedded/app.py",
                    9,
                    f'Pass `namespaces=["<namespace>"]` to `kopf.operator` at embedded/app.py:15 {SCOPED}',
                ),
                (
                    "WL001",
                    "empty-namespaces/tasks.py",
                    8,
                    'Replace `namespaces=[]` with `namespaces=["<namespace>"]` in `kopf.spawn_tasks` at '
                    f"empty-namespaces/tasks.py:14 {SCOPED}",
                ),
                (
                    "WL001",
                    "options-dict/main.py",
                    8,
                    "Scope the operator's namespaces in code (kopf.run(namespaces=[...])), or set kopf-namespaced "
                    "= true in the watchlint config when `kopf run -n` scopes it",
                ),
            ],
        ),
        (
            "fixes-unsafe/kopf-handler-namespace",
            [
                ("WL004", "handlers.py", 10, NAMESPACED_HELP.format("list", "list_namespaced_secret(<namespace>, …)")),
                ("WL003", "handlers.py", 19, LOOP_HELP.format("app.kubernetes.io/part-of=storefront")),
                (
                    "WL004",
                    "handlers.py",
                    31,
                    NAMESPACED_HELP.format("list", "list_namespaced_config_map(<namespace>, …)"),
                ),
            ],
        ),
        (
            "fixes-unsafe/custom-objects-and-dynamic-client",
            [
                ("WL004", "sync.py", 10, NAMESPACED_HELP.format("list", CUSTOM)),
                ("WL004", "sync.py", 11, NAMESPACED_HELP.format("list", CUSTOM)),
                # Shelf is cluster-scoped: it has no namespaced list to name, and no namespace narrows it
                ("WL004", "sync.py", 12, "Pass a label or field selector"),
                ("WL001", "sync.py", 18, NAMESPACED_HELP.format("watch", CUSTOM)),
                ("WL004", "sync.py", 25, "Pass a label or field selector, or list a single namespace"),
                ("WL001", "sync.py", 26, "Pass label_selector= or field_selector=, or watch a single namespace"),
                ("WL004", "sync.py", 30, "Pass a label or field selector, or list a single namespace"),
            ],
        ),
        (
            # lightkube's selectors are labels= and fields=; kr8s takes the kubernetes client's keywords
            "WL001/lightkube-kr8s-watch",
            [
                ("WL001", "streams.py", 12, LIGHTKUBE_HELP.format("watch")),
                ("WL001", "streams.py", 22, LIGHTKUBE_HELP.format("watch")),
                ("WL001", "streams.py", 27, "Pass label_selector= or field_selector=, or watch a single namespace"),
                ("WL001", "streams.py", 34, "Pass label_selector= or field_selector=, or watch a single namespace"),
            ],
        ),
        (
            "WL004/lightkube-list",
            [
                ("WL004", "charm.py", 14, LIGHTKUBE_HELP.format("list")),
                ("WL004", "charm.py", 17, LIGHTKUBE_HELP.format("list")),
                ("WL004", "charm.py", 20, LIGHTKUBE_HELP.format("list")),
            ],
        ),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_suggestions_name_the_exact_change(
    case: str, expected: list[tuple[str, str, int, str]], catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(FIXTURES / case)
    report = run([Path(".")], CommandLine(), catalog)
    assert [(f.code, f.span.path, f.span.line, f.help) for f in report.findings] == expected


def test_no_suggestion_without_an_exact_change(catalog: Catalog) -> None:
    """Site.suggestion stays empty when the method is not named at the site: checks fall back to their help."""
    text = "from kubernetes import client, watch\nlister = client.CoreV1Api().list_pod_for_all_namespaces\n"
    site = only_site(extract(catalog, text + "watch.Watch().stream(lister)"))
    assert (site.suggestion, site.fixes) == ("", ())


# -- the namespace the fix passes -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("code", "namespace"),
    [
        ("def f(namespace):\n    {call}", "namespace"),
        ("def f(ns: str | None = None):\n    {call}", "ns"),
        ("def f(watch_namespace):\n    {call}", "watch_namespace"),
        ("def f(namespace: client.V1Namespace):\n    {call}", None),
        ('NAMESPACE = "shop"\n{call}', "NAMESPACE"),
        ('NAMESPACE = "shop.example.com"\n{call}', None),  # no namespace name
        ('TARGET = "shop"\n{call}', None),  # a literal only counts in a name that says namespace
        ('def f():\n    target = os.environ["WATCH_NAMESPACE"]\n    {call}', "target"),
        ('def f():\n    target = os.environ["WATCH_NAMESPACES"]\n    {call}', None),  # may list several
        ('def f():\n    ns = os.getenv("POD_NAMESPACE")\n    {call}', "ns"),
        ('def f():\n    ns = os.environ.get("POD_NAMESPACE", "default")\n    {call}', "ns"),
        ('def f():\n    ns = os.environ.get("POD_NAMESPACE", "")\n    {call}', None),
        ('NS = os.environ["WATCH_NAMESPACE"]\ndef f():\n    ns = None\n    {call}', None),
        ('def f():\n    {call}\n    ns = os.environ["WATCH_NAMESPACE"]', None),  # assigned after the call
        # bound on some paths only: the call may find it unbound
        (
            "def f(bindings):\n    if FLAG:\n        for rb in bindings:\n"
            "            ns = rb.metadata.namespace\n    {call}",
            None,
        ),
        ('def f():\n    if FLAG:\n        ns = os.environ["WATCH_NAMESPACE"]\n    else:\n        {call}', None),
        (
            'def f():\n    try:\n        ns = os.environ["WATCH_NAMESPACE"]\n'
            "    except KeyError:\n        return\n    {call}",
            "ns",
        ),
        ('def f():\n    if FLAG:\n        ns = os.environ["WATCH_NAMESPACE"]\n        {call}', "ns"),
        ('if FLAG:\n    NS = os.environ["WATCH_NAMESPACE"]\ndef f():\n    {call}', None),
        ('NS = os.environ["WATCH_NAMESPACE"]\nif FLAG:\n    NS = "shop"\ndef f():\n    {call}', "NS"),
        ('def f():\n    ns = os.environ["WATCH_NAMESPACE"]\n    if ns:\n        return\n    {call}', None),
        ('def f():\n    ns = open("/var/run/secrets/kubernetes.io/serviceaccount/namespace").read()\n    {call}', "ns"),
        (
            'def f():\n    ns = Path("/run/secrets/kubernetes.io/serviceaccount/namespace").read_text()\n    {call}',
            "ns",
        ),
        ('def f(body):\n    ns = body["metadata"]["namespace"]\n    {call}', "ns"),
        ("def f(obj):\n    ns = obj.metadata.namespace or 'default'\n    {call}", "ns"),
        ("def f(ns):\n    def g():\n        ns = 'a,b'\n        {call}\n    g()", None),
        ("def f(ns):\n    def g():\n        {call}\n    g()", "ns"),
        (
            "class C:\n    def __init__(self, namespace):\n        self.namespace = namespace\n"
            "    def run(self):\n        {call}",
            "self.namespace",
        ),
        ("class C:\n    NAMESPACE = 'shop'\n    def run(self):\n        {call}", "self.NAMESPACE"),
        ("class C:\n    DEFAULT_NAMESPACE = 'default'\n    def run(self):\n        {call}", None),  # a fallback
        ("def f(namespace):\n    namespace = compute()\n    {call}", None),
        ('NS = os.environ["WATCH_NAMESPACE"]\ndef f(items):\n    for NS in items:\n        {call}', None),
        ("def f(ns):\n    with open('x') as ns:\n        {call}", None),
        ("def f(ns):\n    return lambda ns: {expression}", None),
        ("def f(ns):\n    return [{expression} for ns in range(2)]", None),
        ("def f(ns):\n    return [{expression} for _ in range(2)]", "ns"),
    ],
)
def test_namespace_passed_by_the_fix(catalog: Catalog, code: str, namespace: str | None) -> None:
    expression = "client.CoreV1Api().list_secret_for_all_namespaces()"
    header = "import os\nfrom pathlib import Path\n\nfrom kubernetes import client\n\n"
    code = code.replace("{call}", f"return {expression}").replace("{expression}", expression)
    site = only_site(extract(catalog, header + code))
    if namespace is None:
        assert site.fixes == ()
        return
    (fix,) = site.fixes
    assert fix.applicability is Applicability.UNSAFE
    assert fix.title == (
        f"List Secret in namespace `{namespace}` only (list_namespaced_secret); "
        "Secret objects elsewhere are no longer seen"
    )
    assert [edit.new_text for edit in fix.edits] == [f"list_namespaced_secret({namespace}"]


# -- the edits, in the file's layout --------------------------------------------------------------------
HEADER = textwrap.dedent(
    """\
    from kubernetes import client, watch

    GROUP = "books.example.com"


    def f(ns):
        core = client.CoreV1Api()
    """
)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("core.list_pod_for_all_namespaces( )", "core.list_namespaced_pod(ns )"),
        ("core.list_pod_for_all_namespaces (limit=1)", "core.list_namespaced_pod (ns, limit=1)"),
        (
            "core.list_pod_for_all_namespaces(\n        limit=1)",
            "core.list_namespaced_pod(\n        ns,\n        limit=1)",
        ),
        (
            "core.list_pod_for_all_namespaces(\n\tlimit=1,  # one\n    )",
            "core.list_namespaced_pod(\n\tns,\n\tlimit=1,  # one\n    )",
        ),
        (
            "watch.Watch().stream(\n        core.list_pod_for_all_namespaces,  # all\n    )",
            "watch.Watch().stream(\n        core.list_namespaced_pod,  # all\n        ns,\n    )",
        ),
        (
            "watch.Watch().stream(\n        core.list_pod_for_all_namespaces\n    )",
            "watch.Watch().stream(\n        core.list_namespaced_pod,\n        ns\n    )",
        ),
        (
            "watch.Watch().stream(core.list_pod_for_all_namespaces)",
            "watch.Watch().stream(core.list_namespaced_pod, ns)",
        ),
        (
            'client.CustomObjectsApi().list_cluster_custom_object(GROUP, "v1", plural="books")',
            'client.CustomObjectsApi().list_namespaced_custom_object(GROUP, "v1", ns, plural="books")',
        ),
        (
            'client.CustomObjectsApi().list_cluster_custom_object(GROUP, version="v1", plural="books")',
            "client.CustomObjectsApi().list_namespaced_custom_object("
            'GROUP, version="v1", namespace=ns, plural="books")',
        ),
    ],
)
def test_edits_keep_the_layout(catalog: Catalog, before: str, after: str) -> None:
    text = HEADER + f"    for event in {before}:\n        print(event)\n"
    site = only_site(extract(catalog, text))
    (fix,) = site.fixes
    assert applied(text, fix) == HEADER + f"    for event in {after}:\n        print(event)\n"


@pytest.mark.parametrize(
    "call",
    [
        "core.list_pod_for_all_namespaces(*pages)",  # positions unknown
        "watch.Watch().stream(functools.partial(core.list_pod_for_all_namespaces, limit=1))",
        "watch.Watch().stream(func=core.list_pod_for_all_namespaces)",
        "watch.Watch().stream(lister)",  # the method is named where the variable is bound, not here
    ],
)
def test_no_edit_where_the_arguments_cannot_be_placed(catalog: Catalog, call: str) -> None:
    text = (
        "import functools\n"
        + HEADER
        + f"    pages = []\n    lister = core.list_pod_for_all_namespaces\n    return {call}\n"
    )
    assert only_site(extract(catalog, text)).fixes == ()


def test_a_placeholder_selector_is_no_edit(catalog: Catalog) -> None:
    """SPEC §4: without a namespace in scope a list gets a text suggestion, never `label_selector="TODO"`."""
    site = only_site(
        extract(catalog, HEADER.replace("def f(ns)", "def f()") + "    core.list_pod_for_all_namespaces()\n")
    )
    assert site.fixes == ()


# -- --fix on files --------------------------------------------------------------------------------------
LISTER = textwrap.dedent(
    """\
    from kubernetes import client


    def names(namespace):
        return client.CoreV1Api().list_pod_for_all_namespaces(
            timeout_seconds=10,
        )
    """
)


def test_fix_keeps_mode_and_line_endings_and_skips_broken_files(
    tmp_path: Path, run_cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = LISTER + "def broken(:\n"
    root = write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "x"\n',
            "lister.py": LISTER,
            "windows.py": LISTER.replace("\n", "\r\n").encode(),
            "broken.py": broken,
        },
    )
    (root / "lister.py").chmod(0o755)
    monkeypatch.chdir(root)
    result = run_cli("check", "--fix", "--unsafe-fixes", ".")
    expected = LISTER.replace("list_pod_for_all_namespaces(\n", "list_namespaced_pod(\n        namespace,\n")
    assert (root / "lister.py").read_text(encoding="utf-8") == expected
    assert (root / "lister.py").stat().st_mode & 0o777 == 0o755
    assert (root / "windows.py").read_bytes() == expected.replace("\n", "\r\n").encode()
    assert (root / "broken.py").read_text(encoding="utf-8") == broken
    assert "broken.py: syntax error at line 8; file skipped" in result.stderr
    assert "2 fixes applied in 2 files" in result.stderr
    assert result.exit_code == 0, result.stdout  # nothing remains
    again = run_cli("check", "--fix", "--unsafe-fixes", ".")
    assert (root / "lister.py").read_text(encoding="utf-8") == expected
    assert again.exit_code == result.exit_code


def test_safe_fix_leaves_python_unsafe_fixes_alone(
    tmp_path: Path, run_cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write_tree(tmp_path, {"pyproject.toml": '[project]\nname = "x"\n', "lister.py": LISTER})
    monkeypatch.chdir(root)
    result = run_cli("check", "--fix", ".")
    assert (root / "lister.py").read_text(encoding="utf-8") == LISTER
    assert "\n1 fixable with `--fix --unsafe-fixes`." in result.stdout


def test_sarif_with_python_fixes_validates(
    tmp_path: Path, run_cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write_tree(tmp_path, {"pyproject.toml": '[project]\nname = "x"\n', "lister.py": LISTER})
    monkeypatch.chdir(root)
    log = validate_sarif(run_cli("check", "--format", "sarif", ".").stdout)
    (result,) = log["runs"][0]["results"]
    (fix,) = result["fixes"]
    assert fix["description"]["text"].endswith("(unsafe)")
    (change,) = fix["artifactChanges"]
    assert change["artifactLocation"] == {"uri": "lister.py", "uriBaseId": "%SRCROOT%"}
    assert [item["insertedContent"]["text"] for item in change["replacements"]] == [
        "list_namespaced_pod",
        "namespace,\n        ",
    ]
    assert json.dumps(log)  # serialisable as is


@pytest.mark.parametrize(
    ("loop", "selector"),
    [
        ("await handle(event['object'])", "tier=web"),
        ("if not await wanted(event['object']):\n                    continue", "app=shop"),
        ("if await wanted(event['object']) and ready:\n                    print(event)", "app=shop"),
        ("if not (await wanted(event['object']) and ready):\n                    continue", None),
        ("if await wanted(event['object']) or ready:\n                    print(event)", None),
    ],
    ids=["dropped", "negated", "and", "negated-and", "or"],
)
def test_an_awaited_helpers_answer_gives_the_selector_of_what_the_loop_keeps(
    catalog: Catalog, loop: str, selector: str | None
) -> None:
    """kubernetes_asyncio loops await their helpers: the answer is read through the `await`, and through an
    `and` the loop keeps only what the helper says yes to; an `or`, or a `not` around a join, lets objects by
    whatever the helper says."""
    text = f"""
        from kubernetes_asyncio import client, watch

        async def handle(obj):
            if obj.metadata.labels.get("tier") != "web":
                return
            print(obj.metadata.name)

        async def wanted(obj):
            if obj.metadata.labels.get("app") != "shop":
                return False
            return True

        async def run(ready):
            async for event in watch.Watch().stream(client.CoreV1Api().list_secret_for_all_namespaces):
                {loop}
        """
    site = only_site(extract(catalog, text))
    namespaced = WATCH_ONE.format("list_namespaced_secret(<namespace>, …)")
    assert site.suggestion == (LOOP_HELP.format(selector) if selector else namespaced)
