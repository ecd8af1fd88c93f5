"""Which manager runs a site: the options literal of the `ctrl.NewManager` whose client the site reads through.

A binary with several managers (one per subcommand: a daemon, a webhook, a helper built for its API reader)
pools their options to judge a site (SPEC §3.1), but a fix must edit the manager that runs it: the one whose
`mgr.GetClient()` starts the chain of references reaching the site's client, followed back through the locals
and the parameters the manager is handed in (`Setup(mgr)` of a reconciler).
"""

from __future__ import annotations

from collections.abc import Callable

import tree_sitter

from watchlint.go import parser
from watchlint.go.callgraph import CallGraph
from watchlint.go.cyclememo import CycleMemo
from watchlint.go.declarations import FunctionInfo, FunctionKey, resolve_type
from watchlint.go.dispatch import MethodIndex
from watchlint.go.guards import returned_on_success
from watchlint.go.listoptions import local_values
from watchlint.go.model import (
    CONTROLLER_RUNTIME,
    CR_CLIENT,
    CR_MANAGER,
    MANAGER_PACKAGES,
    MC_MANAGER,
    Call,
    GoFile,
    TypeRef,
    call_parts,
)
from watchlint.go.pending import uses_in
from watchlint.go.resolve import Resolver, append_arguments, keyed_elements, literal_items
from watchlint.go.scope import Declaration, innermost_function, returned_values
from watchlint.source import Span

LiteralKey = tuple[str, int]  # an options literal by file path and start offset; see opaque_options
# a list parameter of a function (its key and position) and the type of the controllers a site is in, whose
# managers come only from the calls passing a list that may hold one (see ManagerLinks._listing)
_Listing = tuple[FunctionKey, int, TypeRef]
_MAX_HOPS = 6  # locals, parameters and returned values between a manager's options and its use
_MAX_CHAIN = 32  # calls and locals of a builder chain, from a watch back to its start
BUILDER_STARTS = ("NewControllerManagedBy", "ControllerManagedBy")
_CLIENT_CONSTRUCTORS = frozenset({"New", "NewWithWatch"})


def is_new_manager(file: GoFile, function: tree_sitter.Node | None, resolver: Resolver | None = None) -> bool:
    """`ctrl.NewManager` or `manager.New`, by the called function's text (a module's own `NewManager` wrapper
    passes its options on); `manager.New` only of controller-runtime's package, not a module's own `manager`
    package (harbor-operator's `manager.New(ctx, scheme)`). With a resolver, also a package variable holding
    one (vcluster's `var NewLocalManager = ctrl.NewManager`)."""
    if function is None or function.type != "selector_expression":
        return _names_new_manager(
            file, parser.text(function), None, function is not None and function.type == "identifier", resolver
        )
    operand, field = function.child_by_field_name("operand"), function.child_by_field_name("field")
    if operand is None or field is None:
        return parser.text(function).endswith("NewManager")
    return _names_new_manager(file, parser.text(field), parser.text(operand), False, resolver)


def calls_new_manager(file: GoFile, call: Call, resolver: Resolver) -> bool:
    """is_new_manager of a call's function, from the parts model.Call took apart (every call of a module is
    asked)."""
    if call.operand is None:
        function = call.node.child_by_field_name("function")
        is_identifier = function is not None and function.type == "identifier"
        return _names_new_manager(file, call.name, None, is_identifier, resolver)
    if call.method is None:
        return is_new_manager(file, call.node.child_by_field_name("function"), resolver)
    return _names_new_manager(file, call.name, call.operand_text, False, resolver)


def _names_new_manager(
    file: GoFile, name: str, operand: str | None, is_identifier: bool, resolver: Resolver | None
) -> bool:
    """is_new_manager of a function named `name` (the selected name of `operand.name`, else the function's
    whole text, an identifier's or another expression's)."""
    if name.endswith("NewManager"):
        return True
    if operand is not None and name == "New" and file.imports.get(operand) in _NEW_PACKAGES:
        return True
    if resolver is None:
        return False
    if operand is None:
        return is_identifier and resolver.held_function(file.package_path, name) in _MANAGER_CONSTRUCTORS
    imported = file.imports.get(operand)
    if not imported:
        return False
    return resolver.held_function(imported, name) in _MANAGER_CONSTRUCTORS


_MANAGER_CONSTRUCTORS = frozenset({(CONTROLLER_RUNTIME, "NewManager"), (CR_MANAGER, "New")})
_NEW_PACKAGES = frozenset({CR_MANAGER, MC_MANAGER})  # whose `New` builds a manager
_HELD_MANAGERS = frozenset({*MANAGER_PACKAGES, MC_MANAGER})  # whose `Manager` a builder starts from


def options_argument(file: GoFile, call: tree_sitter.Node) -> tree_sitter.Node | None:
    """The options a manager constructor's call passes (`_options_index`); None where it passes too few."""
    arguments = parser.named(call.child_by_field_name("arguments") or call)
    index = _options_index(file, call)
    return arguments[index] if index < len(arguments) else None


