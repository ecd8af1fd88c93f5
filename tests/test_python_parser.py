"""Parsing in the Python front-end: broken and Python 2 files are notifications, never crashes; spans are
1-based; constructs are whitespace-normalised."""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

import libcst
import pytest

from watchlint import python
from watchlint.catalog import Catalog, KindIndex
from watchlint.facts import Facts, Notification, NotificationLevel
from watchlint.frontend import UnitInput
from watchlint.python import parser
from watchlint.python.parser import ParsedFile, check_syntax, imported_modules, normalise, parse, python2_construct
from watchlint.source import Span, decode_source


def extract(catalog: Catalog, files: dict[str, str]) -> Facts:
    sources = tuple(decode_source(text.encode(), path) for path, text in sorted(files.items()))
    return python.extract(UnitInput(Path("."), ".", sources, KindIndex.build(catalog.kinds)))


@pytest.mark.parametrize(
    "text",
    [
        "import kopf\n\n@kopf.on.event('pods')\ndef h(**_:\n    pass\n",  # parsed with libcst
        "x = 1\n\ndef h(**_:\n    pass\n",  # only syntax-checked: it names no client library
    ],
    ids=["library-file", "plain-file"],
)
def test_syntax_error_is_a_notification_naming_the_line(catalog: Catalog, text: str) -> None:
    facts = extract(catalog, {"broken.py": text, "good.py": "import kopf\n"})
    line = text.count("\n", 0, text.index("def h")) + 1
    assert facts.notifications == (
        Notification("broken.py", f"syntax error at line {line}; file skipped", NotificationLevel.ERROR, line=line),
    )
    assert facts.files == ("good.py",)


@pytest.mark.parametrize(
    ("text", "construct", "line"),
    [
        ("import kubernetes\n\nprint 'pods'\n", "print statement", 3),
        ("import kubernetes\ntry:\n    pass\nexcept ValueError, error:\n    pass\n", "`except X, e:`", 4),
        ("import kubernetes\nraise ValueError, 'no pods'\n", "`raise X, message`", 2),
        ("import kubernetes\nexec 'x = 1'\n", "exec statement", 2),
        ("import kubernetes\nmode = 0755\n", "octal literal", 2),
        ("x = 1\nprint x\n", "print statement", 2),
    ],
)
def test_python2_file_is_skipped_with_a_warning(catalog: Catalog, text: str, construct: str, line: int) -> None:
    facts = extract(catalog, {"legacy.py": text})
    message = f"looks like Python 2 ({construct} at line {line}); file skipped"
    assert facts.notifications == (Notification("legacy.py", message, NotificationLevel.WARNING, line=line),)
    assert facts.files == ()


def test_python_3_14_exception_tuple_without_brackets_is_analyzed(catalog: Catalog) -> None:
    """PEP 758's `except A, B:` looks like Python 2's `except X, e:` to CPython 3.11: libcst reads it."""
    text = (
        "from kubernetes import client\n\n\nasync def secrets():\n    try:\n"
        "        return client.CoreV1Api().list_secret_for_all_namespaces()\n"
        "    except KeyError, TypeError:\n        return None\n"
    )
    facts = extract(catalog, {"lister.py": text})
    assert facts.notifications == ()
    assert [(site.kind, site.span.path, site.span.line) for site in facts.sites] == [("Secret", "lister.py", 6)]


@pytest.mark.parametrize(
    ("line", "construct"),
    [
        (b"print(x)", None),
        (b"print (x)", None),
        (b"print = log", None),
        (b"mode = 0o755", None),
        (b"count = 0", None),
        (b"except (KeyError, ValueError), error:", "`except X, e:`"),
        (b"except KeyError, TypeError:", None),  # Python 3.14's tuple without brackets (PEP 758)
        (b"except NotFound, _error:", "`except X, e:`"),
        (b"    print >>sys.stderr, 'x'", "print statement"),
    ],
)
def test_python2_constructs(line: bytes, construct: str | None) -> None:
    assert python2_construct(line) == construct


def test_deep_nesting_is_refused_before_libcst(catalog: Catalog) -> None:
    depth = 500
    facts = extract(catalog, {"deep.py": "import kopf\nx = " + "(" * depth + "1" + ")" * depth + "\n"})
    (note,) = facts.notifications
    assert (note.level, note.message) == (
        NotificationLevel.ERROR,
        f"brackets nested {depth} deep (more than 200); file skipped",
    )


