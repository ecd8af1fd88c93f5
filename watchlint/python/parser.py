"""libcst parsing with the metadata the front-end reads (positions, qualified names, parents), and comments.

Qualified names come from the module's imports (`from kubernetes import client as k8s`, `import kopf as k`),
read in the same walk that records parents: libcst's QualifiedNameProvider builds full scopes first, which
costs eight times the parse itself, and the front-end only ever asks what an imported name stands for.
Nothing here escapes the front-end (DESIGN §2.2).
"""

from __future__ import annotations

import ast
import builtins
import io
import itertools
import re
import tokenize
import warnings
from collections.abc import Mapping, Sequence
from typing import cast

import libcst
from libcst.helpers import get_full_name_for_node

from watchlint.facts import Comment
from watchlint.python.positions import NodePositions, first_lines, positions_of
from watchlint.python.walk import preorder
from watchlint.source import SourceFile, Span

# comments without these cannot suppress anything (an upper-case NOQA counts, as it does for flake8)
DIRECTIVE_MARKERS = re.compile(rb"noqa|watchlint", re.IGNORECASE)


class PythonSyntaxError(Exception):
    """A file libcst cannot parse; the message names the line."""

    def __init__(self, message: str, *, is_python2: bool = False, line: int | None = None) -> None:
        super().__init__(message)
        self.is_python2 = is_python2  # Python 2 code is skipped on purpose: a warning, not an error
        self.line = line


_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"()[]{}")
MAX_NESTING = 200  # CPython's own parser limit; libcst's native parser crashes the process far beyond it
MAX_EXPRESSION_DEPTH = 1000  # libcst takes 0.2 s on a 1k-operand `1+1+…` chain, seconds on 2k, crashes near 7k

# Constructs only Python 2 accepts, tested on the line where parsing as Python 3 failed.
_PYTHON2 = (
    (re.compile(rb"^[ \t]*print[ \t]+(?![\s(=.,)\]}:;]|>>?=|$)"), "print statement"),
    # the bound name in lower case: Python 3.14 reads `except KeyError, TypeError:` as a tuple (PEP 758)
    (re.compile(rb"^[ \t]*except[ \t]+(?:\([^)]*\)|[\w.]+)[ \t]*,[ \t]*[a-z_]\w*[ \t]*:"), "`except X, e:`"),
    (re.compile(rb"^[ \t]*raise[ \t]+[\w.]+[ \t]*,.*$"), "`raise X, message`"),
    (re.compile(rb"^[ \t]*exec[ \t]+[\"'\w]"), "exec statement"),
    (re.compile(rb"[=(,][ \t]*0[0-7]*[1-7][0-7]*\b(?![.eEjJxXoObB])"), "octal literal"),
    (re.compile(rb"\bur[\"']"), "ur'' string"),
)


def parse(source: SourceFile) -> libcst.Module:
    """Parse with libcst; CPython's parser (fast, and precise about the line) speaks first on broken files,
    and refuses the expressions libcst's native parser cannot take (it recurses once per operator)."""
    return _parse(source)[0]


def parse_file(source: SourceFile) -> ParsedFile:
    """`parse`, keeping what CPython's parser says of the top-level statements for the positions."""
    module, lines = _parse(source)
    return ParsedFile(source, module, lines)


def _parse(source: SourceFile) -> tuple[libcst.Module, tuple[int, ...] | None]:
    tree, problem = _compile(source)
    depth = expression_depth(tree, source) if tree is not None else 0
    if depth > MAX_EXPRESSION_DEPTH:
        raise PythonSyntaxError(f"expression nested {depth} deep (more than {MAX_EXPRESSION_DEPTH})")
    try:
        module = libcst.parse_module(source.data)
    except libcst.ParserSyntaxError as error:
        line = (problem[0] if problem else 0) or error.raw_line
        raise PythonSyntaxError(f"syntax error at line {line}", line=line or None) from None
    return module, first_lines(tree) if tree is not None else None


