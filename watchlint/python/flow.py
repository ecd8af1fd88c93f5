"""Where a value comes from: assignments to local and module names, the items of a literal a loop runs over,
`self` attributes, helper returns, the module-level names of other modules of the project, and keyword dicts
filled entry by entry.

The API object of a call flows through variables (`v1 = client.CoreV1Api()`), attributes (`self.v1`),
small helpers (`def core(): return client.CoreV1Api()`) and imports (`from .kube import core`); following
them a few steps is enough for operator code (SPEC §3.2), and anything further is "unknown", never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Sequence
from typing import TypeVar

import libcst

from watchlint.debuglog import debug
from watchlint.python.parser import ParsedFile, parse_file
from watchlint.source import SourceFile

_Definition = TypeVar("_Definition", libcst.ClassDef, libcst.FunctionDef)

MAX_STEPS = 6  # assignment chains deeper than this are left unknown
Scope = libcst.Module | libcst.FunctionDef | libcst.ClassDef


class _Collector:
    """Record every assignment by (scope, name), `self.x = …` by (class, attribute), and returns.

    It reads the nodes the file's index walk kept (ParsedFile.flow_nodes, in source order) rather than
    walking the tree again; a node's scope is the nearest function or class around it, else the module."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow

    def collect(self) -> None:
        file = self.flow.file
        for node in file.flow_nodes:
            if isinstance(node, libcst.Return):
                function = self.flow.enclosing_function(node)
                if function is not None and node.value is not None:
                    self.flow.returns.setdefault(function, []).append(node.value)
            else:
                self._record(self._scope_of(file, node), node)

    def _record(self, scope: Scope, node: libcst.CSTNode) -> None:
        if isinstance(node, libcst.FunctionDef):
            self.flow.functions.setdefault((scope, node.name.value), node)
            self.flow.function_names.add(node.name.value)
            if isinstance(scope, libcst.ClassDef):
                self.flow.method_names.add(node.name.value)
        elif isinstance(node, libcst.Assign):
            for target in node.targets:
                self._bind(scope, target.target, node.value)
        elif isinstance(node, libcst.AnnAssign | libcst.NamedExpr) and node.value is not None:
            self._bind(scope, node.target, node.value)
        elif isinstance(node, libcst.WithItem) and node.asname is not None:
            self._bind(scope, node.asname.name, node.item)
        elif isinstance(node, libcst.For) and isinstance(node.iter, libcst.List | libcst.Tuple | libcst.Set):
            # `for kind in [Endpoints, Service]:`: the name holds each item in turn
            for element in node.iter.elements:
                if not isinstance(element, libcst.StarredElement):
                    self._bind(scope, node.target, element.value)

    @staticmethod
    def _scope_of(file: ParsedFile, node: libcst.CSTNode) -> Scope:
        current = file.parent(node)
        while current is not None and not isinstance(current, libcst.FunctionDef | libcst.ClassDef):
            current = file.parent(current)
        return current if current is not None else file.module

    def _bind(self, scope: Scope, target: libcst.BaseExpression, value: libcst.BaseExpression) -> None:
        if isinstance(target, libcst.Name):
            self.flow.names.setdefault((scope, target.value), []).append(value)
        elif isinstance(target, libcst.Attribute) and isinstance(target.value, libcst.Name):
            owner = self.flow.self_class(scope, target.value.value) if isinstance(scope, libcst.FunctionDef) else None
            if owner is not None:
                self.flow.attributes.setdefault((owner, target.attr.value), []).append(value)
        elif isinstance(target, libcst.Subscript) and isinstance(target.value, libcst.Name):
            key = _string_index(target)
            if key is not None:  # options["namespaces"] = […]: an entry of a keyword dict built in steps
                self.flow.entries.setdefault((scope, target.value.value), []).append((key, value))
        else:
            for left, right in _pairs(target, value):
                self._bind(scope, left, right)


