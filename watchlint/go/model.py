"""The Go front-end's working model: parsed files, type references and the well-known import paths."""

from __future__ import annotations

import bisect
import itertools
from dataclasses import dataclass, field
from typing import NamedTuple

import tree_sitter

from watchlint.discover import TEST_DIRECTORIES, is_test_file
from watchlint.frozeninit import direct_init
from watchlint.go import parser
from watchlint.go.scope import DECLARING, enclosing_function
from watchlint.source import SourceFile, Span

CONTROLLER_RUNTIME = "sigs.k8s.io/controller-runtime"
CR_CLIENT = "sigs.k8s.io/controller-runtime/pkg/client"
TYPED_CLIENTS = "k8s.io/client-go/kubernetes/typed/"  # the group clients of a clientset: typed/core/v1
CR_FAKE = "sigs.k8s.io/controller-runtime/pkg/client/fake"
CR_CACHE = "sigs.k8s.io/controller-runtime/pkg/cache"
CR_MANAGER = "sigs.k8s.io/controller-runtime/pkg/manager"
CR_CLUSTER = "sigs.k8s.io/controller-runtime/pkg/cluster"
CR_BUILDER = "sigs.k8s.io/controller-runtime/pkg/builder"
CR_SOURCE = "sigs.k8s.io/controller-runtime/pkg/source"
CR_PREDICATE = "sigs.k8s.io/controller-runtime/pkg/predicate"
CR_CONTROLLERUTIL = "sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
META_V1 = "k8s.io/apimachinery/pkg/apis/meta/v1"
UNSTRUCTURED = "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
SCHEMA = "k8s.io/apimachinery/pkg/runtime/schema"
INFORMERS = "k8s.io/client-go/informers"
KUBERNETES = "k8s.io/client-go/kubernetes"
FAKE_CLIENTSET = "k8s.io/client-go/kubernetes/fake"
TOOLS_CACHE = "k8s.io/client-go/tools/cache"
SAMBER_LO = "github.com/samber/lo"
# knative.dev/pkg's injection: one informer per kind, registered by import, from a factory `sharedmain` starts
KNATIVE_INFORMERS = "knative.dev/pkg/client/injection/kube/informers"
KNATIVE_INJECTION = "knative.dev/pkg/injection"
KNATIVE_SHAREDMAIN = "knative.dev/pkg/injection/sharedmain"  # its Main* start the injected informers

# controller-runtime functions that read the object through the client they are given before writing it
READ_FIRST = frozenset({"CreateOrUpdate", "CreateOrPatch"})

# Packages that re-export the manager options and builder entry points (ctrl.Options, ctrl.NewManager, …).
MANAGER_PACKAGES = frozenset({CONTROLLER_RUNTIME, CR_MANAGER})
# multicluster-runtime's manager: `mcmanager.New(cfg, provider, opts)` builds a controller-runtime manager from opts
MC_MANAGER = "sigs.k8s.io/multicluster-runtime/pkg/manager"
BUILDER_PACKAGES = frozenset({CONTROLLER_RUNTIME, CR_BUILDER})


@direct_init
@dataclass(frozen=True, slots=True)
class TypeRef:
    """A named Go type as its import path and name, with pointer and slice wrappers."""

    package: str  # import path; "" for predeclared types
    name: str
    pointer: bool = False
    slice: bool = False

    @property
    def base(self) -> TypeRef:
        return self if not self.pointer and not self.slice else TypeRef(self.package, self.name)

    def is_(self, package: str | frozenset[str], *names: str) -> bool:
        if isinstance(package, str):
            return self.package == package and self.name in names
        return self.package in package and self.name in names


CLIENT_TYPES = frozenset({"Client", "Reader", "WithWatch", "Writer", "StatusClient", "SubResourceClient"})


def is_client_type(ref: TypeRef | None) -> bool:
    """controller-runtime client interfaces, and the cache (which is a Reader)."""
    if ref is None:
        return False
    return ref.is_(CR_CLIENT, *CLIENT_TYPES) or ref.is_(CR_CACHE, "Cache") or ref.is_(CR_CLUSTER, "Cluster")


# The nodes the passes over a file read, found in one walk of the tree: each separate walk costs a good part
# of the parse itself.
INDEXED_KINDS: tuple[str, ...] = (
    "call_expression",
    "composite_literal",
    "assignment_statement",
    "field_declaration",
    "import_spec",
    "package_clause",
    "return_statement",  # functions handed back as values (callgraph._handed_values)
    "send_statement",
)
# and what declares a function's locals: each function's scope takes them from here (GoFile.declaring_within)
INDEXED_KINDS += tuple(kind for kind in DECLARING if kind not in INDEXED_KINDS)
_INDEXED_IDS = {parser.language().id_for_node_kind(kind, True): position for position, kind in enumerate(INDEXED_KINDS)}