def check_syntax(source: SourceFile) -> ast.Module | None:
    """Raise PythonSyntaxError for a file that does not parse, cheaply: files without any Kubernetes
    library name are not worth libcst's time, but a broken file is still worth a notification. CPython's
    tree of the file, or None where only libcst could parse it."""
    tree, problem = _compile(source)
    if problem is not None:
        parse(source)  # CPython 3.11 rejects newer syntax that libcst accepts: libcst has the last word
    return tree


def imported_modules(tree: ast.Module) -> frozenset[str]:
    """The modules a file's top-level imports name, without the dots of relative imports: `from .a import b`
    names `a` and `a.b` (b may be a module), `from . import b` names `b`, `import a.b as c` names `a.b`."""
    found: set[str] = set()
    for statement in tree.body:
        if isinstance(statement, ast.Import):
            found.update(alias.name for alias in statement.names)
        elif isinstance(statement, ast.ImportFrom):
            base = statement.module or ""
            found.update(f"{base}.{alias.name}" if base else alias.name for alias in statement.names)
            if base:
                found.add(base)
    return frozenset(found)


def _compile(source: SourceFile) -> tuple[ast.Module | None, tuple[int, str] | None]:
    """CPython's tree, or its line and reason for a file it cannot parse. A Python 2 file is refused right
    here, since libcst accepts some Python 2 (`except X, e:`) and would analyze it as something it is not."""
    depth = _bracket_depth(source.data)
    if depth > MAX_NESTING:
        raise PythonSyntaxError(f"brackets nested {depth} deep (more than {MAX_NESTING})")
    try:
        with warnings.catch_warnings():  # invalid escapes in the analyzed code are not ours to report
            warnings.simplefilter("ignore")
            tree = ast.parse(source.data, source.path)
    except SyntaxError as error:
        line, reason = error.lineno or 0, error.msg or ""
    except (RecursionError, MemoryError):
        # CPython gives up on 100k-operand chains or 10k nested lambdas; libcst would hang or crash on them
        raise PythonSyntaxError("nested too deeply to parse") from None
    except ValueError:  # NUL bytes: decode_source refuses them first
        return None, (0, "")
    else:
        return tree, None
    construct = python2_construct(source.line_bytes(line) if 0 < line <= source.line_count else b"", reason)
    if construct is not None:
        raise PythonSyntaxError(f"looks like Python 2 ({construct} at line {line})", is_python2=True, line=line)
    return None, (line, reason)


def expression_depth(tree: ast.AST, source: SourceFile | None = None) -> int:
    """How deep expressions nest, counting each operand of an `and`/`or` chain and each comparison as a
    level, as libcst's parser does; walked without recursion, so a deep tree cannot overflow our stack.

    With the `source` of the tree, an expression shorter than MAX_EXPRESSION_DEPTH / 2 bytes is not walked:
    each level of nesting takes at least one byte of its own, so a short one cannot be too deep, and the
    depth returned is exact only when it may exceed the limit (almost every file is then walked at its
    statements alone)."""
    if source is None:
        return _depth_below(tree)
    line_starts = source.line_starts
    deepest = 0
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, ast.expr):
                pending.append(child)
                continue
            start = line_starts[child.lineno - 1] + child.col_offset
            end = line_starts[(child.end_lineno or child.lineno) - 1] + (child.end_col_offset or 0)
            if end - start >= MAX_EXPRESSION_DEPTH // 2:  # half: a margin over the one-byte-per-level bound
                deepest = max(deepest, _depth_below(child))
    return deepest


