"""What a file's code changes in the tables and objects it builds: entries added to a mapping (`T[k] = v`,
`T.update(…)`, `T.setdefault(…)`, `T |= …`) and attributes assigned (`obj.name = …`), so that a lookup or an
attribute read is not told by the literal alone where the code adds to it later."""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field

import libcst

from watchlint.python.flow import Flow
from watchlint.python.parser import ParsedFile

_ADDING_METHODS = frozenset({"update", "setdefault", "__setitem__"})


@dataclass(slots=True)
class _Found:
    # the code of each mapping entries are added to, with the function it is named in (None: the module's level)
    tables: list[tuple[str, libcst.FunctionDef | None]] = field(default_factory=list)
    # the objects each attribute name is assigned on (`args` of `args.list_all = False`)
    attributes: dict[str, list[libcst.BaseExpression]] = field(default_factory=dict)
    # the names each function declares `global`: what it assigns to them is the module's
    globals: dict[libcst.FunctionDef, set[str]] = field(default_factory=dict)


_FOUND: weakref.WeakKeyDictionary[ParsedFile, _Found] = weakref.WeakKeyDictionary()


def adds_entries(file: ParsedFile, flow: Flow, table: libcst.BaseExpression) -> bool:
    """Whether the file adds entries to a table (the outer table of `T["ALL"][key]`): by the code naming it,
    a module name only where the function adding them does not name a local of its own alike."""
    while isinstance(table, libcst.Subscript):
        table = table.value
    if not isinstance(table, libcst.Name | libcst.Attribute):
        return False  # a literal or a call written at the lookup: nothing adds to it later
    code = file.code(table)
    for written, function in _found(file).tables:
        if written != code:
            continue
        if isinstance(table, libcst.Name) and _local(file, flow, function, table.value):
            continue  # a local of that function, named alike
        return True
    return False


def _local(file: ParsedFile, flow: Flow, function: libcst.FunctionDef | None, name: str) -> bool:
    """Whether a function binds a local of that name (not one it declares `global`)."""
    if function is None or (function, name) not in flow.names:
        return False
    return name not in _found(file).globals.get(function, ())


def attribute_owners(file: ParsedFile, name: str) -> list[libcst.BaseExpression]:
    """The objects the file's code assigns an attribute of that name on (`obj` of `obj.list_all = …`)."""
    return _found(file).attributes.get(name, [])


def _found(file: ParsedFile) -> _Found:
    found = _FOUND.get(file)
    if found is None:
        collector = _Collector(file)
        file.module.visit(collector)
        found = _FOUND[file] = collector.found
    return found


class _Collector(libcst.CSTVisitor):
    def __init__(self, file: ParsedFile) -> None:
        super().__init__()
        self.file = file
        self.found = _Found()
        self._functions: list[libcst.FunctionDef] = []

    def visit_FunctionDef(self, node: libcst.FunctionDef) -> None:
        self._functions.append(node)

    def leave_FunctionDef(self, original_node: libcst.FunctionDef) -> None:
        self._functions.pop()

    def visit_Global(self, node: libcst.Global) -> None:
        if self._functions:
            self.found.globals.setdefault(self._functions[-1], set()).update(item.name.value for item in node.names)

    def visit_Assign(self, node: libcst.Assign) -> None:
        for target in node.targets:
            self._written(target.target)

    def visit_AnnAssign(self, node: libcst.AnnAssign) -> None:
        self._written(node.target)

    def visit_AugAssign(self, node: libcst.AugAssign) -> None:
        self._written(node.target)
        if isinstance(node.operator, libcst.BitOrAssign):  # `T |= {…}`
            self._table(node.target)

    def visit_Call(self, node: libcst.Call) -> None:
        function = node.func
        if isinstance(function, libcst.Attribute) and function.attr.value in _ADDING_METHODS:
            self._table(function.value)

    def _written(self, target: libcst.BaseExpression) -> None:
        if isinstance(target, libcst.Subscript):
            self._table(target.value)
        elif isinstance(target, libcst.Attribute):
            self.found.attributes.setdefault(target.attr.value, []).append(target.value)

    def _table(self, table: libcst.BaseExpression) -> None:
        while isinstance(table, libcst.Subscript):
            table = table.value
        function = self._functions[-1] if self._functions else None
        self.found.tables.append((self.file.code(table), function))