def index_nodes(tree: tree_sitter.Tree) -> dict[str, list[tree_sitter.Node]]:
    """Every node of the INDEXED_KINDS in the tree, by kind, each list in document order (an outer node before
    the one it starts with).

    A walk with a tree cursor, which makes a node object only for the nodes with children (none of the kinds
    is a leaf): an eighth faster than the query matching the kinds, which makes none it does not capture but
    runs its matching on every node, leaves included.
    """
    found: list[list[tree_sitter.Node]] = [[] for _ in INDEXED_KINDS]
    position_of = _INDEXED_IDS.get
    cursor = tree.walk()
    while True:
        if cursor.goto_first_child():
            cursor.goto_parent()  # back to the node now known to have children, then on into them
            node = cursor.node
            cursor.goto_first_child()
            position = position_of(node.kind_id)  # type: ignore[union-attr]  # a cursor is always on a node
            if position is not None:
                found[position].append(node)  # type: ignore[arg-type]
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return dict(zip(INDEXED_KINDS, found, strict=True))


@direct_init
@dataclass(frozen=True, slots=True)
class Call:
    """A call expression with the parts every pass over a file's calls reads, taken apart once."""

    node: tree_sitter.Node
    name: str  # the selected name of `x.Name(…)`, else the function's whole text (`helper`, `new`)
    operand: tree_sitter.Node | None  # the `x` of `x.Name(…)`; None when the function is not a selector
    operand_text: str
    method: tree_sitter.Node | None  # the field identifier of `x.Name(…)`
    arguments: tree_sitter.Node | None


def call_parts(node: tree_sitter.Node) -> Call | None:
    """A call expression taken apart; None where it names no function."""
    function = node.child_by_field_name("function")
    if function is None:
        return None
    arguments = node.child_by_field_name("arguments")
    if function.type != "selector_expression":
        return Call(node, parser.text(function), None, "", None, arguments)
    operand, method = function.child_by_field_name("operand"), function.child_by_field_name("field")
    return Call(node, parser.text(method), operand, parser.text(operand), method, arguments)


_DECLARED_FUNCTIONS = ("function_declaration", "method_declaration")


class Assignment(NamedTuple):
    """An assignment statement's expression lists, and the expressions in them (comments left out): neither
    list is empty. Shared by the passes reading them: not to be changed."""

    left: tree_sitter.Node
    right: tree_sitter.Node
    targets: list[tree_sitter.Node]
    values: list[tree_sitter.Node]