def _options_index(file: GoFile, call: tree_sitter.Node) -> int:
    """Where a manager constructor takes its options: second, third for multicluster-runtime's `mcmanager.New(cfg,
    provider, opts)`."""
    function = call.child_by_field_name("function")
    operand = function.child_by_field_name("operand") if function is not None else None
    return 2 if operand is not None and file.imports.get(parser.text(operand)) == MC_MANAGER else 1


def opaque_options(file: GoFile, call: tree_sitter.Node) -> LiteralKey:
    """The key of a manager whose options are no literal the module shows (`ctrl.NewManager(cfg,
    o.managerOptions)`): no fix can edit them, and none may edit another manager's in their stead. No literal
    has it, since offsets are never negative."""
    return (file.path, -1 - call.start_byte)


def is_opaque(key: LiteralKey) -> bool:
    return key[1] < 0


def options_literals(
    file: GoFile, node: tree_sitter.Node, index: int, resolver: Resolver, found: set[LiteralKey], depth: int = 0
) -> None:
    """Follow an options expression to its literal: `&opts`, a variable, the `index`th result of a function of
    the module (`options, cfg, err := config.Load(…)`)."""
    if depth > _MAX_HOPS:
        return
    if node.type == "composite_literal":
        found.add((file.path, node.start_byte))
    elif node.type == "unary_expression":
        operand = node.child_by_field_name("operand")
        if operand is not None:
            options_literals(file, operand, index, resolver, found, depth + 1)
    elif node.type == "identifier":
        _variable_literals(file, node, resolver, found, depth)
    elif node.type == "call_expression" and (info := resolver.callee(file, node)) is not None:
        for value in returned_on_success(info.node, index):
            options_literals(info.file, value, 0, resolver, found, depth + 1)


def _variable_literals(
    file: GoFile, node: tree_sitter.Node, resolver: Resolver, found: set[LiteralKey], depth: int
) -> None:
    """The literals a variable is declared with, and those assigned to it whole: `if s.LeaderElect { options =
    manager.Options{…} }` hands the manager either."""
    declaration = resolver.declaration(file, node)
    if declaration is None:
        return
    if declaration.value_node is not None:
        options_literals(file, declaration.value_node, declaration.value_index, resolver, found, depth + 1)
    scope = resolver.scope(file, node)
    for value in scope.assignments.get(parser.text(node), []) if scope is not None else []:
        if value.type == "composite_literal":
            found.add((file.path, value.start_byte))


