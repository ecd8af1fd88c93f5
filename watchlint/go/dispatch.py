"""What a call through an interface runs: the module's methods of that name, indexed once.

A client handed on through an interface call (`builder.FromSource(r.Client, …)`, `in.kialiCache.
GetKubeCache(name)`) reaches a method the call does not name. SPEC §3.1: parameters take what their callers
pass, so the argument goes to every implementation of a module interface, and a result comes from the one
implementation where there is one.
"""

from __future__ import annotations

import re

import tree_sitter

from watchlint.go import parser
from watchlint.go.declarations import MAX_EMBEDDING, FunctionInfo
from watchlint.go.model import Call, GoFile, TypeRef, call_parts
from watchlint.go.resolve import Resolver


class MethodIndex:
    """The module's methods by name, and its types by the names of their methods, built on first use."""

    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        self._by_name: dict[str, list[FunctionInfo]] | None = None
        self._by_receiver: dict[TypeRef, frozenset[str]] | None = None
        self._module_packages: frozenset[str] | None = None
        self._embedders: dict[TypeRef, list[TypeRef]] | None = None  # module structs by the types they embed
        self._promoted: dict[TypeRef, frozenset[str]] = {}  # a type's own and promoted methods' names
        # the methods a call through an interface may run, by interface, name, argument count and test-ness
        self._dispatched: dict[tuple[TypeRef | None, str, int | None, bool], list[FunctionInfo]] = {}

    def dispatched(self, file: GoFile, called: Call) -> list[FunctionInfo]:
        """The methods a call through an interface may run: every production method of the module with that
        name whose type has all of the interface's methods (volsync's movers, each a `Builder`); where the
        interface is not the module's, the one method `only` finds."""
        if called.operand is None:
            return []  # a function, not a method: nothing to dispatch
        owner = self.resolver.type_of(file, called.operand)
        if owner is not None and owner.package not in self._packages():
            return []  # a library type's method (`cl.Get` on a client.Client) is the library's, not a module's
        interface = self._interface(file, called.operand, called.name)
        # an interface embedding a library one (`client.Object`) is told by the methods the module declares:
        # actions-runner-controller's owner runs the `pods` of each of its two implementations
        required = (
            self.resolver.declarations.required_methods(interface, known_only=True) if interface is not None else None
        )
        if required is None or called.name not in required:
            only = self.only(file, called.name)
            return [only] if only is not None else []
        # the same for every call of that shape: rancher's generated clients call thousands of `Get`s through
        # interfaces, among thousands of methods named `Get`
        key = (interface, called.name, argument_count(called), file.is_test)
        found = self._dispatched.get(key)
        if found is None:
            # a method of that name returning as many results as the interface's (a getter of dynamic clients
            # beside one of typed clients, both `Get(ctx, runtime)`)
            declared = self.resolver.declarations.interface_results.get((interface, called.name)) if interface else None
            found = self._dispatched[key] = [
                info
                for info in self._named(called.name)
                if (file.is_test or not info.file.is_test)
                and takes_count(info, key[2])
                and (declared is None or len(info.results) == len(declared))
                and self._implemented(TypeRef(info.key.package, info.key.receiver), required)
            ]
        return found

    def _implemented(self, receiver: TypeRef, required: frozenset[str]) -> bool:
        """Whether the receiver's type, or a module struct embedding it (whose method the receiver's is, promoted:
        camel-k's actions embed a `baseAction` with `InjectClient`), has every method an interface requires."""
        if required <= self._promoted_names(receiver):
            return True
        return any(required <= self._promoted_names(outer) for outer in self.embedding(receiver))

    def _promoted_names(self, receiver: TypeRef) -> frozenset[str]:
        """A type's methods and those promoted from the module structs it embeds."""
        found = self._promoted.get(receiver)
        if found is None:
            found = self._promoted[receiver] = frozenset(self._gather_promoted(receiver, 0))
        return found

    def _gather_promoted(self, receiver: TypeRef, depth: int) -> set[str]:
        names = set(self._method_names(receiver))
        for info in self.resolver.declarations.structs.get(receiver, ()) if depth < MAX_EMBEDDING else ():
            if info.is_embedded and info.type is not None:
                names |= self._gather_promoted(info.type.base, depth + 1)
        return names

    def embedding(self, inner: TypeRef) -> list[TypeRef]:
        """The module structs that embed a type, directly or through other embedded structs."""
        if self._embedders is None:
            embedders: dict[TypeRef, list[TypeRef]] = {}
            for struct, fields in self.resolver.declarations.structs.items():
                for info in fields:
                    if info.is_embedded and info.type is not None:
                        embedders.setdefault(info.type.base, []).append(struct)
            self._embedders = embedders
        found, frontier = [], [inner]
        for _ in range(MAX_EMBEDDING):
            frontier = [
                outer for current in frontier for outer in self._embedders.get(current, []) if outer not in found
            ]
            found.extend(frontier)
        return found

    def through_module_interface(self, file: GoFile, called: Call) -> list[FunctionInfo]:
        """`dispatched`, only where the call's operand is seen to be of a module interface: a method name alone
        (`x.List(…)` on a value of unknown type) says nothing of which method runs."""
        interface = self._interface(file, called.operand, called.name) if called.operand is not None else None
        if interface is None:
            return []
        declarations = self.resolver.declarations
        required = declarations.required_methods(interface) or declarations.interface_methods.get(
            interface, frozenset()
        )
        return self.dispatched(file, called) if called.name in required else []

    def implementations(self, file: GoFile, call: tree_sitter.Node) -> list[FunctionInfo]:
        """The methods a call `x.M(…)` through an interface may run (see `dispatched`)."""
        called = call_parts(call)
        return self.dispatched(file, called) if called is not None and called.operand is not None else []

    def through_interface(self, file: GoFile, call: tree_sitter.Node) -> FunctionInfo | None:
        """The implementation of a method called through an interface of the module (`in.kialiCache.
        GetKubeCache(name)`), where the module has one (see `only`)."""
        function = call.child_by_field_name("function")
        if function is None or function.type != "selector_expression":
            return None
        name = parser.text(function.child_by_field_name("field"))
        if self._interface(file, function.child_by_field_name("operand"), name) is None:
            return None
        return self.only(file, name)

    def _interface(self, file: GoFile, operand: tree_sitter.Node | None, name: str) -> TypeRef | None:
        """The module interface a method call's operand has as its type, or the one a module struct embeds
        that the method `name` is promoted from (ytsaurus' `Ytsaurus` embeds its `APIProxy`); None otherwise."""
        owner = self.resolver.type_of(file, operand) if operand is not None else None
        declarations = self.resolver.declarations
        base = declarations.unalias(owner.base) if owner is not None else None
        if base is None or base in declarations.interfaces:
            return base
        return self._promoted_from(base, name, 0)

    def _promoted_from(self, struct: TypeRef, name: str, depth: int) -> TypeRef | None:
        """The interface embedded in a module struct (or in a struct it embeds) that declares `name`, where
        the struct has no method of that name of its own."""
        declarations = self.resolver.declarations
        if depth >= MAX_EMBEDDING or name in self._method_names(struct):
            return None
        for info in declarations.structs.get(struct, ()):
            inner = declarations.unalias(info.type.base) if info.is_embedded and info.type is not None else None
            if inner is None:
                continue
            if inner in declarations.interfaces:
                if name in (declarations.required_methods(inner) or ()):
                    return inner
            elif (found := self._promoted_from(inner, name, depth + 1)) is not None:
                return found
        return None

    def only(self, file: GoFile, name: str) -> FunctionInfo | None:
        """The module's one method of that name, for a call through an interface (`discoverer.Get(…)` with
        `discoverer AdminAPIsDiscoverer`): an interface with a single implementation hands its arguments
        to that implementation; of several, the one of the caller's package (each controller package of
        camel-k has its own `baseAction.InjectClient`). A production call counts production methods only:
        the mocks of tests implement the interface too (--include-tests)."""
        candidates = self._named(name)
        if len(candidates) > 1 and not file.is_test:
            candidates = [info for info in candidates if not info.file.is_test]
            # test doubles written outside _test.go files (cluster-network-operator's pkg/client/fake and
            # operconfig/test_helpers.go) implement the interface too
            candidates = [info for info in candidates if not is_test_double(info)] or candidates
        if len(candidates) > 1:
            candidates = [info for info in candidates if info.key.package == file.package_path]
        return candidates[0] if len(candidates) == 1 else None

    def _packages(self) -> frozenset[str]:
        """The module's packages that declare functions, methods or interfaces."""
        if self._module_packages is None:
            declarations = self.resolver.declarations
            packages = {key.package for key in declarations.functions}
            self._module_packages = frozenset(packages | {ref.package for ref in declarations.interfaces})
        return self._module_packages

    def _named(self, name: str) -> list[FunctionInfo]:
        return self._indexes()[0].get(name, [])

    def _method_names(self, receiver: TypeRef) -> frozenset[str]:
        return self._indexes()[1].get(receiver, frozenset())

    def _indexes(self) -> tuple[dict[str, list[FunctionInfo]], dict[TypeRef, frozenset[str]]]:
        """The module's methods by name and its types by their methods' names, from one pass."""
        if self._by_name is None or self._by_receiver is None:
            by_name: dict[str, list[FunctionInfo]] = {}
            by_receiver: dict[TypeRef, set[str]] = {}
            for key, info in self.resolver.declarations.functions.items():
                if key.receiver:
                    by_name.setdefault(key.name, []).append(info)
                    by_receiver.setdefault(TypeRef(key.package, key.receiver), set()).add(key.name)
            self._by_name = by_name
            self._by_receiver = {receiver: frozenset(names) for receiver, names in by_receiver.items()}
        return self._by_name, self._by_receiver