def _depth_below(tree: ast.AST, depth: int = 0) -> int:
    deepest = 0
    pending: list[tuple[ast.AST, int]] = [(tree, depth)]
    while pending:
        node, depth = pending.pop()
        deepest = max(deepest, depth)
        weight = 0
        if isinstance(node, ast.expr):
            weight = 1
            if isinstance(node, ast.BoolOp):
                weight = len(node.values)
            elif isinstance(node, ast.Compare):
                weight = len(node.ops)
        for child in ast.iter_child_nodes(node):
            pending.append((child, depth + weight if isinstance(child, ast.expr) else 0))
    return deepest


def python2_construct(line: bytes, reason: str = "") -> str | None:
    """The Python 2 construct on the line where parsing failed, or None when it is an ordinary error."""
    if "Missing parentheses in call to 'print'" in reason:
        return "print statement"
    return next((construct for pattern, construct in _PYTHON2 if pattern.search(line)), None)


def _bracket_depth(data: bytes) -> int:
    """The deepest bracket nesting, counted on tokens once a cheap byte count says it may be deep."""
    brackets = data.translate(None, _NOT_BRACKETS)
    rough = max(itertools.accumulate(1 if byte in b"([{" else -1 for byte in brackets), default=0)
    if rough <= MAX_NESTING:
        return rough
    depth = deepest = 0
    try:
        for token in tokenize.tokenize(io.BytesIO(data).readline):
            if token.type == tokenize.OP and token.string in "([{":
                depth += 1
                deepest = max(deepest, depth)
            elif token.type == tokenize.OP and token.string in ")]}":
                depth -= 1
    except (tokenize.TokenError, SyntaxError):
        pass
    return deepest


class ParsedFile:
    """One parsed file and the metadata the extractors read: spans, qualified names and parents."""

    def __init__(self, source: SourceFile, module: libcst.Module, statement_lines: Sequence[int] | None = None) -> None:
        """`statement_lines`: where CPython's parser found each top-level statement (see positions.first_lines);
        with them, positions are generated for the statements asked about only."""
        self.source = source
        self.module = module
        self._statement_lines = statement_lines
        self._positions: NodePositions | None = None  # on first use
        index = _Index(self.module)  # parents, calls and imports in one walk: metadata providers walk once each
        self.parents: Mapping[libcst.CSTNode, libcst.CSTNode] = index.parents
        self.calls: tuple[libcst.Call, ...] = tuple(index.calls)
        self.flow_nodes: tuple[libcst.CSTNode, ...] = tuple(index.flow_nodes)  # what flow.Flow reads
        self._imported: Mapping[str, frozenset[str]] = {
            name: frozenset(targets) for name, targets in index.imported.items()
        }
        self._starred = tuple(index.starred)
        # the names the file binds itself, which no starred module gives (`def run(): …` beside `from kopf import *`)
        self._bound = _bound_names(module, self.flow_nodes, self.parents) if self._starred else frozenset()

    @property
    def path(self) -> str:
        return self.source.path

    def span(self, node: libcst.CSTNode) -> Span:
        """The node's span; libcst counts columns from 0, spans from 1."""
        if self._positions is None:
            self._positions = positions_of(self.module, self.parents, self._statement_lines)
        where = self._positions[node]
        return Span(self.path, where.start.line, where.start.column + 1, where.end.line, where.end.column + 1)

    def first_line_span(self, node: libcst.CSTNode) -> Span:
        """From the node's start to the end of that line, or of the node when it ends there."""
        span = self.span(node)
        if span.end_line == span.line:
            return span
        line = self.source.line_bytes(span.line).decode("utf-8", errors="replace").rstrip()
        return Span(self.path, span.line, span.column, span.line, len(line) + 1)

    def qualified_names(self, node: libcst.CSTNode) -> frozenset[str]:
        """What an imported name or an attribute of one stands for ("kubernetes.client.CoreV1Api"); names the
        module binds otherwise resolve to nothing. Relative imports keep their dots (".settings.NAMESPACE")."""
        if isinstance(node, libcst.Name):
            if _is_label(node, self.parents.get(node)):
                return frozenset()
            found = self._imported.get(node.value)
            if found is None and self._starred and node.value not in _BUILTINS and node.value not in self._bound:
                # `from kopf import *` then `on.event(…)`: a name no import binds may come from a starred module
                return frozenset(f"{module}.{node.value}" for module in self._starred)
            return found or frozenset()
        if isinstance(node, libcst.Attribute):
            value = node.value
            while isinstance(value, libcst.Call):  # `client.CoreV1Api().list_pod` reads as CoreV1Api.list_pod
                value = value.func
            heads = self.qualified_names(value)
            return frozenset(f"{head}.{node.attr.value}" for head in heads)
        return frozenset()

    def code(self, node: libcst.CSTNode) -> str:
        """The node's source, whitespace-normalised for messages and fingerprints."""
        return normalise(self.module.code_for_node(node))

    def parent(self, node: libcst.CSTNode) -> libcst.CSTNode | None:
        return self.parents.get(node)