class Flow:
    """Assignment tables of one file, and the lookups that follow them."""

    def __init__(self, file: ParsedFile) -> None:
        self.file = file
        self.names: dict[tuple[Scope, str], list[libcst.BaseExpression]] = {}
        self.attributes: dict[tuple[libcst.ClassDef, str], list[libcst.BaseExpression]] = {}
        self.functions: dict[tuple[Scope, str], libcst.FunctionDef] = {}
        self.function_names: set[str] = set()
        self.method_names: set[str] = set()
        self.returns: dict[libcst.FunctionDef, list[libcst.BaseExpression]] = {}
        self.entries: dict[tuple[Scope, str], list[tuple[str, libcst.BaseExpression]]] = {}
        self.project: Project | None = None  # set once every file of the unit is parsed
        _Collector(self).collect()

    def origins(self, node: libcst.BaseExpression) -> list[libcst.CSTNode]:
        """The expressions (or parameters) a value may come from; the node itself when nothing is known."""
        found: list[libcst.CSTNode] = []
        self._follow(node, 0, set(), found)
        return found

    def owner(self, node: libcst.CSTNode) -> Flow:
        """The flow of the file a node belongs to: origins may lie in another module of the project."""
        if node in self.file.parents or node is self.file.module or self.project is None:
            return self
        return self.project.owner(node) or self

    def qualified_names(self, node: libcst.CSTNode) -> frozenset[str]:
        """What libcst resolves a node to, read in the file the node belongs to."""
        return self.owner(node).file.qualified_names(node)

    def is_builtin(self, node: libcst.BaseExpression, names: Collection[str]) -> bool:
        """A name of one of these builtins that nothing in scope rebinds: no assignment, parameter or import."""
        return (
            isinstance(node, libcst.Name)
            and node.value in names
            and not self.sources(node)
            and not self.qualified_names(node)
        )

    def sources(self, node: libcst.CSTNode) -> list[libcst.CSTNode] | None:
        """One step back: the values assigned to a name or attribute, a helper's returns; None when unknown."""
        while isinstance(node, libcst.Await):
            node = node.expression
        return self.owner(node)._sources(node)

    def _follow(self, node: libcst.CSTNode, steps: int, seen: set[int], found: list[libcst.CSTNode]) -> None:
        while isinstance(node, libcst.Await):
            node = node.expression
        if id(node) in seen:
            return
        seen.add(id(node))
        sources = self.sources(node) if steps < MAX_STEPS else None
        if not sources:
            found.append(node)
            return
        for source in sources:
            if isinstance(source, libcst.Param):
                found.append(source)
            else:
                self._follow(source, steps + 1, seen, found)

    def _sources(self, node: libcst.CSTNode) -> list[libcst.CSTNode] | None:
        if isinstance(node, libcst.Name):
            return self._name_sources(node)
        if isinstance(node, libcst.Attribute) and isinstance(node.value, libcst.Name):
            function = self.enclosing_function(node)
            owner = self.self_class(function, node.value.value) if function is not None else None
            if owner is not None:  # `self.x`, `cls.x`
                return self.class_values(owner, node.attr.value)
            return self._class_attribute(node) or self._imported(node)
        if isinstance(node, libcst.Call) and isinstance(node.func, libcst.Name):
            helper = self.local_function(node.func)
            if helper is not None and helper in self.returns:
                return list(self.returns[helper])
        if isinstance(node, libcst.Call) and isinstance(node.func, libcst.Attribute):
            receiver = node.func.value  # `self.list_method()`, `cls.watch_method()`: a method of the class
            helper = self.method(node.func, receiver.value) if isinstance(receiver, libcst.Name) else None
            if helper is not None and helper in self.returns:
                return list(self.returns[helper])
        return None

    def _class_attribute(self, node: libcst.Attribute) -> list[libcst.CSTNode] | None:
        """What a class of the project sets an attribute to, in its body (anarchy's `Anarchy.domain`) or in a
        method (`cls.audit_pods = True`), read on the class itself."""
        found = self.project_class(node.value)
        if found is None:
            return None
        flow, owner = found
        return flow.class_values(owner, node.attr.value) or None

    def class_values(self, owner: libcst.ClassDef, name: str) -> list[libcst.CSTNode]:
        """What a class of this file sets an attribute to, in a method or in its body."""
        return [*self.attributes.get((owner, name), []), *self.names.get((owner, name), [])]

    def _imported(self, node: libcst.CSTNode) -> list[libcst.CSTNode] | None:
        """A module-level name of another module of the project (`from .settings import NAMESPACE`)."""
        if self.project is None:
            return None
        for name in sorted(self.file.qualified_names(node)):
            values = self.project.module_values(name)
            if values:
                return list(values)
        return None

    def _name_sources(self, node: libcst.Name) -> list[libcst.CSTNode] | None:
        name = node.value
        for scope in self.scope_chain(node):
            values = self.names.get((scope, name))
            if values:
                return list(values)
            if isinstance(scope, libcst.FunctionDef):
                param = _param(scope, name)
                if param is not None:
                    return [param]
        return self._imported(node)

    def dict_entries(self, name: libcst.Name) -> list[tuple[str, libcst.BaseExpression]]:
        """The `name["key"] = value` statements of the scope a name is used in."""
        for scope in self.scope_chain(name):
            if (scope, name.value) in self.names:
                return list(self.entries.get((scope, name.value), []))
        return []

    def scope_chain(self, node: libcst.CSTNode) -> Iterator[Scope]:
        """The function scopes around a node, innermost first, then the module (class bodies are skipped,
        as Python skips them when it resolves a name inside a method)."""
        current = self.file.parent(node)
        while current is not None:
            if isinstance(current, libcst.FunctionDef | libcst.Module):
                yield current
            current = self.file.parent(current)

    def enclosing_function(self, node: libcst.CSTNode) -> libcst.FunctionDef | None:
        return next((s for s in self.scope_chain(node) if isinstance(s, libcst.FunctionDef)), None)

    def enclosing_class(self, node: libcst.CSTNode) -> libcst.ClassDef | None:
        current = self.file.parent(node)
        while current is not None and not isinstance(current, libcst.ClassDef):
            current = self.file.parent(current)
        return current

    def self_class(self, function: Scope, receiver: str) -> libcst.ClassDef | None:
        """The class of a method whose first parameter is `receiver` (`self`, `cls`)."""
        if not isinstance(function, libcst.FunctionDef):
            return None
        params = function.params.posonly_params or function.params.params
        if not params or params[0].name.value != receiver:
            return None
        block = self.file.parent(function)
        owner = self.file.parent(block) if block is not None else None
        return owner if isinstance(owner, libcst.ClassDef) else None

    def local_function(self, name: libcst.Name) -> libcst.FunctionDef | None:
        """The function of this file a bare name calls, looked up like any name."""
        for scope in self.scope_chain(name):
            found = self.functions.get((scope, name.value))
            if found is not None:
                return found
        return None

    def method(self, attribute: libcst.Attribute, receiver: str) -> libcst.FunctionDef | None:
        """The method `self.name` calls, when `self` is the first parameter of a method of its class."""
        function = self.enclosing_function(attribute)
        owner = self.self_class(function, receiver) if function is not None else None
        return self.functions.get((owner, attribute.attr.value)) if owner is not None else None

    def project_class(self, node: libcst.BaseExpression) -> tuple[Flow, libcst.ClassDef] | None:
        """The class of the project a name refers to, with the flow of its module: defined at the top of this
        module, or imported from another module of the project."""
        if isinstance(node, libcst.Name):
            found = self._top_level(libcst.ClassDef, node.value)
            if found is not None:
                return self, found
        return self._imported_definition(node, libcst.ClassDef)

    def project_function(self, node: libcst.BaseExpression) -> libcst.FunctionDef | None:
        """The function of the project a call names: of this module, or imported from another one."""
        defined = self.project_definition(node)
        return defined[1] if defined is not None else None

    def names_the_project(self, node: libcst.BaseExpression) -> bool:
        """Whether a name is imported from a module of the project (a function its package re-exports, a
        class), by the module names alone: nothing is parsed."""
        project = self.project
        if project is None:
            return False
        for qualified in self.qualified_names(node):
            parts = qualified.lstrip(".").split(".")
            prefixes = (".".join(parts[:end]) for end in range(len(parts) - 1, 0, -1))
            if any(names_module(prefix, dotted) for prefix in prefixes for dotted in project.modules):
                return True
        return False

    def project_definition(self, node: libcst.BaseExpression) -> tuple[Flow, libcst.FunctionDef] | None:
        """The function of the project a call names, with the flow of its module."""
        if isinstance(node, libcst.Name) and (local := self.local_function(node)) is not None:
            return self, local
        return self._imported_definition(node, libcst.FunctionDef)

    def _imported_definition(
        self, node: libcst.BaseExpression, kind: type[_Definition]
    ) -> tuple[Flow, _Definition] | None:
        """The class or function a name imports from another module of the project, with that module's flow."""
        if self.project is None:
            return None
        for qualified in sorted(self.qualified_names(node)):
            module, _, name = qualified.lstrip(".").rpartition(".")
            other = self.project.module_flow(module) if module else None
            found = other._top_level(kind, name) if other is not None else None
            if other is not None and found is not None:
                return other, found
        return None

    def _top_level(self, kind: type[_Definition], name: str) -> _Definition | None:
        return next(
            (node for node in self.file.module.body if isinstance(node, kind) and node.name.value == name), None
        )

    def enclosing_name(self, node: libcst.CSTNode) -> str:
        """`Class.method` or `function` around a node, for line-free fingerprints; "" at module level."""
        function = self.enclosing_function(node)
        if function is None:
            return ""
        owner = self.enclosing_class(function)
        return f"{owner.name.value}.{function.name.value}" if owner is not None else function.name.value