_DOUBLE_PACKAGES = frozenset({"fake", "fakes", "mock", "mocks", "testing", "testutil", "testutils", "testhelpers"})
_DOUBLE_FILE = re.compile(r"(?:^|_)(?:fake|fakes|mock|mocks|test|testing|helpers_test)(?:_|\.go$)")


def is_test_double(info: FunctionInfo) -> bool:
    """Whether a method belongs to a test double written outside a _test.go file: in a package named `fake`,
    `mocks`, `testing` and the like, in a file named `fake_client.go` or `test_helpers.go`, or on a type named
    `Fake…`/`Mock…`."""
    name = info.file.path.rsplit("/", 1)[-1]
    receiver = info.key.receiver.lower()
    return (
        info.key.package.rsplit("/", 1)[-1] in _DOUBLE_PACKAGES
        or _DOUBLE_FILE.search(name) is not None
        or receiver.startswith(("fake", "mock"))
    )


def takes(info: FunctionInfo, called: Call) -> bool:
    """Whether a method takes as many arguments as the call passes: two interfaces of a module may share a
    method name (`ListAll(ctx, selector)` of namespaces, `ListAll(ctx, selector, namespace)` of ConfigMaps)."""
    return takes_count(info, argument_count(called))


def argument_count(called: Call) -> int | None:
    """How many arguments a call passes; None where a slice or a call's results are spread over them."""
    arguments = parser.named(called.arguments) if called.arguments is not None else []
    if any(argument.type == "variadic_argument" for argument in arguments) or (
        len(arguments) == 1 and arguments[0].type == "call_expression"  # `m(pair())`: the results, spread
    ):
        return None
    return len(arguments)


def takes_count(info: FunctionInfo, count: int | None) -> bool:
    if count is None:
        return True
    declared = info.node.child_by_field_name("parameters")
    if declared is not None and any(item.type == "variadic_parameter_declaration" for item in declared.named_children):
        return count >= len(info.parameters) - 1
    return count == len(info.parameters)
