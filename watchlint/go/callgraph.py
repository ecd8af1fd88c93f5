"""The calls of a Go module's functions and the places its types are built, found on demand and kept."""

from __future__ import annotations

import re

import tree_sitter

from watchlint.go import parser
from watchlint.go.cyclememo import CycleMemo
from watchlint.go.declarations import Declarations, FunctionInfo, FunctionKey, resolve_type
from watchlint.go.dispatch import MethodIndex, takes
from watchlint.go.model import Call, GoFile, TypeRef
from watchlint.go.resolve import Resolver, assigned_to, element_value, key_of, keyed_entries, literal_items
from watchlint.go.scope import innermost_function
from watchlint.go.testonly import imports_test_framework, names_test_support


class CallGraph:
    """Who calls a module function, and where a method's receiver is built: what decides whether it runs."""

    def __init__(self, resolver: Resolver, files: list[GoFile], test_only: frozenset[str] = frozenset()) -> None:
        self.resolver = resolver
        self.files = files
        # packages only tests run (testonly.py): their calls are tests' as much as a `_test.go` file's
        self.test_only = test_only
        self.methods = MethodIndex(resolver)
        self._calls_by_name: dict[str, list[tuple[GoFile, Call]]] | None = None
        self._literals_by_type: dict[str, list[tuple[GoFile, tree_sitter.Node]]] | None = None
        # the builder calls given a value (Complete, Build), by the value's type (see registrations)
        self._registered: dict[TypeRef, list[tuple[GoFile, tree_sitter.Node]]] | None = None
        self._webhooks: dict[TypeRef, list[tuple[GoFile, tree_sitter.Node]]] | None = {}
        self._unresolved_names: dict[str, bool] = {}
        self._calls_by_method: dict[str, dict[FunctionKey, list[tuple[GoFile, tree_sitter.Node]]]] = {}
        self._callers: dict[FunctionKey, list[tuple[GoFile, tree_sitter.Node]]] = {}
        self._serves_tests: dict[str, bool] = {}  # file path -> serves_tests_only
        self._programs: bool | None = None  # see _has_programs
        self._made_without_literals: dict[tuple[str, str], bool] = {}  # see made_without_a_literal
        self._dispatched: dict[FunctionKey, list[tuple[GoFile, tree_sitter.Node]]] = {}  # calls through interfaces
        # per method name, the calls of it through a module interface, each with the methods it may run: asked
        # once per name, not per method of that name (kyverno's many `Get`s)
        self._dispatching: dict[str, list[tuple[GoFile, tree_sitter.Node, frozenset[FunctionKey]]]] = {}
        # functions listed in slices of functions (`[]func(ctrl.Manager) error{a.Setup, b.Setup}`), by name
        self._listed: dict[str, list[tuple[GoFile, tree_sitter.Node, tree_sitter.Node]]] | None = None
        # names handed on as values (a literal's field, an assignment's value, a call's argument), by last element
        self._handed: dict[str, list[tuple[GoFile, tree_sitter.Node]]] | None = None
        # per function: where it is handed on, the loops over the lists holding it, the calls of the fields holding
        # it (each asked for by client resolution and by guards, often more than once)
        self._references: dict[FunctionKey, list[tuple[GoFile, tree_sitter.Node]]] = {}
        self._listings: dict[
            FunctionKey, list[tuple[tuple[GoFile, tree_sitter.Node], list[tuple[GoFile, tree_sitter.Node]]]]
        ] = {}
        self._field_calls: dict[FunctionKey, list[tuple[GoFile, tree_sitter.Node]]] = {}
        # the calls that run a function-typed parameter, by the function, the parameter and how many forwards
        # led there (see _argument_calls)
        self._parameter_runs: CycleMemo[tuple[FunctionKey, int], tuple[tuple[GoFile, tree_sitter.Node], ...] | None] = (
            CycleMemo()
        )
        # the bytes of the module's generated files, which are not parsed (built_nowhere)
        self.unparsed: tuple[bytes, ...] = ()
        self._generated_searches = 0
        self._generated_words: frozenset[bytes] | None = None  # the words of `unparsed`, once many are asked for
        self._built_nowhere: dict[tuple[str, str], tuple[GoFile, tree_sitter.Node] | None] = {}
        # the calls of function-typed parameters, by the parameter's signature (see `called_through_parameters`)
        self._parameter_calls: dict[Signature, list[tuple[GoFile, tree_sitter.Node]]] | None = None
        self._unreached: dict[FunctionKey, bool] = {}  # see `unreached`
        self._by_file: dict[str, list[FunctionKey]] | None = None  # see `_declared_in`

    def callers(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The calls of one module function, resolved on demand: only helpers with a site or a guarded
        restriction are ever asked for, so resolving every call of the module up front would be wasted."""
        found = self._callers.get(key)
        if found is None:
            if key.receiver:
                found = self._method_calls(key.name).get(key, [])
            else:  # told from the call's text first, without resolving its callee (the costly part)
                found = [
                    (file, call)
                    for named in (key, *self.resolver.function_aliases().get(key, ()))
                    for file, call in self._named_nodes(named.name)
                    if _may_call_function(file, call, named) and self._callee_key(file, call) == key
                ]
            self._callers[key] = found
        return found

    def callers_through_interfaces(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]]:
        """`callers`, and for a method the calls through a module interface that may run it (every
        implementation's: which value the interface holds is not followed). For the kinds a helper's callers
        name; whether the helper runs by default is judged by its direct calls and constructions."""
        return self.callers(key) + self.dispatched_callers(key)

    def dispatched_callers(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]]:
        """For a method, the calls through a module interface that may run it (see `callers_through_interfaces`)."""
        if not key.receiver:
            return []
        found = self._dispatched.get(key)
        if found is None:
            found = [(file, node) for file, node, runs in self._dispatching_calls(key.name) if key in runs]
            self._dispatched[key] = found
        return found

    def _dispatching_calls(self, name: str) -> list[tuple[GoFile, tree_sitter.Node, frozenset[FunctionKey]]]:
        """The calls of a method name no declaration resolves, that go through a module interface, each with
        the methods it may run."""
        found = self._dispatching.get(name)
        if found is None:
            found = []
            for file, called in self.named(name):
                if self._callee_key(file, called.node) is not None:
                    continue
                runs = frozenset(info.key for info in self.methods.through_module_interface(file, called))
                if runs:
                    found.append((file, called.node, runs))
            self._dispatching[name] = found
        return found

    def interface_callers(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]] | None:
        """For a method no call names: the calls through a module interface that may run it (a mockable
        `Interface` field), where every other call of its name and arity is seen to run another method;
        None where the value of one is of a type not known (it may be this method's)."""
        info = self.resolver.declarations.functions.get(key)
        if info is None or not key.receiver:
            return None
        found: list[tuple[GoFile, tree_sitter.Node]] = []
        for file, called in self.named(key.name):
            if called.operand is None or parser.text(called.operand) in file.imports or not takes(info, called):
                continue  # a package's function, or a method taking other arguments
            if (file.is_test and not info.file.is_test) or self._callee_key(file, called.node) is not None:
                continue  # a test's call, or one of another method
            if self.resolver.type_of(file, called.operand) is None:
                return None
            if any(item.key == key for item in self.methods.through_module_interface(file, called)):
                found.append((file, called.node))
        return found

    def deployed(
        self, key: FunctionKey, places: list[tuple[GoFile, tree_sitter.Node]]
    ) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The calls (or constructions) of a function a binary makes: a binary holds no test, nor a package only
        tests import (vsphere-csi-driver's `pkg/kubernetes/testing` building a factory for a shared informer
        manager), so what tests do with a non-test function says nothing of the deployment (--include-tests)."""
        info = self.resolver.declarations.functions.get(key)
        if info is None or info.file.is_test or info.file.package_path in self.test_only:
            return places
        return [(file, node) for file, node in places if not file.is_test and file.package_path not in self.test_only]

    def deployed_callers(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The calls of a function a binary makes (`deployed` over `callers`)."""
        return self.deployed(key, self.callers(key))

    def deployed_passing(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The deployed calls that give a function its arguments: its own, or for a method no call names, the
        calls through an interface that may run it (kelemetry's `Clients.NewInformerFactory(informers.
        WithNamespace(ns), …)`)."""
        return self.deployed_callers(key) or self.deployed(key, self.callers_through_interfaces(key))

    def passing_calls(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The calls a binary makes that give a function its arguments: its callers and, for a plain function
        handed on as a value, the calls that may run it (`called_as_values`); for a method no call names, the
        calls through a module interface that may run it (kube-state-metrics' `b.internal.
        WithFieldSelectorFilter(…)` on its BuilderInterface field)."""
        calls = self.callers(key)
        if not key.receiver and self.references(key):
            calls = calls + self.called_as_values(key)
        elif key.receiver and not calls:
            calls = self.callers_through_interfaces(key)
        return self.deployed(key, calls)

    def _method_calls(self, name: str) -> dict[FunctionKey, list[tuple[GoFile, tree_sitter.Node]]]:
        """The calls of a method name grouped by the method each invokes, each call resolved once: the
        methods of generated wrappers share names (Get, List) by the hundred."""
        grouped = self._calls_by_method.get(name)
        if grouped is None:
            grouped = {}
            for file, call in self._named_nodes(name):
                if (callee := self._callee_key(file, call)) is not None:
                    grouped.setdefault(callee, []).append((file, call))
            self._calls_by_method[name] = grouped
        return grouped

    def constructions(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The composite literals building a method's receiver type: a method that no code of the module
        calls runs where its value is built (`if enableX { (&XReconciler{…}).SetupWithManager(mgr) }`)."""
        if self._literals_by_type is None:
            index: dict[str, list[tuple[GoFile, tree_sitter.Node]]] = {}
            receivers = {method.receiver for method in self.resolver.declarations.functions if method.receiver}
            for file in self.files:
                for literal in file.nodes("composite_literal"):
                    type_node = literal.child_by_field_name("type")
                    name = parser.text(type_node).rsplit(".", 1)[-1] if type_node is not None else ""
                    # only the types methods are declared on are asked for
                    if name in receivers and not _asserts_interface(literal):
                        index.setdefault(name, []).append((file, literal))
            self._literals_by_type = index
        built = TypeRef(key.package, key.receiver)
        return [
            (file, literal)
            for file, literal in self._literals_by_type.get(key.receiver, [])
            if (found := resolve_type(literal.child_by_field_name("type"), file)) is not None and found.base == built
        ]

    def registrations(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The builder calls handing a value of a method's receiver type to controller-runtime (`…Complete(r)`,
        `Build(r)`): a reconciler's Reconcile runs where they do (kubesphere's token controller, whose
        SetupWithManager returns before registering it unless its auth mode is chosen); a webhook's Default and
        Validate methods where a webhook builder is given the value (redpanda's `NewWebhookManagedBy(mgr, r).
        WithValidator(&Cluster{})`, registered under --webhook-enabled)."""
        if self._registered is None:  # indexed once: a module may hold hundreds of reconcilers
            self._registered = {}
            for name in _REGISTERING:
                for file, called in self.named(name):
                    arguments = parser.named(called.node.child_by_field_name("arguments") or called.node)
                    typed = self.resolver.type_of(file, arguments[0]) if len(arguments) == 1 else None
                    if typed is not None:
                        found = self._registered.setdefault(typed.base, [])
                        found.append((file, called.node))
                        found.extend((file, call) for call in _handed_beside(called.node, arguments[0]))
            self._webhooks = self._webhook_registrations()
        if key.name not in WEBHOOK_CALLED:
            return self._registered.get(TypeRef(key.package, key.receiver), [])
        if self._webhooks is None or self._called_out_of_sight(key.name):
            return []  # registered where the value is not told, or called through an interface not the module's
        # a method promoted to a struct embedding its type runs where that struct is registered too
        owner = TypeRef(key.package, key.receiver)
        return [place for held in (owner, *self.methods.embedding(owner)) for place in self._webhooks.get(held, [])]

    def _webhook_registrations(self) -> dict[TypeRef, list[tuple[GoFile, tree_sitter.Node]]] | None:
        """The calls registering a value whose Default or Validate methods controller-runtime's webhooks call, by
        the value's type: in a webhook builder's chain (rooted at `NewWebhookManagedBy`), `For(obj)` (the type's
        own methods), its generic form's `NewWebhookManagedBy(mgr, obj)`, `WithValidator(v)` and
        `WithDefaulter(d)`; `admission.WithCustomValidator(scheme, obj, v)` and its defaulter. None where a
        validator or defaulter is a value of no module struct (an interface a helper takes): any type may be
        registered."""
        registered: dict[TypeRef, list[tuple[GoFile, tree_sitter.Node]]] = {}
        for name, position in _WEBHOOK_REGISTERING.items():
            for file, called in self.named(name):
                if name in _WEBHOOK_BUILDER_CALLS and not _in_webhook_chain(called.node):
                    continue
                arguments = parser.named(called.node.child_by_field_name("arguments") or called.node)
                if len(arguments) != position + 1:
                    continue  # `NewWebhookManagedBy(mgr)`: the object comes with For
                typed = self.resolver.type_of(file, arguments[position])
                if typed is not None and typed.base in self.resolver.declarations.structs:
                    registered.setdefault(typed.base, []).append((file, called.node))
                elif name not in _WEBHOOK_OBJECT_CALLS:
                    return None  # a validator or defaulter of a type not told: any may be registered
        return registered

    def _called_out_of_sight(self, name: str) -> bool:
        """Whether deployed code calls a method of this name that resolves to no module function (a Default
        called through controller-runtime's `admission.Defaulter`, which a reconciler may apply itself)."""
        if name not in self._unresolved_names:
            self._unresolved_names[name] = any(
                not file.is_test
                and call.operand is not None
                and call.operand_text not in file.imports  # a package's function, no method
                and self._callee_key(file, call.node) is None
                for file, call in self.named(name)
            )
        return self._unresolved_names[name]

    def built_nowhere(self, key: FunctionKey) -> tuple[GoFile, tree_sitter.Node] | None:
        """The declaration of a method's receiver type that no code of the module names (but its own declaration
        and its methods' receivers), where no other module may name it either: a type of an `internal/` or main
        package. agentic-k8s-operator's main registers two of its three reconcilers; the third, TenantReconciler,
        is built nowhere, so its watches and reads never run. None otherwise."""
        type_key = (key.package, key.receiver)
        if type_key not in self._built_nowhere:
            self._built_nowhere[type_key] = self._compute_built_nowhere(key)
        return self._built_nowhere[type_key]

    def _compute_built_nowhere(self, key: FunctionKey) -> tuple[GoFile, tree_sitter.Node] | None:
        declaring = next((file for file in self.files if file.package_path == key.package and not file.is_test), None)
        internal = "internal" in key.package.split("/")
        if not key.receiver or declaring is None or not (internal or declaring.package_name == "main"):
            return None
        name, declared = key.receiver.encode(), None
        if self._named_in_generated(key.receiver):  # a generated file (wire's injector) may build it
            return None
        for file in self.files:  # test files among them only with --include-tests, where tests run it
            if name not in file.source.data:
                continue
            for node in parser.identifiers_named(file.tree.root_node, key.receiver, kinds=_NAME_KINDS):
                if node.parent is not None and node.parent.type == "type_spec" and file.package_path == key.package:
                    declared = (file, node)
                elif not _in_receiver(node):
                    return None
        return declared

    def _named_in_generated(self, name: str) -> bool:
        """Whether one of the module's generated files, which are not parsed, names a function or type: it may
        call or build it (wire's injector). The first few names are searched for in their text; past those, its
        words are gathered once (argo-cd asks for 200 names in 5.5 MB of generated code)."""
        if self._generated_words is None:
            self._generated_searches += 1
            if self._generated_searches <= _SEARCHES_BEFORE_WORDS:
                encoded = name.encode()
                return any(
                    re.search(rb"\b%s\b" % re.escape(encoded), data) for data in self.unparsed if encoded in data
                )
            self._generated_words = frozenset(word for data in self.unparsed for word in _WORD.findall(data))
        return name.encode() in self._generated_words

    def leftover(self, key: FunctionKey) -> FunctionInfo | None:
        """A plain function no deployed code calls nor hands on, where no other module may call it either (of an
        `internal/` or main package, or unexported): cluster-api-provider-baremetal's `NewControlPlaneUpgrader`,
        which only tests call, so the upgrader it builds never reads; spiderpool's `getIPToPodMap`. None
        otherwise."""
        info = self.resolver.declarations.functions.get(key)
        if info is None or key.receiver or key.name in ("main", "init") or info.file.is_test:
            return None
        # an unexported function is no other module's to call, where the module builds programs of its own (a
        # library's, or a documentation snippet's, may be called by code that is not there)
        hidden = not key.name[:1].isupper() and self._has_programs()
        if not (hidden or "internal" in key.package.split("/") or info.file.package_name == "main"):
            return None
        if self._named_in_generated(key.name):  # a generated file (wire's injector) may call it
            return None
        if self.deployed_callers(key) or self.deployed(key, self.references(key)):
            return None
        if hidden and self._named_elsewhere(key, info):
            return None  # named in its package's code in a way not followed (`f[T]` handed on, `range f`)
        return info

    def _named_elsewhere(self, key: FunctionKey, info: FunctionInfo) -> bool:
        """Whether the package's production files name an unexported function anywhere but its declaration."""
        declared = info.node.child_by_field_name("name")
        return any(
            name.start_byte != (declared.start_byte if declared is not None and file is info.file else -1)
            for file in self.files
            if not file.is_test and file.package_path == key.package
            for name in parser.identifiers_named(file.tree.root_node, key.name)
        )

    def unreached(self, key: FunctionKey, depth: int = 0) -> bool:
        """Whether no binary of the module runs a function: a test's, one every call of which the module's own
        code makes in such a function, a plain function nothing calls nor hands on, a method of a type built
        nowhere; a function of a file that serves tests only (linkerd's `NewFakeClusterScopedAPI` of
        `test_helper.go`, which tests and other such files call; not an `ab_testing.go` main sets up). Asked of
        calls the module makes, so a call from another module is not looked for; main and init run."""
        info = self.resolver.declarations.functions.get(key)
        if info is None or (not key.receiver and key.name in ("main", "init")):
            return False
        if self.serves_tests(info.file):
            return True
        found = self._unreached.get(key)
        if found is not None or depth > _UNREACHED_DEPTH:
            return bool(found)
        self._unreached[key] = False  # a cycle of calls reaches nothing new: taken as run
        if key.receiver:
            found = self.built_nowhere(key) is not None
        elif self._named_in_generated(key.name) or self.deployed(key, self.references(key)):
            found = False  # a generated file (wire's injector) may call it; whoever is handed it may
        else:
            found = all(
                (caller := self.resolver.function_key(file, call)) is not None and self.unreached(caller, depth + 1)
                for file, call in self.deployed_callers(key)
            )
        self._unreached[key] = found
        return found

    def _has_programs(self) -> bool:
        """Whether a production file of the module is of a `package main`."""
        if self._programs is None:
            self._programs = any(file.package_name == "main" and not file.is_test for file in self.files)
        return self._programs

    def made_without_a_literal(self, key: FunctionKey) -> bool:
        """Whether production code may make a value of a method's type other than by a composite literal: `new(T)`,
        a `var t T`, a field, embedding, list or map of it by value (zero values all), as far as a text search
        tells; a literal is what `constructions` finds."""
        found = self._made_without_literals.get((key.package, key.receiver))
        if found is not None:
            return found
        name = re.escape(key.receiver.encode())
        pattern = re.compile(
            rb"(?m)(?:\bnew\(\s*|\]\s*|^\s*(?!type\b|return\b|case\b)(?:var\s+)?(?:\w+(?:\s*,\s*\w+)*\s+)?)(?:\w+\.)?"
            + name
            + rb"\b(?!\s*[{(.])"
        )
        found = any(not file.is_test and pattern.search(file.source.data) for file in self.files)
        self._made_without_literals[(key.package, key.receiver)] = found
        return found

    def serves_tests(self, file: GoFile) -> bool:
        """Whether a file is a test, of a package only tests import, or test support no binary runs (by its name,
        `serves_tests_only`, asked once per file)."""
        if file.is_test or file.package_path in self.test_only:
            return True
        found = self._serves_tests.get(file.path)
        if found is None:
            # by its name only, not by importing a test framework (`testing.Testing()` in production code), and not
            # a file whose init registers its functions
            named = names_test_support(file.path) and not _has_init(file)
            found = self._serves_tests[file.path] = named and self.serves_tests_only(file)
        return found

    def serves_tests_only(self, file: GoFile) -> bool:
        """Whether a file that is no test is named as test support (opensearch's `suite_test_helpers.go`, beside
        the controllers) or imports a test framework (wave's ginkgo `controller_suite.go`), and no binary runs a
        function of it: nothing outside such files calls one or hands it on, nor names it in a generated file."""
        if file.is_test or not (names_test_support(file.path) or imports_test_framework(file)):
            return False
        for key in self._declared_in().get(file.path, ()):
            if self._named_in_generated(key.name):
                return False
            used = [*self.deployed_callers(key), *self.deployed(key, self.references(key))]
            # its own functions' calls count where those run, each of which is asked of in turn
            if any(user is not file and not names_test_support(user.path) for user, _ in used):
                return False
        return True

    def _declared_in(self) -> dict[str, list[FunctionKey]]:
        """The module's functions and methods by the file declaring them."""
        if self._by_file is None:
            self._by_file = {}
            for key, info in self.resolver.declarations.functions.items():
                self._by_file.setdefault(info.file.path, []).append(key)
        return self._by_file

    def runs_when_reached(self, file: GoFile, node: tree_sitter.Node) -> bool:
        """Whether the function around a node runs where its package is: main and init at start-up, a method
        (run through interfaces), a function literal's body, or a plain function production code calls or hands
        on as a value; not a plain function nothing calls (a leftover)."""
        key = self.resolver.function_key(file, node)
        if key is None or key.receiver or key.name in ("main", "init"):
            return True
        return bool(self.deployed_callers(key) or self.deployed(key, self.references(key)))

    def references(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The places a plain function is handed on as a value (`NewManager: reaper.NewManager`, `r.newClient =
        newClient`, `register(setup)`): whoever is given it may call it, so it may run where it is handed on."""
        found = self._references.get(key)
        if found is None:
            found = self._references[key] = self._compute_references(key)
        return found

    def method_values(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The places a method is handed on as a value (`handler.EnqueueRequestsFromMapFunc(r.mapPods)`, a
        field set to `r.start`): a method no call names runs where they are."""
        if not key.receiver:
            return []
        receiver = TypeRef(key.package, key.receiver)
        return [
            (file, value)
            for file, value in self._handed_named(key.name)
            if value.type == "selector_expression"
            and (operand := self.resolver.type_of(file, value.child_by_field_name("operand"))) is not None
            and operand.base == receiver
        ]

    def _handed_named(self, name: str) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The names handed on as values whose last element is `name`, in the files' order. Every file is
        walked once, at the first name asked: searching the files' text for each name instead cost kubeblocks
        (1,100 files of one module, 319 names asked) 0.6 s."""
        if self._handed is None:
            self._handed = {}
            for file in self.files:
                for value in _handed_values(file):
                    self._handed.setdefault(parser.text(value).rsplit(".", 1)[-1], []).append((file, value))
        return self._handed.get(name, [])

    def _compute_references(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]]:
        if key.receiver or key not in self.resolver.declarations.functions:
            return []
        return [
            (file, value)
            for file, value in self._handed_named(key.name)
            if _names_function(file, value, key)
            and (named := self.resolver.function_named(file, value)) is not None
            and named.key == key
        ]

    def called_from_lists(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The calls that may run a function listed in a slice of functions, as Setup functions are
        (`for _, setup := range setups { setup(mgr, o) }`): in the function holding the list, the calls of a
        local name (not a declared function) with as many arguments as it takes."""
        found: dict[tuple[str, int], tuple[GoFile, tree_sitter.Node]] = {}  # a loop over two lists, once
        for _, calls in self._list_calls(key):
            found.update(((file.path, call.start_byte), (file, call)) for file, call in calls)
        return list(found.values())

    def listed_where_called(self, key: FunctionKey) -> frozenset[tuple[str, int]]:
        """The places (file path, offset) a function is listed at whose list's loop calls are found: where it
        runs is told by those calls, not by the listing (an `init` appending it to a registry)."""
        return frozenset((file.path, item.start_byte) for (file, item), calls in self._list_calls(key) if calls)

    def _list_calls(
        self, key: FunctionKey
    ) -> list[tuple[tuple[GoFile, tree_sitter.Node], list[tuple[GoFile, tree_sitter.Node]]]]:
        """Each place a plain function is listed at, with the calls of the loops over that list."""
        found = self._listings.get(key)
        if found is None:
            found = self._listings[key] = self._compute_list_calls(key)
        return found

    def _compute_list_calls(
        self, key: FunctionKey
    ) -> list[tuple[tuple[GoFile, tree_sitter.Node], list[tuple[GoFile, tree_sitter.Node]]]]:
        info = self.resolver.declarations.functions.get(key)
        if info is None or key.receiver:
            return []
        found = []
        for file, literal, item in self._function_lists().get(key.name, []):
            if not _names_function(file, item, key):
                continue
            holder = file.enclosing_function(literal) if literal.type == "composite_literal" else None
            if holder is None:
                variable = _appended_to(literal) if literal.type == "call_expression" else _held_by(literal)
                found.append(((file, item), self._calls_ranging_over(file, variable, info)))
                continue
            calls = [
                (file, call.node)
                for call in file.calls()
                if call.operand is None
                and parser.encloses(holder, call.node)
                and _calls_a_local(self.resolver, file, call, info)
            ]
            found.append(((file, item), calls))
        return found

    def called_as_values(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The calls that may run a plain function handed on as a value rather than called by name: listed in
        a slice of functions (`called_from_lists`), stored in a struct field (`called_through_fields`) or given
        to a function-typed parameter (`called_through_parameters`)."""
        return (
            self.called_from_lists(key)
            + self.called_through_fields(key)
            + self.called_through_parameters(key)
            + self.called_from_registries(key)
        )

    def called_through_arguments(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]] | None:
        """For a plain function handed on as a value, the calls that run it where each place hands it to a module
        function's parameter (kong's `operator.Run(operator.Setup)`, whose Run calls `setup(mgr)`): the calls of
        that parameter in the function, of the items of a loop over it (a variadic `setups ...func(…)`), and
        those of the functions it hands the parameter on to in turn. None where a place hands it on otherwise
        (stored, listed, given to a library, used in other ways), whose calls are not told."""
        found: dict[tuple[str, int], tuple[GoFile, tree_sitter.Node]] = {}
        for file, value in self.references(key):
            calls = self._argument_calls(file, value, 0)
            if calls is None:
                return None
            found.update(((call_file.path, call.start_byte), (call_file, call)) for call_file, call in calls)
        return list(found.values())

    def _argument_calls(
        self, file: GoFile, value: tree_sitter.Node, depth: int
    ) -> tuple[tuple[GoFile, tree_sitter.Node], ...] | None:
        """The calls that run a function value passed as an argument of a module function's call."""
        arguments = value.parent
        call = arguments.parent if arguments is not None and arguments.type == "argument_list" else None
        callee = self.resolver.callee(file, call) if call is not None and depth <= _FORWARDS else None
        parameter = callee.parameter_at(parser.position_in(arguments, value)) if callee and arguments else None
        if callee is None or parameter is None:
            return None
        # a cycle of forwards (the parameter met again while its runs are worked out) adds no call
        return self._parameter_runs.get(
            (callee.key, parameter.index),
            depth,
            lambda: self._runs_of_parameter(callee, parameter.name, parameter.index, depth),
            (),
        )

    def _runs_of_parameter(
        self, callee: FunctionInfo, name: str, index: int, depth: int
    ) -> tuple[tuple[GoFile, tree_sitter.Node], ...] | None:
        """The calls that run a function's function-typed parameter: called, ranged over, handed on in turn;
        compared or logged uses aside. None for any other use."""
        found: list[tuple[GoFile, tree_sitter.Node]] = []
        for use in parser.identifiers_named(callee.node.child_by_field_name("body") or callee.node, name):
            declared = self.resolver.declaration(callee.file, use)
            if declared is None or declared.parameter_index != index:
                continue  # another name spelled alike
            parent = use.parent
            if (
                parent is not None
                and parent.type == "call_expression"
                and parent.child_by_field_name("function") == use
            ):
                found.append((callee.file, parent))
            elif parent is not None and parent.type == "range_clause":
                found += self._ranged_calls(callee.file, callee.node, use)
            elif parent is not None and (parent.type == "binary_expression" or _logged(parent)):
                continue  # `if setup == nil`, `log.Printf("%p", setup)`: runs nothing
            elif parent is not None and parent.type == "argument_list":
                forwarded = self._argument_calls(callee.file, use, depth + 1)
                if forwarded is None:
                    return None
                found += forwarded
            else:
                return None
        return tuple(found)

    def _ranged_calls(
        self, file: GoFile, function: tree_sitter.Node, ranged: tree_sitter.Node
    ) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The calls of the item of a loop over `ranged` (`for _, setup := range setups { setup(mgr) }`)."""
        found = []
        for call in file.nodes_within("call_expression", function):
            called = call.child_by_field_name("function")
            local = (
                self.resolver.declaration(file, called) if called is not None and called.type == "identifier" else None
            )
            if local is not None and local.ranged_node is not None and local.ranged_node == ranged:
                found.append((file, call))
        return found

    def called_from_registries(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The calls that may run a plain function handed to a module function that keeps its parameter in a
        package variable's map or slice (fluid's `Register(name, sidecar.NewPlugin)` storing `registry[name] =
        f`): those of the items a loop over it or an index into it takes (`for _, f := range registry { f(c) }`)."""
        info = self.resolver.declarations.functions.get(key)
        if info is None or key.receiver:
            return []
        found: list[tuple[GoFile, tree_sitter.Node]] = []
        for file, value in self.references(key):
            arguments = value.parent
            if arguments is None or arguments.type != "argument_list" or arguments.parent is None:
                continue
            callee = self.resolver.callee(file, arguments.parent)
            if callee is None:
                continue
            parameter = callee.parameter_at(parser.position_in(arguments, value), variadic=False)
            for held in self._kept_in_package_variables(callee, parameter.name) if parameter is not None else []:
                holding = callee.file
                if held == _RECEIVER:  # `registry.Register(name, f)` of `type Registry map[…]…`: the variable called on
                    function = arguments.parent.child_by_field_name("function")
                    operand = function.child_by_field_name("operand") if function is not None else None
                    if operand is None or operand.type != "identifier":
                        continue
                    held, holding = parser.text(operand), file
                found.extend(self._calls_ranging_over(holding, held, info))
        return found

    def _kept_in_package_variables(self, function: FunctionInfo, name: str) -> list[str]:
        """The package variables a function keeps a parameter in: `registry[key] = name`, `list = append(list,
        name)`; _RECEIVER where a method keeps it in its receiver (fluid's `r[name] = factory` of a map type)."""
        body, file = function.node.child_by_field_name("body"), function.file
        receiver = function.node.child_by_field_name("receiver")
        receivers = {
            parser.text(declared)
            for item in (parser.named(receiver) if receiver is not None else [])
            for declared in item.children_by_field_name("name")
        }
        kept = []
        for left, _, targets, values in file.assignments():
            if body is None or not parser.encloses(body, left) or len(targets) != 1 or len(values) != 1:
                continue
            target, value = targets[0], values[0]
            held = target.child_by_field_name("operand") if target.type == "index_expression" else target
            if held is None or held.type != "identifier":
                continue
            receiving = target.type == "index_expression" and parser.text(held) in receivers
            if not receiving and self.resolver.declaration(file, held) is not None:
                continue  # a local or a parameter, not a package variable
            stored = target.type == "index_expression" and parser.text(value) == name
            appended = (
                value.type == "call_expression" and parser.text(value.child_by_field_name("function")) == "append"
            )
            items = parser.named(value.child_by_field_name("arguments") or value) if appended else []
            if stored or (appended and [parser.text(item) for item in items[1:]] == [name]):
                kept.append(_RECEIVER if receiving else parser.text(held))
        return kept

    def called_through_parameters(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]]:
        """For a plain function handed on as a value, the calls of the module's function-typed parameters of its
        signature: kube-state-metrics hands `createConfigMapListWatch` on through a field holding a method value
        to `buildStores(…, listWatchFunc func(clientset.Interface, string, string) cache.ListerWatcher)`, which
        calls `listWatchFunc(b.kubeClient, v1.NamespaceAll, …)`. Which function each parameter is given is not
        followed: any handed on with that signature may be it."""
        info = self.resolver.declarations.functions.get(key)
        if info is None or key.receiver or not self.references(key):
            return []
        signature = function_signature(info.file, info.node)
        if signature is None:
            return []
        if self._parameter_calls is None:
            self._parameter_calls = self._index_parameter_calls()
        return self._parameter_calls.get(signature, [])

    def _index_parameter_calls(self) -> dict[Signature, list[tuple[GoFile, tree_sitter.Node]]]:
        found: dict[Signature, list[tuple[GoFile, tree_sitter.Node]]] = {}
        for info in self.resolver.declarations.functions.values():
            for name, signature in _function_parameters(info, self.resolver.declarations):
                for file, call in self.named(name):
                    function = call.node.child_by_field_name("function")
                    if (
                        file is info.file
                        and call.operand is None
                        and parser.encloses(info.node, call.node)
                        and function is not None
                        and (declared := self.resolver.declaration(file, function)) is not None
                        and (declared.parameter_index >= 0 or declared.is_receiver)
                        and parser.encloses(info.node, declared.node)
                    ):
                        found.setdefault(signature, []).append((file, call.node))
        return found

    def called_through_fields(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The calls of a struct field a plain function is stored in (`esClientFn: esutils.NewClient` in a
        literal, `r.newClient = newClient`), made through a value of that struct with as many arguments as the
        function takes (`r.esClientFn(r.client, …)`)."""
        found_calls = self._field_calls.get(key)
        if found_calls is None:
            found_calls = self._field_calls[key] = self._compute_field_calls(key)
        return found_calls

    def _compute_field_calls(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]]:
        info = self.resolver.declarations.functions.get(key)
        if info is None or key.receiver:
            return []
        found: dict[tuple[str, int], tuple[GoFile, tree_sitter.Node]] = {}
        for file, value in self.references(key):
            holder = self._field_holding(file, value)
            if holder is None:
                continue
            struct, field_name = holder
            for other, call in self.named(field_name):
                if call.operand is None or not takes(info, call):  # variadic options left out too
                    continue
                owner = self.resolver.type_of(other, call.operand)
                if owner is not None and self.resolver.declarations.unalias(owner.base) == struct:
                    found[other.path, call.node.start_byte] = (other, call.node)
        return list(found.values())

    def _field_holding(self, file: GoFile, value: tree_sitter.Node) -> tuple[TypeRef, str] | None:
        """The struct and field a value is stored in: `T{field: value}` (also `&T{…}`), or `x.field = value`."""
        declarations = self.resolver.declarations
        field_name = key_of(value)
        if field_name is not None:
            literal: tree_sitter.Node | None = value
            for _ in range(4):  # up through its literal_element, keyed_element and literal_value
                literal = literal.parent if literal is not None else None
            if literal is None or literal.type != "composite_literal":
                return None
            struct = resolve_type(literal.child_by_field_name("type"), file)
            return (declarations.unalias(struct.base), field_name) if struct is not None else None
        target = assigned_to(value)
        if target is None or target.type != "selector_expression":
            return None
        owner = self.resolver.type_of(file, target.child_by_field_name("operand"))
        named = parser.text(target.child_by_field_name("field"))
        return (declarations.unalias(owner.base), named) if owner is not None else None

    def _calls_ranging_over(
        self, file: GoFile, held: str | None, info: FunctionInfo
    ) -> list[tuple[GoFile, tree_sitter.Node]]:
        """For a list held by a package variable (`var probes = []probeFn{probeCalico, …}`, or filled by
        `AddToManagerFuncs = append(AddToManagerFuncs, subscription.Add)` in an init function), the calls of the
        item of a loop over it in the functions of its package (`for _, probe := range probes { probe(ctx, c) }`),
        or of an item taken from a map of them (kubeblocks' `f, ok := reconcilerFuncMap[kind]; f(c, r)`, or
        `reconcilerFuncMap[kind](c, r)`)."""
        if held is None:
            return []
        found = []
        for other in self.files:
            if other.package_path != file.package_path or held.encode() not in other.source.data:
                continue
            for call in other.calls():
                function = call.node.child_by_field_name("function")
                if call.operand is not None or function is None or not _takes_as_many(call, info):
                    continue
                taken: tree_sitter.Node | None = None
                if function.type == "index_expression":
                    taken = function
                elif function.type == "identifier" and (local := self.resolver.declaration(other, function)):
                    # the item of a loop, or the value taken from the map (not the `ok` beside it)
                    taken = local.ranged_node or (local.value_node if not local.value_index else None)
                if taken is not None and taken.type == "index_expression":
                    taken = taken.child_by_field_name("operand")
                if taken is not None and parser.text(taken) == held:
                    found.append((other, call.node))
        return found

    def _function_lists(self) -> dict[str, list[tuple[GoFile, tree_sitter.Node, tree_sitter.Node]]]:
        """The names listed in slices of functions (`[]func(ctrl.Manager) error{a.Setup, b.Setup}`), or given
        as the values of a map of them (Infisical's `map[AuthStrategyType]func(…){…: HandleKubernetesAuth}`), by
        their last element, each with its file and literal; indexed once."""
        if self._listed is None:
            self._listed = {}
            function_types = _function_type_names(self.files)
            for file in self.files:
                for literal in file.nodes("composite_literal"):
                    type_node = literal.child_by_field_name("type")
                    kind = type_node.type if type_node is not None else ""
                    field = {"slice_type": "element", "map_type": "value"}.get(kind)
                    element = type_node.child_by_field_name(field) if type_node is not None and field else None
                    if element is None:
                        continue
                    named = element.type in ("type_identifier", "qualified_type")
                    if element.type != "function_type" and not (
                        named and parser.text(element).rsplit(".", 1)[-1] in function_types
                    ):
                        continue
                    items = [value for _, value in keyed_entries(literal)] if kind == "map_type" else None
                    for item in literal_items(literal) if items is None else items:
                        if item.type in ("identifier", "selector_expression"):
                            name = parser.text(item).rsplit(".", 1)[-1]
                            self._listed.setdefault(name, []).append((file, literal, item))
                for call, item in self._appended_functions(file, function_types):
                    self._listed.setdefault(parser.text(item).rsplit(".", 1)[-1], []).append((file, call, item))
        return self._listed

    def _appended_functions(
        self, file: GoFile, function_types: frozenset[str]
    ) -> list[tuple[tree_sitter.Node, tree_sitter.Node]]:
        """The functions a file appends to a package variable's slice of functions (`AddToManagerFuncs =
        append(AddToManagerFuncs, subscription.Add)` in an init function), each with its `append` call."""
        found: list[tuple[tree_sitter.Node, tree_sitter.Node]] = []
        for call in file.calls():
            if call.name != "append" or call.operand is not None or call.arguments is None:
                continue
            items = parser.named(call.arguments)
            if items and self._lists_functions(file, items[0], function_types):
                found.extend(
                    (call.node, item) for item in items[1:] if item.type in ("identifier", "selector_expression")
                )
        return found

    def _lists_functions(self, file: GoFile, node: tree_sitter.Node, function_types: frozenset[str]) -> bool:
        """Whether `node` names a package variable declared as a slice of functions (`var AddToManagerFuncs
        []func(manager.Manager) error`)."""
        variable = self.resolver.declarations.variables.get((file.package_path, parser.text(node)))
        declared = variable.type_node if variable is not None and node.type == "identifier" else None
        element = (
            declared.child_by_field_name("element") if declared is not None and declared.type == "slice_type" else None
        )
        if element is None:
            return False
        return element.type == "function_type" or parser.text(element).rsplit(".", 1)[-1] in function_types

    def _callee_key(self, file: GoFile, call: tree_sitter.Node) -> FunctionKey | None:
        info = self.resolver.callee(file, call)
        return info.key if info is not None else None

    def named(self, name: str) -> list[tuple[GoFile, Call]]:
        """Calls whose function name (the last selector element) is `name`; indexed once, without resolving."""
        if self._calls_by_name is None:
            index: dict[str, list[tuple[GoFile, Call]]] = {}
            for file in self.files:
                for call in file.calls():
                    index.setdefault(call.name, []).append((file, call))
            self._calls_by_name = index
        return self._calls_by_name.get(name, [])

    def _named_nodes(self, name: str) -> list[tuple[GoFile, tree_sitter.Node]]:
        return [(file, call.node) for file, call in self.named(name)]


# a function type's parameter and result types, each a resolved type or, where none resolves (`interface{}`,
# `[]string`), its text; a variadic parameter's type is marked
Signature = tuple[tuple[TypeRef | str, ...], tuple[TypeRef | str, ...]]

_WORD = re.compile(rb"[A-Za-z_]\w*")
_SEARCHES_BEFORE_WORDS = 16  # names searched for in the generated files' text before their words are gathered
_REGISTERING = ("Complete", "Build")  # a controller builder's calls given the reconciler
# what controller-runtime's webhooks call on the values a webhook builder is given, and the builder's calls
# giving them, with the position of the value among their arguments
WEBHOOK_CALLED = frozenset({"Default", "ValidateCreate", "ValidateUpdate", "ValidateDelete"})
_WEBHOOK_BUILDER = "NewWebhookManagedBy"
_WEBHOOK_BUILDER_CALLS = frozenset({"For", "WithValidator", "WithDefaulter", _WEBHOOK_BUILDER})
_WEBHOOK_OBJECT_CALLS = frozenset({"For", _WEBHOOK_BUILDER})  # given the object: an API type of another module
_WEBHOOK_REGISTERING = {
    "For": 0,
    "WithValidator": 0,
    "WithDefaulter": 0,
    _WEBHOOK_BUILDER: 1,
    "WithCustomValidator": 2,
    "WithCustomDefaulter": 2,
}
_UNREACHED_DEPTH = 5  # callers followed up from a function, at most, to tell that no binary runs it


def _logged(arguments: tree_sitter.Node) -> bool:
    """Whether an argument list is a log or print call's (`log.Printf(…)`, `setupLog.Info(…)`, `fmt.Sprintf(…)`):
    a printing method of a receiver named like a logger, or of fmt."""
    call = arguments.parent if arguments.type == "argument_list" else None
    function = call.child_by_field_name("function") if call is not None else None
    if function is None or function.type != "selector_expression":
        return False
    operand = parser.text(function.child_by_field_name("operand")).lower()
    method = parser.text(function.child_by_field_name("field"))
    logger = operand in ("fmt", "klog") or operand.startswith("log") or operand.endswith(("log", "logger"))
    return logger and method.rstrip("fln") in _PRINTING


_PRINTING = frozenset({"Print", "Sprint", "Error", "Info", "Warn", "Warning", "Debug", "Fatal", "Trace", "V"})


_FORWARDS = 3  # functions a function value is handed on through, parameter to parameter
_RECEIVER = ""  # a method's receiver, among the variables a function keeps a parameter in


# every name a type may be written with: `&T{}`, `new(T)`, `var t T` (type identifiers), `Setup[T]()`, `(*T).Run`
# (identifiers), `Reconcilers{T: …}` (a field, which may hold one)
_NAME_KINDS = ("type_identifier", "identifier", "field_identifier")


def _in_webhook_chain(call: tree_sitter.Node) -> bool:
    """Whether a call is `NewWebhookManagedBy(…)` or a call of the chain of builder methods rooted at it."""
    current: tree_sitter.Node | None = call
    while current is not None and current.type == "call_expression":
        function = current.child_by_field_name("function")
        if function is not None and function.type == "selector_expression":
            field = function.child_by_field_name("field")
            if field is not None and parser.text(field) == _WEBHOOK_BUILDER:
                return True
            current = function.child_by_field_name("operand")
        else:
            return function is not None and parser.text(function) == _WEBHOOK_BUILDER
    return False


def _handed_beside(registering: tree_sitter.Node, reconciler: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The other calls of the function holding a builder's `Complete(r)` that are handed `r` too (fluid's
    `watch.SetupWatcherForReconciler(mgr, options, r)` in the other branch, building a controller of its own
    around it through controller.Options.Reconciler): each may register the reconciler as well."""
    function = innermost_function(registering)
    if function is None or reconciler.type != "identifier":
        return []
    handed = []
    body = function.child_by_field_name("body") or function
    for use in parser.identifiers_named(body, parser.text(reconciler)):
        arguments = use.parent
        call = arguments.parent if arguments is not None and arguments.type == "argument_list" else None
        if call is not None and call != registering and call.type == "call_expression":
            handed.append(call)
    return handed


def _in_receiver(node: tree_sitter.Node) -> bool:
    """Whether a type name is a method's receiver type (`func (r *T) Reconcile(…)`)."""
    current = node.parent
    while current is not None and current.type in ("pointer_type", "generic_type", "parameter_declaration"):
        current = current.parent
    holder = current.parent if current is not None and current.type == "parameter_list" else None
    return (
        holder is not None and holder.type == "method_declaration" and holder.child_by_field_name("receiver") == current
    )


def function_signature(file: GoFile, node: tree_sitter.Node) -> Signature | None:
    """The signature of a function declaration or function type; None for a generic function."""
    if node.child_by_field_name("type_parameters") is not None:
        return None
    parameters = node.child_by_field_name("parameters")
    result = node.child_by_field_name("result")
    if parameters is None:
        return None
    results: tuple[TypeRef | str, ...] = ()
    if result is not None:
        results = _list_types(file, result) if result.type == "parameter_list" else (_type_key(file, result),)
    return _list_types(file, parameters), results


def _list_types(file: GoFile, parameters: tree_sitter.Node) -> tuple[TypeRef | str, ...]:
    found: list[TypeRef | str] = []
    for declaration in parameters.named_children:
        if declaration.type not in ("parameter_declaration", "variadic_parameter_declaration"):
            continue
        key = _type_key(file, declaration.child_by_field_name("type"))
        if declaration.type == "variadic_parameter_declaration":
            key = f"...{key}"
        found.extend([key] * max(1, len(declaration.children_by_field_name("name"))))
    return tuple(found)


def _type_key(file: GoFile, node: tree_sitter.Node | None) -> TypeRef | str:
    resolved = resolve_type(node, file)
    return resolved if resolved is not None else "".join(parser.text(node).split())


def _function_parameters(info: FunctionInfo, declarations: Declarations) -> list[tuple[str, Signature]]:
    """A function's parameters declared with a function type (`listWatchFunc func(…) cache.ListerWatcher`) or a
    module type naming one (securesign's `constructor controller.Constructor`), by name, with the signature of
    that type; also the receiver of a method of such a type, the adapter idiom (radix-operator's
    `func (f AlertSyncerFactoryFunc) CreateAlertSyncer(c, a) AlertSyncer { return f(c, a) }`)."""
    lists = [info.node.child_by_field_name(field) for field in ("receiver", "parameters")]
    found: list[tuple[str, Signature]] = []
    for declaration in (item for listed in lists if listed is not None for item in listed.named_children):
        declared = declaration.child_by_field_name("type")
        declaring = info.file
        if declared is not None and declared.type in ("type_identifier", "qualified_type"):
            named = resolve_type(declared, info.file)
            declaring, declared = (
                declarations.function_types.get(named, (info.file, None)) if named else (info.file, None)
            )
        if declared is None or declared.type != "function_type":
            continue
        signature = function_signature(declaring, declared)
        if signature is not None:
            found.extend((parser.text(name), signature) for name in declaration.children_by_field_name("name"))
    return found


def _held_by(literal: tree_sitter.Node) -> str | None:
    """The package variable a list literal is the value of (`var probes = []probeFn{…}`), if one."""
    values = literal.parent
    spec = values.parent if values is not None and values.type == "expression_list" else None
    names = spec.children_by_field_name("name") if spec is not None and spec.type == "var_spec" else []
    return parser.text(names[0]) if len(names) == 1 else None


def _appended_to(call: tree_sitter.Node) -> str | None:
    """The variable `append(V, f)` extends, where the result is assigned back to it alone (`V = append(V, f)`)."""
    arguments = call.child_by_field_name("arguments")
    first = parser.first_named(arguments) if arguments is not None else None
    target = assigned_to(call)
    left = target.parent if target is not None else None
    statement = left.parent if left is not None else None
    alone = (
        left is not None
        and statement is not None
        and statement.type == "assignment_statement"
        and len(parser.named(left)) == 1
    )
    return parser.text(first) if first is not None and alone and parser.text(target) == parser.text(first) else None


def _handed_values(file: GoFile) -> list[tree_sitter.Node]:
    """The names (`f`, `pkg.F`, `x.f`) a file hands on as values: literals' fields and items, assignments'
    values, calls' arguments."""
    found: list[tree_sitter.Node] = []
    for literal in file.nodes("composite_literal"):
        # a map's values too: `map[string]SetupFunc{"machine": machine.Setup}` registers a function by name
        bodies = [literal]
        while bodies:
            values = _element_values(bodies.pop())
            found.extend(values)
            # elements whose type is elided (`[]webhook{{"Pod", podwebhook.Setup}}`) are no composite literals
            bodies.extend(value for value in values if value.type == "literal_value")
    for assignment in file.assignments():
        found.extend(assignment.values)
    found.extend(_declared_values(file))
    for call in file.calls():
        found.extend(parser.named(call.arguments) if call.arguments is not None else [])
    # `return viaReturn` (a function choosing the handler it hands back), `hooks <- cleanup`
    for statement in file.nodes("return_statement"):
        returned = parser.first_named(statement)
        found.extend(parser.named(returned) if returned is not None and returned.type == "expression_list" else [])
    found.extend(value for send in file.nodes("send_statement") if (value := send.child_by_field_name("value")))
    # `handler.TypedEnqueueRequestsFromMapFunc[*corev1.Pod](r.mapPods)` parses as a conversion to a generic type:
    # a generic function's call, handing on its argument
    found.extend(
        operand
        for node in found
        if node.type == "type_conversion_expression" and (operand := node.child_by_field_name("operand")) is not None
    )
    return [node for node in found if node.type in ("identifier", "selector_expression")]


def _declared_values(file: GoFile) -> list[tree_sitter.Node]:
    """The values locals and variables are declared with (`run := runManager`, `var setup = controllers.Setup`):
    a function handed to a local runs where the local is called."""
    found: list[tree_sitter.Node] = []
    for declaration in file.nodes("short_var_declaration"):
        right = declaration.child_by_field_name("right")
        found.extend(parser.named(right) if right is not None else [])
    for declaration in file.nodes("var_declaration"):
        for spec in declaration.named_children:
            specs = spec.named_children if spec.type == "var_spec_list" else [spec]
            values = [item.child_by_field_name("value") for item in specs if item.type == "var_spec"]
            found.extend(named for value in values if value is not None for named in parser.named(value))
    return found


def _element_values(literal: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The values of a composite literal, or of an element literal of elided type: its keyed elements' values,
    then its other elements, each out of its `literal_element`."""
    body = literal.child_by_field_name("body") if literal.type == "composite_literal" else literal
    keyed, items = [], []
    for element in parser.named(body) if body is not None else ():
        if element.type == "keyed_element":
            key, value = element.child_by_field_name("key"), element.child_by_field_name("value")
            if key is not None and value is not None:
                keyed.append(element_value(value))
        else:
            items.append(element_value(element))
    return keyed + items


def _may_call_function(file: GoFile, call: tree_sitter.Node, key: FunctionKey) -> bool:
    """Whether a call can be one of the plain function `key`: `pkg.Name(…)` with pkg importing its package,
    or `Name(…)` in its package."""
    return _names_function(file, call.child_by_field_name("function"), key)


def _asserts_interface(literal: tree_sitter.Node) -> bool:
    """`var _ reconcile.Reconciler = &ReconcileSelinux{}`: a compile-time check, no place the value runs."""
    node = literal.parent
    if node is not None and node.type == "unary_expression":
        node = node.parent
    spec = node.parent if node is not None and node.type == "expression_list" else None
    if spec is None or spec.type != "var_spec":
        return False
    names = spec.children_by_field_name("name")
    return len(names) == 1 and parser.text(names[0]) == "_" and innermost_function(spec) is None


def _names_function(file: GoFile, name: tree_sitter.Node | None, key: FunctionKey) -> bool:
    """Whether an expression can name the plain function `key`: `pkg.Name` with pkg importing its package,
    or `Name` in its package."""
    if name is not None and name.type == "selector_expression":
        operand = name.child_by_field_name("operand")
        return operand is not None and file.imports.get(parser.text(operand)) == key.package
    return file.package_path == key.package


def _calls_a_local(resolver: Resolver, file: GoFile, call: Call, info: FunctionInfo) -> bool:
    """`setup(mgr, o)`: a call of a local name, with the listed function's number of arguments."""
    function = call.node.child_by_field_name("function")
    if function is None or function.type != "identifier" or resolver.declaration(file, function) is None:
        return False
    return _takes_as_many(call, info)


def _takes_as_many(call: Call, info: FunctionInfo) -> bool:
    """Whether a call passes as many arguments as a function takes."""
    arguments = parser.named(call.arguments) if call.arguments is not None else []
    return len(arguments) == len(info.parameters)


def _function_type_names(files: list[GoFile]) -> frozenset[str]:
    """The names of the module's function types (`type probeFn func(context.Context, client.Client) error`),
    whose slices list functions as `[]func(…)` ones do."""
    return frozenset(
        parser.text(name)
        for file in files
        for declaration in file.tree.root_node.named_children
        if declaration.type == "type_declaration"
        for spec in declaration.named_children
        if spec.type == "type_spec"
        and (kind := spec.child_by_field_name("type")) is not None
        and kind.type == "function_type"
        and (name := spec.child_by_field_name("name")) is not None
    )


def _has_init(file: GoFile) -> bool:
    """Whether a file declares an `init` function, which runs in any binary importing its package."""
    return any(
        parser.text(function.child_by_field_name("name")) == "init"
        for function in file.tree.root_node.named_children
        if function.type == "function_declaration"
    )