def _param(function: libcst.FunctionDef, name: str) -> libcst.Param | None:
    params = function.params
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    for extra in (params.star_arg, params.star_kwarg):
        if isinstance(extra, libcst.Param):
            every.append(extra)
    return next((param for param in every if param.name.value == name), None)


def _pairs(
    target: libcst.BaseExpression, value: libcst.BaseExpression
) -> list[tuple[libcst.BaseExpression, libcst.BaseExpression]]:
    """`a, b = x, y`: the names and values side by side, when both sides are sequences of one length."""
    sequences = libcst.Tuple | libcst.List
    if not (isinstance(target, sequences) and isinstance(value, sequences)):
        return []
    if len(target.elements) != len(value.elements):
        return []
    return [(left.value, right.value) for left, right in zip(target.elements, value.elements, strict=True)]


def _string_index(target: libcst.Subscript) -> str | None:
    if len(target.slice) != 1 or not isinstance(target.slice[0].slice, libcst.Index):
        return None
    key = target.slice[0].slice.value
    if isinstance(key, libcst.SimpleString):
        value = key.evaluated_value
        return value if isinstance(value, str) else None
    return None


class Project:
    """The flows of every parsed file of a unit, so that a name imported from another module of the project
    (`from .settings import WATCH_NAMESPACE`, `settings.WATCH_NAMESPACE`) resolves to its assignment.
    Modules that name no client library are parsed only when such a name is looked up in them."""

    def __init__(self, flows: list[Flow], others: Sequence[SourceFile] = ()) -> None:
        self.flows = list(flows)
        self.modules: dict[str, Flow | SourceFile] = {module_name(flow.file.path): flow for flow in flows}
        self.modules.update((module_name(source.path), source) for source in others)
        for flow in flows:
            flow.project = self

    def release(self) -> None:
        """Let go of the flows, which refer back to the project: these cycles would keep every tree of the
        unit alive until a cyclic collection."""
        self.flows.clear()
        self.modules.clear()

    def owner(self, node: libcst.CSTNode) -> Flow | None:
        return next((flow for flow in self.flows if node in flow.file.parents or node is flow.file.module), None)

    def module_values(self, qualified: str) -> list[libcst.BaseExpression]:
        """The values assigned at module level to `package.module.NAME`, matched on the module's path."""
        module, _, name = qualified.lstrip(".").rpartition(".")
        flow = self.module_flow(module) if module else None
        return list(flow.names.get((flow.file.module, name), [])) if flow is not None else []

    def assigns_attribute(self, name: str) -> bool:
        """Whether any module of the project assigns an attribute of that name (`cls.running = True`,
        `Anarchy.running = …`, `setattr(…, "running", …)`), by a search of their text."""
        assigned = re.compile(rb"\.\s*" + re.escape(name.encode()) + rb"\s*(?:=(?!=)|\+=|-=)|setattr\(")
        return any(name.encode() in data and assigned.search(data) for _, data in self.texts())

    def texts(self) -> list[tuple[str, bytes]]:
        """Each module's dotted name and source text, whether it was parsed or not."""
        return [
            (dotted, entry.file.source.data if isinstance(entry, Flow) else entry.data)
            for dotted, entry in self.modules.items()
        ]

    def module_flow(self, module: str) -> Flow | None:
        """The flow of the project module `package.module`, matched on its path; None when unknown or ambiguous."""
        found = [dotted for dotted in self.modules if names_module(module, dotted)]
        return self.flow_of(found[0]) if len(found) == 1 else None

    def flow_of(self, dotted: str) -> Flow | None:
        """The flow of the module `dotted` (a key of `modules`), parsed now if it was not; None if it cannot be."""
        entry = self.modules[dotted]
        if isinstance(entry, Flow):
            return entry
        try:
            flow = Flow(parse_file(entry))
        except Exception:  # a module we only wanted a constant from must not fail the unit
            debug(__name__, "cannot read names from %s", entry.path)
            flow = None
        if flow is not None:
            flow.project = self
            self.flows.append(flow)
            self.modules[dotted] = flow
        return flow


def names_module(imported: str, dotted: str) -> bool:
    """Whether an imported module name (without the dots of a relative import) can be the project module
    `dotted` (named after its path: see module_name)."""
    return dotted == imported or dotted.endswith("." + imported)


def module_name(path: str) -> str:
    """`pkg.module` of the file `pkg/module.py` (`pkg` of `pkg/__init__.py`); the shown path may start above the
    package's root, which is why imported names are matched on the end of it."""
    dotted = path.removesuffix(".py").replace("/", ".")
    return dotted.removesuffix(".__init__")