def _is_label(name: libcst.Name, parent: libcst.CSTNode | None) -> bool:
    """A name that labels something rather than reading a binding: the `watch` of `w.watch`, `watch=False`,
    a parameter, the name of a function or class."""
    if isinstance(parent, libcst.Attribute):
        return parent.attr is name
    if isinstance(parent, libcst.Arg):
        return parent.keyword is name
    if isinstance(parent, libcst.Param | libcst.FunctionDef | libcst.ClassDef):
        return parent.name is name
    return False


# Definitions, assignments, loops and returns: what the assignment tables of flow.Flow are built from.
_FLOW_NODES = frozenset(
    {
        libcst.FunctionDef,
        libcst.Assign,
        libcst.AnnAssign,
        libcst.NamedExpr,
        libcst.WithItem,
        libcst.Return,
        libcst.For,
    }
)


def _bound_names(
    module: libcst.Module, flow_nodes: Sequence[libcst.CSTNode], parents: Mapping[libcst.CSTNode, libcst.CSTNode]
) -> frozenset[str]:
    """The names the module binds at its top level: its functions and classes, assignments, `with … as` and `for`
    targets (a function's own locals and parameters bind only there)."""
    names: set[str] = set()
    for statement in module.body:
        if isinstance(statement, libcst.FunctionDef | libcst.ClassDef):
            names.add(statement.name.value)
    for node in flow_nodes:
        if isinstance(node, libcst.FunctionDef) or _in_a_body(node, parents):
            continue
        targets: list[libcst.CSTNode] = []
        if isinstance(node, libcst.Assign):
            targets = [target.target for target in node.targets]
        elif isinstance(node, libcst.AnnAssign | libcst.NamedExpr | libcst.For):
            targets = [node.target]
        elif isinstance(node, libcst.WithItem) and node.asname is not None:
            targets = [node.asname.name]
        for target in targets:
            elements = (
                [item.value for item in target.elements] if isinstance(target, libcst.Tuple | libcst.List) else [target]
            )
            names.update(element.value for element in elements if isinstance(element, libcst.Name))
    return frozenset(names)


def _in_a_body(node: libcst.CSTNode, parents: Mapping[libcst.CSTNode, libcst.CSTNode]) -> bool:
    """Whether a node sits in a function's or class's body."""
    current = parents.get(node)
    while current is not None:
        if isinstance(current, libcst.FunctionDef | libcst.ClassDef):
            return True
        current = parents.get(current)
    return False