def test_newer_syntax_than_the_running_python_is_accepted(catalog: Catalog) -> None:
    facts = extract(catalog, {"new.py": "type Namespaces = list[str]\n"})
    assert (facts.files, facts.notifications) == (("new.py",), ())


def test_spans_are_one_based_code_points() -> None:
    source = decode_source("é = 1\nkopf.on.event('pods')\n".encode(), "a.py")
    file = ParsedFile(source, parse(source))
    (call,) = file.calls
    assert file.span(call) == Span("a.py", 2, 1, 2, 22)
    assert file.span(file.module.body[0]) == Span("a.py", 1, 1, 1, 6)


def test_first_line_span_stops_at_the_end_of_the_line() -> None:
    source = decode_source(b"@kopf.on.create(\n    'pods',\n)\ndef h(): ...\n", "a.py")
    file = ParsedFile(source, parse(source))
    (decorator,) = file.module.body[0].decorators  # type: ignore[attr-defined]
    assert file.first_line_span(decorator) == Span("a.py", 1, 1, 1, 17)


@pytest.mark.parametrize(
    ("code", "shown"),
    [
        ("kopf.on.create(\n    'pods',\n    labels={'a': 'b'},\n)", "kopf.on.create('pods', labels={'a': 'b'})"),
        ("f(  a ,\n b )", "f(a , b)"),
        ("x \\\n  .y()", "x .y()"),
        ("kopf.on.event(\n    'secrets',  # every Secret\n)", "kopf.on.event('secrets')"),
        ("v1.list_pods(  # type: ignore\n    label_selector='a=#b',\n)", "v1.list_pods(label_selector='a=#b')"),
    ],
)
def test_normalise(code: str, shown: str) -> None:
    assert normalise(code) == shown


def test_suppression_comments_are_collected_from_parsed_files(catalog: Catalog) -> None:
    facts = extract(catalog, {"a.py": "import kopf  # noqa: WL001\nx = '# noqa: WL004'\n"})
    assert [(comment.span.line, comment.text) for comment in facts.comments] == [(1, "# noqa: WL001")]


def test_suppression_comments_are_collected_whatever_their_case(catalog: Catalog) -> None:
    """flake8 reads `# NOQA: F401` as `# noqa`: the directive's comment is kept for the suppression parser."""
    facts = extract(catalog, {"a.py": "import kopf  # NOQA: WL001\nimport os  # Watchlint: ignore[WL004]\n"})
    assert [(comment.span.line, comment.text) for comment in facts.comments] == [
        (1, "# NOQA: WL001"),
        (2, "# Watchlint: ignore[WL004]"),
    ]


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        (" and ".join(["a"] * 1500), "expression nested 1500 deep (more than 1000); file skipped"),
        ("+".join(["1"] * 100_000), "nested too deeply to parse; file skipped"),
        ("lambda: " * 10_000 + "0", "nested too deeply to parse; file skipped"),
    ],
    ids=["and-chain", "sum-chain", "nested-lambdas"],
)
def test_expressions_libcst_cannot_take_are_refused(catalog: Catalog, expression: str, message: str) -> None:
    facts = extract(catalog, {"patho.py": f"import kopf\n\nx = {expression}\n", "ok.py": "import kopf\n"})
    assert facts.notifications == (Notification("patho.py", message, NotificationLevel.ERROR),)
    assert facts.files == ("ok.py",)


def test_compile_warnings_of_the_analyzed_code_do_not_leak(catalog: Catalog) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        extract(catalog, {"a.py": 'import re\nimport kopf\n\nPATTERN = re.compile("\\d+")\n', "b.py": 'x = "\\d"\n'})
    assert [str(item.message) for item in caught] == []


def test_generated_clients_are_skipped(catalog: Catalog) -> None:
    header = '"""\n    Kubernetes\n\n    Generated by: https://openapi-generator.tech\n"""\n'
    body = (
        "class CoreV1Api:\n"
        "    def list_pod_for_all_namespaces(self, **kwargs):\n"
        "        return self.api.list_pod_for_all_namespaces(**kwargs)\n"
    )
    facts = extract(catalog, {"core_v1_api.py": header + body})
    assert (facts.files, facts.sites, facts.notifications) == ((), (), ())