class ManagerLinks:
    """The options literals of the managers whose clients reach a site, found from the client's origins."""

    def __init__(self, files: list[GoFile], resolver: Resolver, calls: CallGraph, methods: MethodIndex) -> None:
        self.resolver = resolver
        self.calls = calls
        self.methods = methods
        self._by_origin: dict[Span, tuple[GoFile, tree_sitter.Node]] = {}  # `mgr.GetClient()` by its span
        self._new_managers: list[tuple[GoFile, tree_sitter.Node]] = []
        self._new_clients: list[tuple[GoFile, tree_sitter.Node]] = []  # `client.New(cfg, options)`
        self._dispatched: dict[FunctionKey, list[tuple[GoFile, tree_sitter.Node]]] = {}
        # the options each function's parameter is passed (see _passed_options)
        self._passed: CycleMemo[tuple[FunctionKey, int, _Listing | None], frozenset[LiteralKey]] = CycleMemo()
        for file in files:
            for call in file.calls():
                if call.name == "GetClient" and call.operand is not None:
                    self._by_origin[file.span(call.node)] = (file, call.operand)
                elif calls_new_manager(file, call, resolver):
                    self._new_managers.append((file, call.node))
                elif call.name in _CLIENT_CONSTRUCTORS and file.imports.get(call.operand_text) == CR_CLIENT:
                    self._new_clients.append((file, call.node))
        # a wrapper's own NewManager by the calls of the wrapper (`_wrapper_calls`): options written in the
        # wrapper reach each manager built through it
        self._wrapped_by: dict[Span, list[Span]] = {}
        wrapped = self._wrapper_calls()
        self._new_managers.extend(wrapped)
        self._wrapper_call_keys = frozenset((file.path, call.start_byte) for file, call in wrapped)
        self._client_options: frozenset[LiteralKey] | None = None
        self._built_from: dict[LiteralKey, set[Span]] | None = None  # NewManager calls by their options
        self._built_in: dict[FunctionKey, list[Span]] | None = None  # NewManager calls by their function
        self._reaching: dict[FunctionKey, tuple[Span, ...]] = {}
        self._idle: frozenset[Span] | None = None  # the NewManager calls of idle managers (`only_idle_managers`)
        # the values the module stores in a struct field (FieldValues.stored), set once the evaluator is built:
        # a manager held in a field (vcluster's `ctx.VirtualManager`) is the one stored there
        self.stored: Callable[[TypeRef, str], list[tuple[GoFile, tree_sitter.Node]]] = lambda _owner, _name: []

    def _wrapper_calls(self) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The calls of the module's functions that build a manager from the options they are given second
        (`managers.New(cfg, options)` returning `ctrl.NewManager(config, options)`, whatever its name): each
        builds a manager of its own, from its caller's options (two subcommands' managers through one wrapper)."""
        found: list[tuple[GoFile, tree_sitter.Node]] = []
        for file, call in list(self._new_managers):
            key = self.resolver.function_key(file, call)
            info = self.resolver.declarations.functions.get(key) if key is not None and not key.receiver else None
            options = options_argument(file, call)
            declaration = self.resolver.declaration(file, options) if options is not None else None
            if info is None or declaration is None or declaration.parameter_index != 1:
                continue
            callers = self.calls.deployed_callers(info.key)
            self._wrapped_by[file.name_span(call)] = [caller_file.name_span(caller) for caller_file, caller in callers]
            if not is_new_manager(file, info.node.child_by_field_name("name")):  # named like one: found as such
                found.extend(callers)
        return found

    @property
    def manager_calls(self) -> list[tuple[GoFile, tree_sitter.Node]]:
        """Every `NewManager` call of the module, and the calls of its own wrappers (named like one,
        `is_new_manager`, or building one from the options they are given, `_wrapper_calls`)."""
        return self._new_managers

    def constructions(self, managers: frozenset[LiteralKey]) -> tuple[Span, ...]:
        """Where the managers with the options literals `managers` are built (the name of `ctrl.NewManager`, as
        a cache policy's origins give it); empty unless each literal's manager is found."""
        built_from = self._literals_built()
        spans: set[Span] = set()
        for key in managers:
            if key not in built_from:
                return ()
            spans |= built_from[key]
        return tuple(sorted(spans))

    def _literals_built(self) -> dict[LiteralKey, set[Span]]:
        """The NewManager calls (their names' spans) by the options literals they are built from."""
        if self._built_from is None:
            self._built_from = {}
            for file, call in self._new_managers:
                found: set[LiteralKey] = set()
                if (options := options_argument(file, call)) is not None:
                    options_literals(file, options, 0, self.resolver, found)
                # options no literal shows (`o.managerOptions`) build this one only, as `_constructed_with` keys them
                for key in found or {opaque_options(file, call)}:
                    self._built_from.setdefault(key, set()).add(file.name_span(call))
        return self._built_from

    def only_idle_managers(self, file: GoFile, literal: tree_sitter.Node) -> bool:
        """Whether an options literal builds only managers never started and asked only for their API reader and
        the like (`is_idle_manager`): its options scope no cache that runs."""
        built = self._literals_built().get((file.path, literal.start_byte))
        if not built:
            return False
        if self._idle is None:
            self._idle = frozenset(
                built_in.name_span(call)
                for built_in, call in self._new_managers
                if is_idle_manager(call, started=False)
            )
        return built <= self._idle

    def builds_a_client(self, file: GoFile, literal: tree_sitter.Node) -> bool:
        """Whether a `client.Options` literal is what a `client.New` of the module builds its client from,
        directly or through the locals and functions returning it (`client.New(cfg, clientOptions(ctx))`):
        that client's options, not a manager's."""
        if self._client_options is None:
            found: set[LiteralKey] = set()
            for call_file, call in self._new_clients:
                arguments = parser.named(call.child_by_field_name("arguments") or call)
                if len(arguments) > 1:
                    options_literals(call_file, arguments[1], 0, self.resolver, found)
            self._client_options = frozenset(found)
        return (file.path, literal.start_byte) in self._client_options

    def reaching(self, file: GoFile, node: tree_sitter.Node) -> tuple[Span, ...]:
        """Where the managers are built that options written at `node` can reach: the `NewManager` calls of the
        function around it or, where it builds none, of the functions that call it, followed up each path of
        calls to the first function that builds one (`setNamespaces(&opts)` before `ctrl.NewManager(cfg,
        opts)`; a `NewCache` function handed to one subcommand's manager). Empty when a path ends without one:
        the options may then reach any manager of the binary. Options written in a function literal that
        builds a manager (a cobra command's `RunE`) reach that one."""
        inside = self._literal_managers(file, node)
        if inside:
            return inside
        around = innermost_function(node)
        if around is not None and around.type == "func_literal":
            built = tuple(
                sorted(
                    other.name_span(call)
                    for other, call in self._new_managers
                    if other.path == file.path and innermost_function(call) == around
                )
            )
            if built:
                return built
        start = self.resolver.function_key(file, node)
        if start is None:
            return ()
        if start not in self._reaching:
            above = self._managers_above(start)
            through = {wrapper for span in above for wrapper in self._wrapped_by.get(span, ())}
            self._reaching[start] = tuple(sorted({*above, *through})) if through else above
        return self._reaching[start]

    def _literal_managers(self, file: GoFile, node: tree_sitter.Node) -> tuple[Span, ...]:
        """Where the managers are built whose options literal holds `node`: a scope written in one manager's
        literal (vcluster's host manager beside the virtual cluster's, built in one function) reaches that one
        only."""
        built_from = self._literals_built()
        current = node.parent
        while current is not None and current.type not in ("function_declaration", "method_declaration"):
            if current.type == "composite_literal" and (built := built_from.get((file.path, current.start_byte))):
                return tuple(sorted(built))
            current = current.parent
        return ()

    def _managers_above(self, start: FunctionKey) -> tuple[Span, ...]:
        built_in = self._managers_by_function()
        found: set[Span] = set()
        frontier, seen = [start], {start}
        for _ in range(_MAX_HOPS):
            above: list[FunctionKey] = []
            for key in frontier:
                if key in built_in:
                    found.update(built_in[key])
                    continue
                callers = self._calling_functions(key, found)
                if callers is None:
                    return ()
                above.extend(caller for caller in callers if caller not in seen)
                seen.update(callers)
            if not above:
                return tuple(sorted(found))
            frontier = above
        return ()

    def _managers_by_function(self) -> dict[FunctionKey, list[Span]]:
        if self._built_in is None:
            self._built_in = {}
            for file, call in self._new_managers:
                key = self.resolver.function_key(file, call)
                if key is not None:
                    self._built_in.setdefault(key, []).append(file.name_span(call))
        return self._built_in

    def _calling_functions(self, key: FunctionKey, managers: set[Span]) -> list[FunctionKey] | None:
        """The functions whose calls of `key` a binary makes, in order; None when there are none, or a call
        is made outside any function (the options then go where nothing here can tell). A call written in
        a manager's options literal (`Cache: getLocalCacheOptions(options)`, vcluster's host manager beside
        its virtual one), or the function handed on there as a value, adds that manager to `managers` instead
        of its function."""
        found: list[FunctionKey] = []
        # handed on in a manager's options literal (fluid's `NewClient: controllers.NewFluidControllerClient`):
        # that manager calls it
        handed = [] if key.receiver else self.calls.references(key)
        in_literals = {span for file, value in handed for span in self._literal_managers(file, value)}
        managers.update(in_literals)
        calls = self._deployed_callers(key)
        if not calls and in_literals:
            return []
        for file, call in calls:
            inside = self._literal_managers(file, call)
            if inside:
                managers.update(inside)
                continue
            caller = self.resolver.function_key(file, call)
            if caller is None:
                return None
            if caller not in found:
                found.append(caller)
        return found if found or calls else None

    def options_of(self, origins: tuple[Span, ...]) -> frozenset[LiteralKey]:
        """The options literals of the managers whose `GetClient()` calls are `origins`; empty unless each can
        be told (a manager held in a field, or built outside the module, leaves the set incomplete)."""
        found: set[LiteralKey] = set()
        for origin in origins:
            manager = self._by_origin.get(origin)
            own: set[LiteralKey] = set()
            if manager is not None:
                self._manager_options(*manager, own, 0)
            if not own:
                return frozenset()
            found |= own
        return frozenset(found)

    def builder_options(self, file: GoFile, call: tree_sitter.Node, depth: int = 0) -> frozenset[LiteralKey]:
        """The options literals of the manager a builder chain's watch (`For`, `Owns`, `Watches`) registers
        with: the argument of the `ctrl.NewControllerManagedBy(mgr)` the chain starts from, followed through a
        local holding part of the chain (`b := ctrl.NewControllerManagedBy(mgr)`) and through a parameter
        holding it to the chains its callers pass (vcluster's `modifyController(builder)`); for a watch
        through the manager itself (`mgr.GetFieldIndexer().IndexField(…)`, `mgr.GetCache().GetInformer(…)`),
        that manager's. Empty where any is not told."""
        current: tree_sitter.Node | None = call
        for _ in range(_MAX_CHAIN):
            if (
                current is not None
                and current.type in ("identifier", "selector_expression")
                and self._holds_a_manager(file, current)
            ):
                return self._options_of(file, current)  # `mgr`, `ctx.VirtualManager`: the manager itself
            if current is not None and current.type == "selector_expression":
                return self._stored_builders(file, current, depth)  # `i.builder.Watches(…)`
            if current is not None and current.type == "identifier":
                declaration = self.resolver.declaration(file, current)
                if declaration is not None and declaration.parameter_index >= 0:
                    return self._passed_builders(file, current, declaration.parameter_index, depth)
                current = declaration.value_node if declaration is not None else None
            if current is None or current.type != "call_expression":
                break
            function = current.child_by_field_name("function")
            if function is not None and parser.text(function).endswith(BUILDER_STARTS):
                arguments = parser.named(current.child_by_field_name("arguments") or current)
                return self._options_of(file, arguments[0]) if arguments else frozenset()
            current = function.child_by_field_name("operand") if function is not None else None
        return frozenset()

    def _stored_builders(self, file: GoFile, field: tree_sitter.Node, depth: int) -> frozenset[LiteralKey]:
        """The managers of the builder chains the module stores in a struct field (mariadb-operator's watcher
        indexer, built with the builder each controller's SetupWithManager hands it); empty unless each is
        told."""
        found: set[LiteralKey] = set()
        for value_file, value in self._stored_in(file, field) if depth < _MAX_HOPS else ():
            options = self.builder_options(value_file, value, depth + 1)
            if not options:
                return frozenset()
            found |= options
        return frozenset(found)

    def _options_of(self, file: GoFile, manager: tree_sitter.Node) -> frozenset[LiteralKey]:
        """The options literals of the managers an expression holds (see `_manager_options`)."""
        found: set[LiteralKey] = set()
        self._manager_options(file, manager, found, 0)
        return frozenset(found)

    def cache_options(self, file: GoFile, cache: tree_sitter.Node, depth: int = 0) -> frozenset[LiteralKey] | None:
        """For the cache a `source.Kind` is given as `mgr.GetCache()`, the options of that manager (vcluster's
        host manager's cache watched from a controller of the virtual manager), also held in a local
        (cloud-credential-operator's `operatorCache := mgr.GetCache()`) or a struct field the module stores it in
        (vcluster's `e.VirtualManagerCache`); None for another cache."""
        if cache.type == "identifier":
            declaration = self.resolver.declaration(file, cache)
            held = declaration.value_node if declaration is not None else None
            cache = held if held is not None and held.type == "call_expression" else cache
        if cache.type == "selector_expression":
            return self._field_cache_options(file, cache, depth)
        function = cache.child_by_field_name("function") if cache.type == "call_expression" else None
        operand = function.child_by_field_name("operand") if function is not None else None
        if function is None or operand is None or parser.text(function.child_by_field_name("field")) != "GetCache":
            return None
        return self._options_of(file, operand)

    def _field_cache_options(self, file: GoFile, field: tree_sitter.Node, depth: int) -> frozenset[LiteralKey] | None:
        """The options of the managers whose caches the module stores in a struct field, where each store is one
        (`VirtualCache: virtualMgr.GetCache()`); None for a package's variable or a field stored otherwise."""
        found: set[LiteralKey] = set()
        for value_file, value in self._stored_in(file, field) if depth < _MAX_HOPS else ():
            options = self.cache_options(value_file, value, depth + 1)
            if not options:
                return None
            found |= options
        return frozenset(found) or None

    def _passed_builders(self, file: GoFile, name: tree_sitter.Node, index: int, depth: int) -> frozenset[LiteralKey]:
        """The managers of the builder chains the calls of the function around `name` pass as its parameter at
        `index`; empty unless each is told."""
        key = self.resolver.function_key(file, name)
        calls = self._deployed_callers(key) if key is not None and depth < _MAX_HOPS else []
        found: set[LiteralKey] = set()
        for caller_file, caller in calls:
            arguments = parser.named(caller.child_by_field_name("arguments") or caller)
            passed = self.builder_options(caller_file, arguments[index], depth + 1) if index < len(arguments) else None
            if not passed:
                return frozenset()
            found |= passed
        return frozenset(found)

    def _holds_a_manager(self, file: GoFile, name: tree_sitter.Node) -> bool:
        """Whether a name is typed as controller-runtime's manager (`mgr ctrl.Manager`), multicluster-runtime's,
        or a module interface embedding either (redpanda's `multicluster.Manager`), or is a local a NewManager
        call sets (`virtualMgr, err := ctrl.NewManager(…)`, whose library type is not resolved)."""
        if self._is_a_manager(self.resolver.type_of(file, name)):
            return True
        declaration = self.resolver.declaration(file, name) if name.type == "identifier" else None
        value = declaration.value_node if declaration is not None else None
        return (
            value is not None
            and declaration is not None
            and declaration.value_index == 0
            and self._new_manager(file, value)
            # `mgr, err = ctrl.NewManager(…)` again (a retry): it holds each of them
            and all(
                self._new_manager(file, later)
                for later in self.resolver.reassigned(file, name, declaration, results=True)
            )
        )

    def _new_manager(self, file: GoFile, value: tree_sitter.Node) -> bool:
        return value.type == "call_expression" and is_new_manager(
            file, value.child_by_field_name("function"), self.resolver
        )

    def _is_a_manager(self, typed: TypeRef | None) -> bool:
        if typed is None:
            return False
        declarations = self.resolver.declarations
        embedded = declarations.interfaces.get(declarations.unalias(typed.base), ())
        return any(ref.name == "Manager" and ref.package in _HELD_MANAGERS for ref in (typed, *embedded))

    def _manager_options(
        self, file: GoFile, node: tree_sitter.Node, found: set[LiteralKey], depth: int, listed: _Listing | None = None
    ) -> None:
        """The options of the manager an expression holds: a local set from NewManager, or a parameter, as each
        caller passes it (where `listed` names a list parameter of the function, only the callers whose list may
        hold a value of its type), or a struct field, as the module stores it."""
        if depth > _MAX_HOPS:
            return
        if node.type == "selector_expression":
            self._field_manager_options(file, node, found, depth)
            return
        if node.type == "call_expression":  # `mgr.GetLocalManager()` of the manager a builder starts from
            self._called_options(file, node, found, depth)
            return
        if node.type in ("unary_expression", "composite_literal"):
            self._wrapper_options(file, node, found, depth)
            return
        if node.type != "identifier":
            return
        declaration = self.resolver.declaration(file, node)
        if declaration is None:
            return
        value = declaration.value_node
        if value is not None and value.type == "call_expression" and declaration.value_index == 0:
            self._built_options(file, node, declaration, found, depth)
            return
        if declaration.parameter_index >= 0:
            self._passed_options(file, node, declaration.parameter_index, found, depth, listed)

    def _built_options(
        self, file: GoFile, node: tree_sitter.Node, declaration: Declaration, found: set[LiteralKey], depth: int
    ) -> None:
        """The options of the managers a local is given by the call it is declared with, and by the NewManager
        calls it is given again (a retry): each may run what it is handed."""
        assert declaration.value_node is not None
        self._called_options(file, declaration.value_node, found, depth)
        for later in self.resolver.reassigned(file, node, declaration, results=True):
            if self._new_manager(file, later):
                self._called_options(file, later, found, depth)

    def _passed_options(
        self,
        file: GoFile,
        node: tree_sitter.Node,
        index: int,
        found: set[LiteralKey],
        depth: int,
        listed: _Listing | None,
    ) -> None:
        """The options of the managers the callers of the function around `node` pass as its parameter at `index`
        (see `_manager_options` for `listed`); found once per parameter, as every site under it asks (setups
        handed through functions calling each other: asked anew, the callers multiply with every level)."""
        key = self.resolver.function_key(file, node)
        if key is None:
            return
        # a cycle of calls (the parameter met again while what it is passed is found) passes nothing more
        found |= self._passed.get(
            (key, index, listed), depth, lambda: self._options_passed(key, index, depth, listed), frozenset()
        )

    def _options_passed(
        self, key: FunctionKey, index: int, depth: int, listed: _Listing | None
    ) -> frozenset[LiteralKey]:
        own: set[LiteralKey] = set()
        for caller_file, call in self._deployed_callers(key):
            arguments = parser.named(call.child_by_field_name("arguments") or call)
            if listed is not None and listed[0] == key and not self._may_hold(caller_file, arguments, *listed[1:]):
                continue  # a call passing a list of other controllers than the one a site is in
            if index < len(arguments):
                listing = self._listing(caller_file, call, key)
                self._manager_options(caller_file, arguments[index], own, depth + 1, listing)
        return frozenset(own)

    def _listing(self, file: GoFile, call: tree_sitter.Node, method: FunctionKey) -> _Listing | None:
        """For a method run by a call through an interface on the item of a loop over a parameter (`for _, c :=
        range controllers { c.Setup(ctx, mgr) }`): that parameter, and the method's receiver type. Subcommands
        set up the controllers each lists through one such function: only the callers passing a list that may
        hold a value of that type hand the manager on to the method."""
        if not method.receiver or self.resolver.callee(file, call) is not None:
            return None  # a call naming the method itself
        function = call.child_by_field_name("function")
        operand = function.child_by_field_name("operand") if function is not None else None
        item = (
            self.resolver.declaration(file, operand) if operand is not None and operand.type == "identifier" else None
        )
        ranged = item.ranged_node if item is not None else None
        if ranged is None or ranged.type != "identifier":
            return None
        parameter = self.resolver.parameter_of(file, ranged, self.resolver.declaration(file, ranged))
        if parameter is None:
            return None
        return parameter[0].key, parameter[1], TypeRef(method.package, method.receiver)

    def _may_hold(self, file: GoFile, arguments: list[tree_sitter.Node], index: int, wanted: TypeRef) -> bool:
        """Whether the list a call passes at `index` may hold a value of type `wanted` (or of a module struct
        embedding it, whose method it is): unless every value put in it is seen, and none is one."""
        if index >= len(arguments):
            return True
        held = self._held_types(file, arguments[index], 0)
        return held is None or not held.isdisjoint({wanted, *self.methods.embedding(wanted)})

    def _held_types(self, file: GoFile, listed: tree_sitter.Node, depth: int, name: str = "") -> set[TypeRef] | None:
        """The types of the values a list holds (a slice literal, a local the function appends to, what a module
        function returns); None where one is not told. `name` is the local whose writes are read: its own
        items in `xs = append(xs, x)` are those of its other writes."""
        if depth > _MAX_HOPS:
            return None
        values = append_arguments(listed)
        if values is not None:
            if not values or _spreads(listed):
                return None
            items = self._types_of(file, values[1:], depth)
            if parser.text(values[0]) == name:
                return items
            first = self._held_types(file, values[0], depth + 1)
            return items | first if items is not None and first is not None else None
        if listed.type == "call_expression":
            info = self.resolver.callee(file, listed)
            returned = returned_values(info.node) if info is not None else []
            return self._union(info.file, returned, self._held_types, depth) if info is not None and returned else None
        if listed.type == "composite_literal":
            return self._types_of(file, literal_items(listed), depth)
        written = local_values(self.resolver, file, listed) if listed.type == "identifier" else None
        if not written:
            return None
        local = parser.text(listed)
        return self._union(file, written, lambda at, value, hops: self._held_types(at, value, hops, local), depth)

    def _types_of(self, file: GoFile, values: list[tree_sitter.Node], depth: int) -> set[TypeRef] | None:
        return self._union(file, values, self._value_types, depth)

    def _value_types(self, file: GoFile, value: tree_sitter.Node, depth: int) -> set[TypeRef] | None:
        """The types a value may be of: a literal's (`&reconciler{}`), what a module function returns
        (`annotator.NewController()`), what a local is declared with; None where not told."""
        if depth > _MAX_HOPS:
            return None
        literal = value.child_by_field_name("operand") if parser.is_unary(value, "&") else value
        if literal is not None and literal.type == "composite_literal":
            built = resolve_type(literal.child_by_field_name("type"), file)
            return {built.base} if built is not None else None
        if value.type == "call_expression":
            info = self.resolver.callee(file, value)
            returned = returned_on_success(info.node, 0) if info is not None else []
            return self._union(info.file, returned, self._value_types, depth) if info is not None and returned else None
        declaration = self.resolver.declaration(file, value) if value.type == "identifier" else None
        if declaration is None or declaration.value_node is None or declaration.parameter_index >= 0:
            return None
        return self._value_types(file, declaration.value_node, depth + 1)

    @staticmethod
    def _union(
        file: GoFile,
        values: list[tree_sitter.Node],
        types: Callable[[GoFile, tree_sitter.Node, int], set[TypeRef] | None],
        depth: int,
    ) -> set[TypeRef] | None:
        found: set[TypeRef] = set()
        for value in values:
            told = types(file, value, depth + 1)
            if told is None:
                return None
            found |= told
        return found

    def _called_options(self, file: GoFile, value: tree_sitter.Node, found: set[LiteralKey], depth: int) -> None:
        """The options of the manager a call gives: NewManager's, a multicluster manager's local one
        (`mcMgr.GetLocalManager()`), or the managers a module function returns (`createManager(cfg, opts)`)."""
        function = value.child_by_field_name("function")
        if is_new_manager(file, function, self.resolver) or (file.path, value.start_byte) in self._wrapper_call_keys:
            self._constructed_with(file, value, found, depth)
        elif (local := _local_manager_of(function)) is not None:
            self._manager_options(file, local, found, depth + 1)
        elif (held := _operand_asked(function, "GetCluster")) is not None and self._holds_a_manager(file, held):
            # a multicluster manager's cluster: its local manager's, where the providers' clusters (built out of
            # sight) are none (redpanda's run subcommand), and the best told where they are some
            self._manager_options(file, held, found, depth + 1)
        elif (wrapped := _wrapped_manager_of(file, value)) is not None:
            self._manager_options(file, wrapped, found, depth + 1)
        elif (info := self.resolver.callee(file, value)) is not None:
            self._returned_options(info, found, depth)

    def _wrapper_options(self, file: GoFile, node: tree_sitter.Node, found: set[LiteralKey], depth: int) -> None:
        """A module's wrapper of the manager (redpanda's `&singleClusterManager{mcmgr}`): the managers it holds."""
        literal = node.child_by_field_name("operand") if parser.is_unary(node, "&") else node
        if literal is None or literal.type != "composite_literal":
            return
        keyed = [value for _, value in keyed_elements(literal)]
        for value in [*keyed, *(item for item in literal_items(literal) if item.type != "keyed_element")]:
            typed = self.resolver.type_of(file, value)
            if typed is None or self._is_a_manager(typed):  # not its logger, name or lock
                self._manager_options(file, value, found, depth + 1)

    def _field_manager_options(self, file: GoFile, node: tree_sitter.Node, found: set[LiteralKey], depth: int) -> None:
        """`ctx.VirtualManager`: the options of the managers the module stores in that field."""
        for value_file, value in self._stored_in(file, node):
            self._manager_options(value_file, value, found, depth + 1)

    def _stored_in(self, file: GoFile, field: tree_sitter.Node) -> list[tuple[GoFile, tree_sitter.Node]]:
        """What the module stores in the struct field a selector reads (`ctx.VirtualManager`); nothing for a
        package's variable (`pkg.Manager`) or a struct whose type is not known."""
        operand = field.child_by_field_name("operand")
        if operand is None or self.resolver.package_variable(file, field) is not None:
            return []
        owner = self.resolver.type_of(file, operand)
        return self.stored(owner, parser.text(field.child_by_field_name("field"))) if owner is not None else []

    def _constructed_with(self, file: GoFile, call: tree_sitter.Node, found: set[LiteralKey], depth: int) -> None:
        """The options of a `NewManager` call: its second argument, or for a module's own wrapper the argument
        it takes its options by, and where it takes none (`NewManager(qps, burst int)` of milvus-operator) the
        options of the manager it returns."""
        arguments = parser.named(call.child_by_field_name("arguments") or call)
        info = self.resolver.callee(file, call)
        if info is not None:
            index = next((p.index for p in info.parameters if is_manager_options(self.resolver, p.type)), None)
            if index is None:
                self._returned_options(info, found, depth)
                return
        else:
            index = _options_index(file, call)
        own: set[LiteralKey] = set()
        if index < len(arguments):
            options_literals(file, arguments[index], 0, self.resolver, own)
        found |= own or {opaque_options(file, call)}

    def _returned_options(self, info: FunctionInfo, found: set[LiteralKey], depth: int) -> None:
        """The options of the managers a function of the module returns (a wrapper building the manager)."""
        for returned in returned_on_success(info.node, 0) if depth < _MAX_HOPS else ():
            if returned.type == "call_expression" and is_new_manager(
                info.file, returned.child_by_field_name("function"), self.resolver
            ):
                self._constructed_with(info.file, returned, found, depth + 1)
            else:
                self._manager_options(info.file, returned, found, depth + 1)

    def _deployed_callers(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The calls of a function a binary makes, with, where every place handing it on as a value hands it to a
        module function's parameter, the calls of that parameter (kong's `setup(mgr)` of the `operator.Setup` its
        Run is given), also handed on in turn; for a function no call names, else, those that run it from a list
        (`for _, setup := range setups { setup(mgr, o) }`), a struct field or a registry it is kept in; and for a
        method, the calls through a module interface that may run it (`for _, c := range controllers {
        c.Setup(ctx, mgr) }`)."""
        found = self.calls.deployed_callers(key)
        if not key.receiver and (handed := self.calls.called_through_arguments(key)):
            return found + self.calls.deployed(key, handed)
        if found:
            return found
        if not key.receiver:
            # held in a list, a struct field or a registry and called from there (not through a parameter of
            # its signature, which any function of that signature may be given)
            calls = self.calls
            stored = calls.called_from_lists(key) + calls.called_through_fields(key) + calls.called_from_registries(key)
            return calls.deployed(key, stored)
        if key not in self._dispatched:
            named = self.calls.named(key.name)
            dispatched = [(f, c.node) for f, c in named if any(i.key == key for i in self.methods.dispatched(f, c))]
            self._dispatched[key] = self.calls.deployed(key, dispatched)
        return self._dispatched[key]


def _spreads(call: tree_sitter.Node) -> bool:
    """Whether a call passes a slice's items (`append(xs, more...)`)."""
    arguments = call.child_by_field_name("arguments")
    return arguments is not None and any(child.type == "variadic_argument" for child in arguments.named_children)


def _local_manager_of(function: tree_sitter.Node | None) -> tree_sitter.Node | None:
    """The multicluster manager whose local manager a call asks for (`mcMgr` of `mcMgr.GetLocalManager()`): the
    controller-runtime manager it built from its options."""
    return _operand_asked(function, "GetLocalManager")


def _operand_asked(function: tree_sitter.Node | None, method: str) -> tree_sitter.Node | None:
    """The operand of a call of `method` (`x` of `x.GetCluster(ctx, name)`)."""
    if function is None or function.type != "selector_expression":
        return None
    name = function.child_by_field_name("field")
    return function.child_by_field_name("operand") if parser.text(name) == method else None


def _wrapped_manager_of(file: GoFile, call: tree_sitter.Node) -> tree_sitter.Node | None:
    """The controller-runtime manager multicluster-runtime's `mcmanager.WithMultiCluster(mgr, provider)` wraps."""
    called = call_parts(call)
    if called is None or called.name != "WithMultiCluster" or file.imports.get(called.operand_text) != MC_MANAGER:
        return None
    arguments = parser.named(called.arguments) if called.arguments is not None else []
    return arguments[0] if arguments else None


def is_manager_options(resolver: Resolver, type_ref: TypeRef | None) -> bool:
    """Whether a type is a manager's Options, also under a module's own alias (`type Options = manager.Options`)."""
    if type_ref is None:
        return False
    type_ref = resolver.declarations.unalias(type_ref)
    return type_ref.package in MANAGER_PACKAGES and type_ref.name == "Options"


# What a manager can be asked that does not hand it to the code that reads or watches through it.
_IDLE_MANAGER_USES = frozenset(
    {
        "GetAPIReader",
        "GetConfig",
        "GetScheme",
        "GetRESTMapper",
        "GetLogger",
        "GetHTTPClient",
        "GetEventRecorderFor",
        "AddHealthzCheck",
        "AddReadyzCheck",
        "Elected",
        "Start",
    }
)


def is_idle_manager(new_manager: tree_sitter.Node, started: bool = True) -> bool:
    """Whether the manager a NewManager call builds into a local is only asked for its API reader, config and the
    like (`mgr.GetAPIReader()`, a one-shot subcommand's): never handed on, nor asked for its client or cache,
    it runs no controller and no read of the module. With `started` false, one that is started is not idle: its
    cache starts (a webhook server's, whose options still scope its binary)."""
    statement = new_manager.parent.parent if new_manager.parent is not None else None
    if statement is None or statement.type not in ("short_var_declaration", "assignment_statement"):
        return False
    left = statement.child_by_field_name("left")
    names = parser.named(left) if left is not None else []
    function = innermost_function(statement)
    if not names or names[0].type != "identifier" or function is None:
        return False
    name = parser.text(names[0])
    asked = False  # with `started` false, a manager asked for nothing (`_, _ = ctrl.NewManager(…)`) is not idle
    for use in uses_in(function, name):
        if use.start_byte < statement.end_byte:
            continue  # the declaration itself
        asked = True
        parent = use.parent
        field = (
            parent.child_by_field_name("field") if parent is not None and parent.type == "selector_expression" else None
        )
        if field is None or parser.text(field) not in _IDLE_MANAGER_USES:
            return False
        if not started and parser.text(field) == "Start":
            return False
    return asked or started
