"""Informers registered with a client-go factory's `InformerFor(obj, newFunc)`: from then on the factory's
accessor of that kind (`f.Core().V1().Pods()`) hands out the informer `newFunc` builds, a site of its own
judged by its own namespace and tweak, instead of building the factory's default one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import tree_sitter

from watchlint.facts import Access, Operation
from watchlint.go import parser
from watchlint.go.clientgo import ClientGoSites, stored_before
from watchlint.go.declarations import FunctionKey
from watchlint.go.model import GoFile, TypeRef
from watchlint.go.pending import PendingSite
from watchlint.go.resolve import Resolver
from watchlint.go.scope import innermost_function, returned_values, under_condition
from watchlint.go.values import ValueTracer

_MAX_FUNCTION_HOPS = 2  # variables between `return` and the informer's constructor (`return filteredInformer`)
_MAX_CALL_HOPS = 2  # module functions between a registration's function and the informer's constructor

Stored = Callable[..., list[tuple[GoFile, tree_sitter.Node]]]
Callers = Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]]


@dataclass(frozen=True, slots=True)
class _Registration:
    """One `InformerFor` call whose informer is a site: the kind, and the factory it registers with, as the
    constructors that may have built it and the struct field it is read from."""

    file: GoFile
    call: tree_sitter.Node
    kind: str
    constructors: frozenset[tuple[str, int]]
    field: tuple[TypeRef | None, str, bool] | None

    def hands_out(self, site: PendingSite) -> bool:
        """Whether the factory informer of a site is this registration's: the same kind of the same factory,
        asked for after the registration where both are in one function."""
        if site.operation is not Operation.WATCH or site.access is not Access.INFORMER_FACTORY:
            return False
        if site.object.kind != self.kind:
            return False
        # the same field, where the factories are not known on both sides: it may hold any of them
        same = site.factory_constructor in self.constructors or (
            self.field is not None
            and site.factory_field == self.field
            and (not self.constructors or site.factory_constructor is None)
        )
        if not same:
            return False
        around = innermost_function(self.call)
        if around is not None and site.file.path == self.file.path and parser.encloses(around, site.node):
            return site.node.start_byte > self.call.start_byte
        return True


class Registrations:
    """The module's `InformerFor` calls, collected while its files' sites are found and applied once the
    factories held in fields are known."""

    def __init__(self, resolver: Resolver, values: ValueTracer, client_go: ClientGoSites) -> None:
        self.resolver = resolver
        self.values = values
        self.client_go = client_go
        self.calls: list[tuple[GoFile, tree_sitter.Node, tree_sitter.Node, list[tree_sitter.Node]]] = []

    def add(
        self, file: GoFile, call: tree_sitter.Node, operand: tree_sitter.Node, arguments: list[tree_sitter.Node]
    ) -> None:
        if len(arguments) == 2:
            self.calls.append((file, call, operand, arguments))

    def without_handed_out(self, pending: list[PendingSite], stored: Stored, callers: Callers) -> list[PendingSite]:
        """The sites but the factory informers a registration hands out: the registered informer is reported
        (or mitigated) where it is built. `callers`: the calls a binary makes of a function, to follow a factory
        parameter to what they pass (openyurt's tunnel server registers its filtered informers in a helper
        given the factory)."""
        if not self.calls:
            return pending
        informers = {(site.file.path, site.node.start_byte) for site in pending}
        registrations = [
            registration
            for file, call, operand, arguments in self.calls
            if (registration := self._registration(file, call, operand, arguments, informers, stored, callers))
            is not None
        ]
        return [site for site in pending if not any(r.hands_out(site) for r in registrations)]

    def _registration(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        operand: tree_sitter.Node,
        arguments: list[tree_sitter.Node],
        informers: set[tuple[str, int]],
        stored: Stored,
        callers: Callers,
    ) -> _Registration | None:
        """The registration of one call, when it always happens and what it registers is an informer site."""
        found = self.resolver.object_of(file, arguments[0])
        if found is None or under_condition(call) or not self._builds_site(file, arguments[1], informers):
            return None
        field = self.client_go.factory_field_of(file, operand)
        values: list[tuple[GoFile, tree_sitter.Node | None]] = [(file, operand)]
        if self.client_go.factory_built(file, operand) is None and field is not None:
            values = stored_before(stored(field[0], field[1], elements=field[2]), file, call) or values
        constructors = frozenset(
            (built[0].path, built[1].start_byte)
            for value_file, value in self.client_go.through_fields(values, stored, callers=callers)
            if (built := self.client_go.factory_built(value_file, value)) is not None
        )
        return _Registration(file, call, found.kind, constructors, field)

    def _builds_site(self, file: GoFile, function: tree_sitter.Node, informers: set[tuple[str, int]]) -> bool:
        """Whether every informer a registration's function returns is a site: a function literal or a module
        function returning `NewFiltered…Informer(…)`, also through a variable, or the literal a module function
        returns (`InformerFor(&corev1.Pod{}, newLocalPods(node))`)."""
        bodies = self._functions(file, function)
        return bool(bodies) and all(self._returns_sites(body_file, body, informers) for body_file, body in bodies)

    def _returns_sites(
        self, file: GoFile, function: tree_sitter.Node, informers: set[tuple[str, int]], hops: int = _MAX_CALL_HOPS
    ) -> bool:
        """Whether every value a function returns is an informer site, or the value a module function it calls
        returns (godel-scheduler's `func(…) { return newPodInformer(k, d) }`), `hops` calls deep."""
        returned = [self.values.defined_as(file, value, _MAX_FUNCTION_HOPS) for value in returned_values(function)]
        if not returned:
            return False
        for value in returned:
            if value is not None and (file.path, value.start_byte) in informers:
                continue
            info = self.resolver.callee(file, value) if value is not None and value.type == "call_expression" else None
            if info is None or hops <= 0 or not self._returns_sites(info.file, info.node, informers, hops - 1):
                return False
        return True

    def _functions(self, file: GoFile, function: tree_sitter.Node) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The function literals or module functions an expression gives, each with its file."""
        if function.type == "func_literal":
            return [(file, function)]
        if function.type == "call_expression":
            info = self.resolver.callee(file, function)
            returned = returned_values(info.node) if info is not None else []
            literals = [value for value in returned if value.type == "func_literal"]
            return [(info.file, value) for value in literals] if info is not None and literals == returned else []
        info = self.resolver.function_named(file, function)
        return [(info.file, info.node)] if info is not None else []