QUALIFIED = """\
import kopf
import kopf as k
import kubernetes.client
from kubernetes import client as k8s, watch
from kubernetes.client import CoreV1Api
from .settings import NAMESPACE
from . import helpers
from os import *


def handler(watch, client=None):
    k8s.CoreV1Api().list_pod_for_all_namespaces(watch=False)
    kubernetes.client.AppsV1Api
    CoreV1Api
    w.watch
    NAMESPACE
    helpers.ns
    k.on.event
    kopf.on.create
    getenv
"""


@pytest.mark.parametrize(
    ("expression", "names"),
    [
        ("k8s.CoreV1Api().list_pod_for_all_namespaces", {"kubernetes.client.CoreV1Api.list_pod_for_all_namespaces"}),
        ("kubernetes.client.AppsV1Api", {"kubernetes.client.AppsV1Api"}),
        ("CoreV1Api", {"kubernetes.client.CoreV1Api"}),
        ("w.watch", set()),  # an attribute named like an import is not the import
        ("NAMESPACE", {".settings.NAMESPACE"}),
        ("helpers.ns", {".helpers.ns"}),
        ("k.on.event", {"kopf.on.event"}),
        ("kopf.on.create", {"kopf.on.create"}),
        ("getenv", set()),  # a star import binds nothing we can name
    ],
)
def test_qualified_names_follow_the_imports(expression: str, names: set[str]) -> None:
    source = decode_source(QUALIFIED.encode(), "pkg/handlers.py")
    parsed = ParsedFile(source, parse(source))
    (node,) = [
        node
        for node, parent in parsed.parents.items()
        if isinstance(parent, libcst.Expr | libcst.Call) and parsed.code(node) == expression
    ]
    assert parsed.qualified_names(node) == names


def test_keyword_and_parameter_names_are_not_the_imports_they_spell() -> None:
    source = decode_source(QUALIFIED.encode(), "pkg/handlers.py")
    parsed = ParsedFile(source, parse(source))
    call = next(call for call in parsed.calls if parsed.code(call.func).endswith("list_pod_for_all_namespaces"))
    assert call.args[0].keyword is not None
    assert parsed.qualified_names(call.args[0].keyword) == frozenset()
    function = parsed.module.body[-1]
    assert isinstance(function, libcst.FunctionDef)
    assert parsed.qualified_names(function.params.params[0].name) == frozenset()


DEEP_EXPRESSIONS = {
    "sum-1500-terms": "x = " + "+".join(["1"] * 1500),
    "and-600-terms": "x = " + " and ".join(["a"] * 600),
    "and-1200-terms": "x = " + " and ".join(["a"] * 1200),
    "lambdas-1100-deep-in-a-default": "def f(y=" + "lambda: " * 1100 + "0):\n    pass",
    "unary-1100-deep-in-a-decorator": "@d(" + "-" * 1100 + "1)\ndef f():\n    pass",
    "comparison-1200-in-a-comprehension": "x = [a for a in b if " + " < ".join(["a"] * 1200) + "]",
    "short-expressions-in-a-long-function": "def f():\n" + "    x = (1 + 2) * 3\n" * 500,
    "attribute-chain-1100": "x = a" + ".b" * 1100,
}


@pytest.mark.parametrize("text", DEEP_EXPRESSIONS.values(), ids=DEEP_EXPRESSIONS.keys())
def test_expression_depth_skips_short_expressions_without_missing_a_deep_one(text: str) -> None:
    source = decode_source(text.encode() + b"\n", "deep.py")
    tree = ast.parse(source.data)
    exact = parser.expression_depth(tree)
    bounded = parser.expression_depth(tree, source)
    assert (bounded > parser.MAX_EXPRESSION_DEPTH) == (exact > parser.MAX_EXPRESSION_DEPTH)
    if exact > parser.MAX_EXPRESSION_DEPTH:
        assert bounded == exact


def test_imported_modules_name_the_modules_of_top_level_imports_without_relative_dots() -> None:
    text = (
        "import os\n"
        "import kubernetes.client as k8s\n"
        "from .resources import SECRETS, api\n"
        "from . import naming\n"
        "from ..shared.kube import core\n"
        "\n"
        "def late():\n"
        "    from .render import title  # inside a function: not a module the file is read for\n"
    )
    tree = check_syntax(decode_source(text.encode(), "pkg/jobs.py"))
    assert tree is not None
    assert imported_modules(tree) == {
        "os",
        "kubernetes.client",
        "resources",
        "resources.SECRETS",
        "resources.api",
        "naming",
        "shared.kube",
        "shared.kube.core",
    }