class _Index:
    """Every node's parent, every call and every flow node in source order, and what each imported name stands for."""

    def __init__(self, module: libcst.Module) -> None:
        order, self.parents = preorder(module)
        self.calls: list[libcst.Call] = []
        self.flow_nodes: list[libcst.CSTNode] = []
        self.imported: dict[str, set[str]] = {}
        self.starred: list[str] = []  # the client libraries' modules imported with `*`
        for node in order:
            # By exact type: libcst's node classes are final, and isinstance on them goes through ABC checks.
            node_type = type(node)
            if node_type is libcst.Call:
                self.calls.append(cast(libcst.Call, node))
            elif node_type in _FLOW_NODES:
                self.flow_nodes.append(node)
            elif node_type is libcst.Import:
                self._import(cast(libcst.Import, node))
            elif node_type is libcst.ImportFrom:
                self._import_from(cast(libcst.ImportFrom, node))

    def _bind(self, name: str, target: str) -> None:
        self.imported.setdefault(name, set()).add(target)

    def _import(self, node: libcst.Import) -> None:
        for alias in node.names:
            target = get_full_name_for_node(alias.name) or ""
            if alias.asname is not None and isinstance(alias.asname.name, libcst.Name):
                self._bind(alias.asname.name.value, target)  # `import a.b as c`: c is a.b
            else:
                self._bind(target.partition(".")[0], target.partition(".")[0])  # `import a.b`: binds a

    def _import_from(self, node: libcst.ImportFrom) -> None:
        module = get_full_name_for_node(node.module) if node.module is not None else ""
        if isinstance(node.names, libcst.ImportStar):
            if module and not node.relative and module.partition(".")[0] in _STARRED_PACKAGES:
                self.starred.append(module)
            return
        prefix = "." * len(node.relative) + (module or "")
        for alias in node.names:
            name = get_full_name_for_node(alias.name) or ""
            target = f"{prefix}.{name}" if prefix and not prefix.endswith(".") else f"{prefix}{name}"
            bound = alias.asname.name if alias.asname is not None else None
            self._bind(bound.value if isinstance(bound, libcst.Name) else name, target)


# the packages whose names a `from … import *` brings into a module are followed (the front-ends' libraries)
_STARRED_PACKAGES = frozenset({"kopf", "kubernetes", "kubernetes_asyncio", "lightkube", "kr8s", "pykube"})
_BUILTINS = frozenset(dir(builtins))
_SPACE = re.compile(r"\s+")
_OPEN = re.compile(r"([(\[{]) ")
_CLOSE = re.compile(r",? ([)\]}])")


def normalise(code: str) -> str:
    """Collapse whitespace, drop comments and the padding and trailing commas of multi-line calls."""
    flat = _SPACE.sub(" ", _without_comments(code).replace("\\\n", " ")).strip()
    return _CLOSE.sub(r"\1", _OPEN.sub(r"\1", flat)).replace(",)", ")")


def _without_comments(code: str) -> str:
    """The code with its `# …` comments cut out (read by tokenize: a `#` in a string stays)."""
    if "#" not in code:
        return code
    lines = code.splitlines(keepends=True)
    try:
        comments = [
            token for token in tokenize.generate_tokens(io.StringIO(code).readline) if token.type == tokenize.COMMENT
        ]
    except (tokenize.TokenError, SyntaxError):
        return code
    for token in reversed(comments):  # each on its own line: cut from the end so columns stay true
        row, start = token.start
        line = lines[row - 1]
        lines[row - 1] = line[:start] + line[token.end[1] :]
    return "".join(lines)


def extract_comments(source: SourceFile) -> tuple[Comment, ...]:
    """Collect the comments that may carry a suppression directive, with tokenize (libcst parsed the file)."""
    if not DIRECTIVE_MARKERS.search(source.data):
        return ()
    comments = []
    try:
        tokens = list(tokenize.tokenize(io.BytesIO(source.data).readline))
    except (tokenize.TokenError, SyntaxError):
        return ()
    for token in tokens:
        if token.type != tokenize.COMMENT or not DIRECTIVE_MARKERS.search(token.string.encode()):
            continue
        (line, column), (end_line, end_column) = token.start, token.end
        span = Span(source.path, line, column + 1, end_line, end_column + 1)
        comments.append(Comment(span, token.string, not token.line[:column].strip()))
    return tuple(comments)