@dataclass(slots=True)
class GoFile:
    """One parsed Go file of the module."""

    source: SourceFile
    tree: tree_sitter.Tree
    directory: str  # POSIX folder relative to the module root
    package_path: str  # import path of its package
    package_name: str
    imports: dict[str, str]  # alias -> import path
    index: dict[str, list[tree_sitter.Node]]  # from index_nodes
    function_scopes: dict[int, object] = field(default_factory=dict)  # function node id -> scope (lazily built)
    # node id -> the names declared before it that hide packages (edits.names_visible_at): each fix of the options
    # literal a manager is built from asks again
    visible_names: dict[int, frozenset[str]] = field(default_factory=dict)
    resolved_types: dict[int, TypeRef | None] = field(default_factory=dict)  # node id -> declarations.resolve_type
    # (import path, alias) -> where and what a fix inserts to import it (edits._Imports)
    import_insertions: dict[tuple[str, str], tuple[int, str, bool]] = field(default_factory=dict)
    _calls: list[Call] | None = None
    _assignments: list[Assignment] | None = None
    _declaring: tuple[list[int], list[tree_sitter.Node]] | None = None  # see declaring_within
    _starts: dict[str, list[int]] = field(default_factory=dict)  # per indexed kind, its nodes' start bytes
    _called_methods: frozenset[str] | None = None
    _is_test: bool | None = None  # see is_test, which module-wide passes ask of every file
    import_paths: frozenset[str] | None = None  # every path the file imports (imports.imported_paths), once asked
    _top_level: tuple[list[int], list[tree_sitter.Node]] | None = None  # start bytes and the root's children
    path: str = field(init=False)  # the source's display path: a field, as every pass keys by it

    def __post_init__(self) -> None:
        self.path = self.source.path

    @property
    def is_test(self) -> bool:
        """A `_test.go` file, or a file of a test folder (`test/`, `e2e/`) of the module: analyzed with
        --include-tests only. Folders above the module's root do not count: a module checked as
        `tests/operator` is no test code."""
        if self._is_test is None:
            name = self.path.rsplit("/", 1)[-1]
            self._is_test = is_test_file(name) or any(part in TEST_DIRECTORIES for part in self.directory.split("/"))
        return self._is_test

    def enclosing_function(self, node: tree_sitter.Node) -> tree_sitter.Node | None:
        """scope.enclosing_function of a node in this file, found among the root's children by position when a
        function or method declaration holds it: Go declares those at the top level only, and each `parent`
        step costs a descent from the root in tree-sitter. Package-level function literals take the walk."""
        if self._top_level is None:
            children = self.tree.root_node.children
            self._top_level = [child.start_byte for child in children], children
        starts, children = self._top_level
        index = bisect.bisect_right(starts, node.start_byte) - 1
        top = children[index] if index >= 0 and node.type != "source_file" else None
        if top is not None and top.type in _DECLARED_FUNCTIONS and node.end_byte <= top.end_byte:
            return top
        return enclosing_function(node)

    def calls(self) -> list[Call]:
        """Every call expression in document order, taken apart once: five passes read them."""
        if self._calls is None:
            self._calls = [call for node in self.index["call_expression"] if (call := call_parts(node)) is not None]
        return self._calls

    def declaring_within(self, node: tree_sitter.Node) -> list[tree_sitter.Node]:
        """The statements declaring locals (scope.DECLARING) inside a node, in document order: one query of the
        file found them, where a query per function cost about as much as the rest of building its scope."""
        if self._declaring is None:
            found = sorted((item for kind in DECLARING for item in self.index[kind]), key=parser.position)
            self._declaring = [item.start_byte for item in found], found
        return _inside(*self._declaring, node)

    def called_methods(self) -> frozenset[str]:
        """The names of the methods the file calls (`M` of `x.M(…)`): a pass looking for one call skips the
        files without it."""
        if self._called_methods is None:
            self._called_methods = frozenset(call.name for call in self.calls() if call.operand is not None)
        return self._called_methods

    def nodes(self, kind: str) -> list[tree_sitter.Node]:
        """Every node of one of the INDEXED_KINDS, in document order."""
        return self.index[kind]

    def nodes_within(self, kind: str, node: tree_sitter.Node) -> list[tree_sitter.Node]:
        """The nodes of one of the INDEXED_KINDS inside a node (not around it), in document order: found by their
        place among the file's, where a query of the node walked all of it."""
        found = self.index[kind]
        starts = self._starts.get(kind)
        if starts is None:
            starts = self._starts[kind] = [item.start_byte for item in found]
        return _inside(starts, found, node)

    def assignments(self) -> list[Assignment]:
        """Every assignment statement (`=`, `+=`…; `:=` is a declaration) with targets and values, taken apart once:
        about twenty passes read them."""
        if self._assignments is None:
            self._assignments = []
            for statement in self.index["assignment_statement"]:
                left, right = statement.child_by_field_name("left"), statement.child_by_field_name("right")
                if left is not None and right is not None and left.named_child_count and right.named_child_count:
                    self._assignments.append(Assignment(left, right, parser.named(left), parser.named(right)))
        return self._assignments

    def span(self, node: tree_sitter.Node) -> Span:
        return parser.span(self.source, node)

    def name_span(self, call: tree_sitter.Node) -> Span:
        """The span of a call's function name token: `Owns` in `b.Owns(x)`, `NewManager` in `ctrl.NewManager(…)`."""
        function = call.child_by_field_name("function")
        if function is not None and function.type == "selector_expression":
            name = function.child_by_field_name("field")
            if name is not None:
                return self.span(name)
        if function is not None and function.type == "generic_type":
            inner = function.child_by_field_name("type")
            if inner is not None:
                function = inner
        if function is not None and function.type == "qualified_type":
            name = function.child_by_field_name("name")
            if name is not None:
                return self.span(name)
        return self.span(function if function is not None else call)


def shared_folders(one: str, other: str) -> int:
    """How many leading folders two module-relative folders share (the module root, "", has none)."""
    pairs = zip(one.split("/") if one else [], other.split("/") if other else [], strict=False)
    return sum(1 for _ in itertools.takewhile(lambda pair: pair[0] == pair[1], pairs))


def _inside(starts: list[int], found: list[tree_sitter.Node], node: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The nodes of `found` (in document order, `starts` their start bytes) inside `node`, by position. A node
    starting where `node` does may hold it (the call of `func() {…}()` around its literal): it is left out."""
    inside = found[bisect.bisect_left(starts, node.start_byte) : bisect.bisect_left(starts, node.end_byte)]
    return [item for item in inside if item.end_byte <= node.end_byte]
