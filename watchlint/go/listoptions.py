"""The list options a list, watch or informer is given, and the selectors they carry. client-go's: a literal, a
local, a helper's parameter (what its callers pass), a reflector's or pager's own, and list-option tweaks;
controller-runtime's: the ListOption values of a List, also held in locals or spread from a slice."""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Iterator

import tree_sitter

from watchlint.exclusions import excludes_only
from watchlint.facts import EXCLUDES_ONLY, Evidence, Mitigation, Restriction
from watchlint.go import parser
from watchlint.go.declarations import FunctionKey, resolve_type
from watchlint.go.fieldselectors import excluded_selector, fields_detail
from watchlint.go.model import CR_CLIENT, META_V1, GoFile
from watchlint.go.pending import ALL_NAMESPACES, PendingSite, calls_in, guard_added, method_name, operand_of, uses_in
from watchlint.go.resolve import (
    Resolver,
    assigned_to,
    holding_literal,
    is_slice_literal,
    is_written,
    keyed_elements,
    literal_items,
    struct_literal_of,
    unquote,
)
from watchlint.go.scope import innermost_function, return_items, return_statements, returned_values, under_condition
from watchlint.go.values import ValueTracer
from watchlint.source import Span

# What a list-options tweak may set a selector to that selects everything.
_NO_SELECTOR = frozenset({'""', "``", "labels.Everything().String()", "fields.Everything().String()"})
# a cache.ListWatch's functions by field, each with the index of its options parameter (client-go 0.33 added the
# functions that take a context first)
LIST_FUNCS = {"ListFunc": 0, "ListWithContextFunc": 1}
WATCH_FUNCS = {"WatchFunc": 0, "WatchFuncWithContext": 1}
_BUILDER_HOPS = 2  # module functions followed to the list options they return
_HELD_SELECTORS = ("identifier", "selector_expression", "call_expression")  # values judged by their default
_PAGER = "k8s.io/client-go/tools/pager"
_PAGER_LISTS = frozenset({"List", "EachListItem", "EachListItemWithAlloc", "ListWithAlloc"})  # (ctx, options, …)
_MAX_OPTION_HOPS = 3  # variables followed to the List options they hold
_SELECTOR_OPTIONS = frozenset(
    {"MatchingLabels", "MatchingLabelsSelector", "MatchingFields", "MatchingFieldsSelector", "HasLabels"}
)


# the call of a module function that built a list-watch (`lw := podWatch(cs, ns)`), with its file
Built = tuple[GoFile, tree_sitter.Node]


def passed_at_build(
    resolver: Resolver, file: GoFile, node: tree_sitter.Node, built: Built | None
) -> tuple[GoFile, tree_sitter.Node]:
    """A parameter (`ns`, or `*ns`) of the function that built a list-watch as the call that built it passes
    it, with that call's file; the node itself where it names no parameter. Another call of the function may
    pass another value: this call's decides for the informer over the list-watch it returns."""
    dereferenced = parser.is_unary(node, "*")
    name = node.child_by_field_name("operand") if dereferenced else node
    declaration = resolver.declaration(file, name) if name is not None and name.type == "identifier" else None
    if built is None or declaration is None or declaration.parameter_index < 0:
        return file, node
    literal = innermost_function(node)
    if literal is not None and literal.type == "func_literal" and parser.encloses(literal, declaration.node):
        return file, node  # a parameter of the ListFunc itself (its options)
    caller_file, call = built
    passed = parser.named(call.child_by_field_name("arguments") or call)
    if declaration.parameter_index >= len(passed):
        return file, node
    value = passed[declaration.parameter_index]
    if dereferenced and parser.is_unary(value, "&"):
        value = value.child_by_field_name("operand") or value
    return caller_file, value


def _context_first(function: tree_sitter.Node) -> int:
    """1 where a function literal is a list-watch's function taking a context first (`ListWithContextFunc:
    func(ctx context.Context, options metav1.ListOptions) …`, or a local holding it given there), so that its
    options come second; else 0. Another function of that shape (one handed to a pager) is passed other options."""
    held = assigned_to(function)
    scope = innermost_function(function)
    uses = uses_in(scope, parser.text(held)) if held is not None and held.type == "identifier" and scope else []
    for value in (function, *uses):
        holder = holding_literal(value)
        if holder is not None and any(
            entry == value and LIST_FUNCS.get(key, WATCH_FUNCS.get(key)) == 1 for key, entry in keyed_elements(holder)
        ):
            return 1
    return 0


class ListOptionsReader:
    """Reads the selectors of list options, following values with the module's value tracer."""

    def __init__(self, resolver: Resolver, values: ValueTracer) -> None:
        self.resolver = resolver
        self.values = values
        # a ListFunc's selector written from a variable (`o.FieldSelector = sel`), by its restriction's id: what
        # the variable holds by default decides (`sel` empty unless a flag is given), see `narrow`
        self._selector_values: dict[int, tuple[GoFile, tree_sitter.Node]] = {}

    def narrow(self, site: PendingSite, file: GoFile, node: tree_sitter.Node, built: Built | None = None) -> None:
        """Add the restrictions list options give a site, with the variables its selectors are read from; `built`
        is the call of the function that built the list-watch the options are sent by, whose arguments its
        parameters stand for."""
        found = list(self.restrictions(file, node, site.object.kind, built))
        site.restrictions.extend(found)
        self._carry_selector_values(site, found)

    def _carry_selector_values(self, site: PendingSite, restrictions: list[Restriction]) -> None:
        """Hand the site the variables its selectors are read from, judged by their values later."""
        for restriction in restrictions:
            valued = self._selector_values.pop(id(restriction), None)
            if valued is not None:
                site.selector_values.append((restriction, *valued))

    def restrictions(
        self, file: GoFile, node: tree_sitter.Node, kind: str, built: Built | None = None, hops: int = 0
    ) -> Iterator[Restriction]:
        """Selectors in a `metav1.ListOptions{…}` (followed through a local variable and into the module function
        that returns it, `hops` deep so far), or those a reflector passes to a ListFunc or WatchFunc."""
        # a pager's function takes a context first, as a ListWithContextFunc does: told apart first
        if (paged := self._pager_options(file, node, kind)) is not None:
            yield from paged
            return
        if (given := self._options_handed_in(file, node, kind, hops)) is not None:
            yield from given
            return
        if (passed := self._reflector_options(file, node, kind, built)) is not None:
            yield from passed
            return
        target, target_file = node, file
        if target.type in ("identifier", "selector_expression"):
            held = self.resolver.held_value(file, target)
            if held is None and self._zero_value_options(file, target):
                yield from self._selectors_written(file, node, kind)  # `var o metav1.ListOptions`: empty but these
                return
            if held is None:
                yield Restriction(Mitigation.UNRESOLVED, kind, file.span(node), parser.text(node))
                return
            target_file, target = held
        if (yield from self._held_options(file, node, target_file, target, kind, hops)) and node.type == "identifier":
            yield from self._selectors_written(file, node, kind)

    def _zero_value_options(self, file: GoFile, name: tree_sitter.Node) -> bool:
        """`var o metav1.ListOptions`: a local declared without a value holds empty options, but for the fields
        written to it (kops' dns-controller sets `o.Watch` only); not where the whole value is assigned later or
        its address is handed on, which may fill it."""
        declaration = self.resolver.declaration(file, name) if name.type == "identifier" else None
        if (
            declaration is None
            or declaration.type_node is None
            or declaration.value_node is not None
            or declaration.parameter_index >= 0
            or declaration.ranged_node is not None
        ):
            return False
        declared = resolve_type(declaration.type_node, file)
        function = innermost_function(name)
        if declared is None or declared.pointer or not declared.is_(META_V1, "ListOptions") or function is None:
            return False
        if self.resolver.reassigned(file, name, declaration, results=True):
            return False
        return not any(
            use.parent is not None
            and parser.is_unary(use.parent, "&")
            and self.resolver.declaration(file, use) == declaration
            for use in uses_in(function, declaration.name)
        )

    def _held_options(
        self,
        file: GoFile,
        node: tree_sitter.Node,
        target_file: GoFile,
        target: tree_sitter.Node,
        kind: str,
        hops: int,
    ) -> Generator[Restriction, None, bool]:
        """The selectors of the list options `node` holds, `target`: a literal, or what the module function it
        calls returns. Whether they are list options (the fields written to `node` count too)."""
        returned = self._returned_options(target_file, target) if hops < _BUILDER_HOPS else None
        if returned is not None:  # `o := watchOptions(rv)`
            yield from self.restrictions(*returned, kind, hops=hops + 1)
            return True
        if target.type == "unary_expression":  # `&metav1.ListOptions{…}`
            target = target.child_by_field_name("operand") or target
        if target.type != "composite_literal":
            yield Restriction(Mitigation.UNRESOLVED, kind, file.span(node), parser.text(node))
            return False
        type_ref = resolve_type(target.child_by_field_name("type"), target_file)
        if type_ref is not None and not type_ref.is_(META_V1, "ListOptions"):
            return False
        yield from self._literal_selectors(target_file, target, kind)
        return True

    def _returned_options(self, file: GoFile, call: tree_sitter.Node) -> tuple[GoFile, tree_sitter.Node] | None:
        """What the module function a call makes returns, where it has one return statement."""
        info = self.resolver.callee(file, call) if call.type == "call_expression" else None
        returned = returned_values(info.node) if info is not None else []
        return (info.file, returned[0]) if info is not None and len(returned) == 1 else None

    def _literal_selectors(self, file: GoFile, literal: tree_sitter.Node, kind: str) -> Iterator[Restriction]:
        """The selectors keyed in a `metav1.ListOptions{…}`, one held in a variable or read from the environment
        judged later by what it holds by default (`LabelSelector: *selector` of a flag defaulting to "")."""
        for key, value in keyed_elements(literal):
            if key not in ("LabelSelector", "FieldSelector") or " ".join(parser.text(value).split()) in _NO_SELECTOR:
                continue
            excluded = _excluded_only(file, value, self.resolver)
            restriction = Restriction(
                Mitigation.SELECTOR,
                kind,
                file.span(value),
                f"{key}: {parser.text(value)}" if excluded is None else key,
                is_effective=excluded is None,
                detail=EXCLUDES_ONLY + excluded if excluded is not None else "",
            )
            held = value.child_by_field_name("operand") if parser.is_unary(value, "*") else value
            if excluded is None and held is not None and held.type in _HELD_SELECTORS:
                self._selector_values[id(restriction)] = (file, held)
            yield restriction

    def _selectors_written(
        self, file: GoFile, options: tree_sitter.Node, kind: str, *, outright: bool = False
    ) -> Iterator[Restriction]:
        """The selectors given to a local's fields before the List it is passed to (`o := metav1.ListOptions{};
        o.LabelSelector = selector`), each judged by what its value holds by default, as a ListFunc's are;
        with `outright`, only those written under no condition."""
        function = innermost_function(options)
        declaration = self.resolver.declaration(file, options)
        if function is None or declaration is None:
            return
        uses = [
            use
            for use in uses_in(function, parser.text(options))
            if use.start_byte < options.start_byte and self.resolver.declaration(file, use) == declaration
        ]
        written = [write for write in _written_fields(file, uses) if not (outright and under_condition(write[0]))]
        yield from self._written_selectors(
            file,
            written,
            kind,
            lambda target, value, _: f"{parser.text(target)} = {' '.join(parser.text(value).split())}",
        )

    def _written_selectors(
        self,
        file: GoFile,
        written: list[tuple[tree_sitter.Node, tree_sitter.Node, str]],
        kind: str,
        shown: Callable[[tree_sitter.Node, tree_sitter.Node, str], str],
        built: Built | None = None,
    ) -> Iterator[Restriction]:
        """A selector for each selector field among fields written to list options (`o.LabelSelector = sel`),
        judged later by what its value holds by default (see `narrow`); `shown` words it. Only a selector narrows
        what is listed (`o.ResourceVersion = "0"` does not). A parameter of the function that built the
        list-watch is what `built` passes (`labelSelector.String()` given `labels.Everything()` selects all)."""
        for target, value, field in written:
            if field not in ("LabelSelector", "FieldSelector"):
                continue
            held_file, held, text = self._as_built(file, value, built)
            if text in _NO_SELECTOR:
                continue
            restriction = selector_restriction(
                self.resolver, file, target, value, field, kind, shown(target, value, field)
            )
            # a variable, a field, or `*selector` of a flag
            if held.type in ("identifier", "selector_expression") or parser.is_unary(held, "*"):
                self._selector_values[id(restriction)] = (held_file, held)
            yield restriction

    def _as_built(
        self, file: GoFile, value: tree_sitter.Node, built: Built | None
    ) -> tuple[GoFile, tree_sitter.Node, str]:
        """A selector value with a parameter of the function that built the list-watch (`labelSelector`, or
        the `labelSelector` of `labelSelector.String()`) as `built` passes it: the value's file and node, and
        its text with the parameter replaced."""
        named = (operand_of(value) or value) if _printed(value) else value
        if named.type != "identifier":
            return file, value, parser.text(value)
        passed_file, passed = passed_at_build(self.resolver, file, named, built)
        if passed is named:
            return file, value, parser.text(value)
        suffix = ".String()" if named is not value else ""
        return passed_file, passed, parser.text(passed) + suffix

    def _reflector_options(
        self, file: GoFile, options: tree_sitter.Node, kind: str, built: Built | None = None
    ) -> list[Restriction] | None:
        """For the options parameter of a `func(options metav1.ListOptions)` (a ListFunc or WatchFunc handed to
        a reflector, which passes no selector): a selector when the function sets them (`options.LabelSelector
        = …`) or hands them to a tweak (`tweak(&options)`), else none. None for other options."""
        function = innermost_function(options)
        declaration = self.resolver.declaration(file, options) if options.type == "identifier" else None
        if (
            function is None
            or function.type != "func_literal"
            or declaration is None
            or declaration.parameter_index not in (0, _context_first(function))
            or declaration.scope_start != function.start_byte
        ):
            return None
        declared = resolve_type(declaration.type_node, file) if declaration.type_node is not None else None
        if declared is None or not declared.is_(META_V1, "ListOptions"):
            return None
        name = parser.text(options)
        every = uses_in(function, name)
        # the Lists (or Watches) it is passed to, one per branch, send it as it is; else one use is what sends it
        # (`VersionedParams(&options, …)` of a REST request)
        uses = [use for use in every if not _sent_by_a_list(use)]
        sending = 0 if len(uses) < len(every) else 1
        if len(uses) <= sending:
            return []
        written = _written_fields(file, uses)
        if len(written) < len(uses) - sending:  # handed on or read besides what sends it: not seen
            return [Restriction(Mitigation.SELECTOR, kind, file.span(function), f"the function sets {name}")]
        return list(
            self._written_selectors(
                file, written, kind, lambda _t, _v, field: f"the function sets {name}.{field}", built
            )
        )

    def _options_handed_in(
        self, file: GoFile, options: tree_sitter.Node, kind: str, hops: int
    ) -> list[Restriction] | None:
        """For the options parameter of a function literal handed to a module function that calls it once
        (`paged(ctx, func(ctx context.Context, opts metav1.ListOptions) …)`, whose loop calls `list(ctx, opts)`
        with `opts := metav1.ListOptions{Limit: 500}`): the selectors of the options that call passes. None for
        other options, or where the module function calls it more than once or hands it on."""
        function = innermost_function(options)
        declaration = self.resolver.declaration(file, options) if options.type == "identifier" else None
        if function is None or function.type != "func_literal" or declaration is None or hops >= _MAX_OPTION_HOPS:
            return None
        if declaration.parameter_index < 0 or declaration.scope_start != function.start_byte:
            return None
        receiving = self.resolver.receiving_parameter(file, function, variadic=False)
        if receiving is None:
            return None
        _, info, parameter = receiving
        uses = uses_in(info.node, parameter.name)
        call = uses[0].parent if len(uses) == 1 else None
        if call is None or call.type != "call_expression" or call.child_by_field_name("function") != uses[0]:
            return None
        arguments = parser.named(call.child_by_field_name("arguments") or call)
        if declaration.parameter_index >= len(arguments):
            return None
        given = list(self.restrictions(info.file, arguments[declaration.parameter_index], kind, None, hops + 1))
        # and what the literal writes to them before its List (`opts.LabelSelector = …`)
        return given + list(self._selectors_written(file, options, kind, outright=True))

    def _pager_options(self, file: GoFile, options: tree_sitter.Node, kind: str) -> list[Restriction] | None:
        """For the options parameter of a pager's page function (`pager.New(func(ctx, opts metav1.ListOptions)
        …).EachListItem(ctx, metav1.ListOptions{…}, fn)`): the options the pager is given, each page's. None
        for other options, or a pager whose call is not chained to its construction."""
        function = innermost_function(options)
        declaration = self.resolver.declaration(file, options) if options.type == "identifier" else None
        if function is None or declaration is None or declaration.parameter_index != 1:
            return None
        built = function.parent.parent if function.parent is not None else None  # argument_list, call
        if built is None or method_name(built) != "New" or declaration.scope_start != function.start_byte:
            return None
        package = operand_of(built)
        if package is None or file.imports.get(parser.text(package)) != _PAGER:
            return None
        selector = built.parent
        paged = selector.parent if selector is not None and selector.type == "selector_expression" else None
        if paged is None:  # `p := pager.New(…)`, then `p.EachListItem(ctx, opts, fn)`
            paged = _paged_through_a_local(file, built)
        values = parser.named(paged.child_by_field_name("arguments") or paged) if paged is not None else []
        if paged is None or method_name(paged) not in _PAGER_LISTS or len(values) < 2:
            return None
        if len(uses_in(function, parser.text(options))) > 1:  # the page function sets the options itself
            return [
                Restriction(Mitigation.SELECTOR, kind, file.span(function), f"the function sets {parser.text(options)}")
            ]
        return list(self.restrictions(file, values[1], kind))

    def tweak(
        self,
        site: PendingSite,
        file: GoFile,
        tweak: tree_sitter.Node,
        text: str,
        resource: tree_sitter.Node | None = None,
    ) -> None:
        """A function adjusting the list options (`func(options *metav1.ListOptions)`) narrows by the
        selectors it sets, each judged later under the conditions it is set in (Reloader sets a label selector
        only when a flag is given); one that cannot be read, or hands the options on, counts as narrowing.
        `resource`: the name of the resource the list-watch lists, where it is a variable; a selector set only
        when it names another kind's resource (Reloader's `if resource == "namespaces"`) is not this site's."""
        kind = site.object.kind
        if tweak.type == "nil":
            return
        if (made := self._made_by_helper(file, tweak)) is not None:
            # `withoutNamespaces(ignored)` of a module function returning the tweak: the literal it returns
            self.tweak(site, *made, text)
            return
        function = self.values.defined_as(file, tweak, 2) if tweak.type == "identifier" else tweak
        assigned = self._assigned_later(file, tweak) if function is None else None
        if assigned is not None:
            # `var tweak …; if node != "" { tweak = func(o *metav1.ListOptions) {…} }` (multus): nil unless
            # assigned, each assignment narrowing under its conditions
            for value in assigned:
                before = len(site.restrictions)
                self.tweak(site, file, value, text, resource)
                guard_added(site, before, file, value)
            return
        if function is None and tweak.type == "identifier":  # a parameter, or a variable set later: its value
            restriction = Restriction(Mitigation.SELECTOR, kind, file.span(tweak), text)
            site.restrictions.append(restriction)
            site.tweaks.append((restriction, file, tweak))
            return
        self._function_tweak(site, file, tweak, function, text, resource)

    def _function_tweak(
        self,
        site: PendingSite,
        file: GoFile,
        tweak: tree_sitter.Node,
        function: tree_sitter.Node | None,
        text: str,
        resource: tree_sitter.Node | None,
    ) -> None:
        """`tweak` for the function a tweak is: the selectors a literal writes to its one parameter; a narrowing
        where it is no literal, or hands the options on."""
        kind = site.object.kind
        parameters = function.child_by_field_name("parameters") if function is not None else None
        names = parser.captures("(parameter_declaration name: (identifier) @name)", parameters) if parameters else {}
        options = [parser.text(node) for node in names.get("name", [])]
        if function is not None and function.type == "func_literal" and not options:
            return  # `func(*metav1.ListOptions) {}`: a function that cannot name the options leaves them be
        if function is None or function.type != "func_literal" or len(options) != 1:
            site.restrictions.append(Restriction(Mitigation.SELECTOR, kind, file.span(tweak), text))
            return
        # the selector the options come in with, read to merge with (`fields.AndSelectors(base, sel)` of `base,
        # err := fields.ParseSelector(options.FieldSelector)`), is a reflector's: empty; nothing reads it otherwise
        uses = [use for use in uses_in(function, options[0]) if not _reads_its_selector(use)]
        written = _written_fields(file, uses)
        if len(written) < len(uses):  # the options are handed on or read: what they end up holding is not seen
            site.restrictions.append(Restriction(Mitigation.SELECTOR, kind, file.span(tweak), text))
            return
        for target, value, name in written:
            if name in ("LabelSelector", "FieldSelector") and not self._for_another_resource(
                file, target, resource, site
            ):
                self._written_selector(site, file, target, value, name, f"{text}'s {name}")

    def _made_by_helper(self, file: GoFile, tweak: tree_sitter.Node) -> tuple[GoFile, tree_sitter.Node] | None:
        """The function literal a module function returns, where a call of it gives the tweak, it has one return
        and the literal reads none of its parameters, which the other calls of it give other values (a helper
        returning a literal that only excludes a namespace)."""
        info = self.resolver.callee(file, tweak) if tweak.type == "call_expression" else None
        returned = returned_values(info.node) if info is not None else []
        if info is None or len(returned) != 1 or returned[0].type != "func_literal":
            return None
        parameters = {parameter.name for parameter in info.parameters}
        read = {parser.text(name) for name in parser.captures("(identifier) @name", returned[0]).get("name", [])}
        return None if read & parameters else (info.file, returned[0])

    def _for_another_resource(
        self, file: GoFile, write: tree_sitter.Node, resource: tree_sitter.Node | None, site: PendingSite
    ) -> bool:
        """Whether a write sits in the branch of `if resource == "…"` naming the resource of another kind than the
        site's, `resource` the variable the list-watch is built for."""
        if resource is None or resource.type != "identifier":
            return False
        declared = self.resolver.declaration(file, resource)
        child, current = write, write.parent
        while current is not None and current.type not in ("function_declaration", "method_declaration"):
            condition = current.child_by_field_name("condition") if current.type == "if_statement" else None
            if condition is not None and child == current.child_by_field_name("consequence"):
                named = _resource_named(condition, parser.text(resource))
                tested = parser.first_named(condition) if named is not None else None
                same = tested is not None and self.resolver.declaration(file, tested) == declared
                if same and named is not None and self.resolver.kinds.python_kind(named) != site.object.kind:
                    return True
            child, current = current, current.parent
        return False

    def _written_selector(
        self, site: PendingSite, file: GoFile, target: tree_sitter.Node, value: tree_sitter.Node, name: str, shown: str
    ) -> None:
        """Narrow a site by a selector a tweak writes to the options, judged under the conditions it is written
        in; one a local holds (`sel := ""; if exclude != "" { sel = "…" }` outside the tweak) by each value
        written to the local, an empty one narrowing nowhere (preflight's namespace exclusions)."""
        held = local_values(self.resolver, file, value) if value.type == "identifier" else None
        for selector, guarded in [(item, item) for item in held] if held is not None else [(value, target)]:
            if parser.text(selector) not in _NO_SELECTOR:
                restriction = selector_restriction(self.resolver, file, target, selector, name, site.object.kind, shown)
                site.restrictions.append(restriction)
                site.guarded.append((restriction, file, guarded))
                if held is None and (selector.type in ("identifier", "selector_expression") or _printed(selector)):
                    # a parameter or a field (`options.LabelSelector = labelSelector`, katalyst's context given
                    # `--label-selector`): judged by what it holds by default, empty narrowing nothing
                    site.selector_values.append((restriction, file, selector))

    def _assigned_later(self, file: GoFile, tweak: tree_sitter.Node) -> list[tree_sitter.Node] | None:
        """The values a local declared without one (`var tweak internalinterfaces.TweakListOptionsFunc`) is
        assigned in its function; None for other names (a parameter, a field)."""
        declaration = self.resolver.declaration(file, tweak) if tweak.type == "identifier" else None
        if declaration is None or declaration.value_node is not None:
            return None
        return local_values(self.resolver, file, tweak)

    def parameter(self, file: GoFile, options: tree_sitter.Node) -> tuple[FunctionKey, int] | None:
        """The parameter of the named function around a call that its list options are (`func watchPods(ctx,
        opts metav1.ListOptions)`); not a ListFunc's, whose options come from a reflector."""
        return self.values.helper_parameter(file, options) if options.type == "identifier" else None

    def passed(
        self, site: PendingSite, callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]]
    ) -> None:
        """Judge the list options a helper takes as a parameter by what its callers pass: one caller seen to
        pass no selector decides (SPEC §1: a finding when any leaves the kind unrestricted); otherwise one that
        cannot be seen keeps the options unresolved. No callers: left as they are."""
        assert site.options_parameter is not None
        key, index = site.options_parameter
        kind = site.object.kind
        passed = []
        unselected = None  # the first options passed with no selector, and their file
        for caller_file, call in callers(key):
            values = parser.named(call.child_by_field_name("arguments") or call)
            if index < len(values):
                passed.append(list(self.restrictions(caller_file, values[index], kind)))
                if not passed[-1] and unselected is None:
                    unselected = caller_file, values[index]
        if not passed:
            return
        own = [r for r in site.restrictions if r.mitigation not in (Mitigation.UNRESOLVED, Mitigation.SELECTOR)]
        if unselected is not None:
            site.restrictions = own
            options_file, options = unselected
            site.unselected_caller = Evidence(options_file.span(options), "the options passed here set no selector")
        elif not any(r.mitigation is Mitigation.UNRESOLVED for found in passed for r in found):
            site.restrictions = own + passed[0]
            self._carry_selector_values(site, passed[0])  # a selector the caller writes from a variable


def one_page(file: GoFile, options: tree_sitter.Node, kind: str, resolver: Resolver | None = None) -> list[Restriction]:
    """`List(ctx, metav1.ListOptions{Limit: 1})` with no `Continue`: the call reads one page of at most that many
    objects and asks for no other (kube-eventer lists Events so to learn a resource version). The literal may be
    held in a local the function never writes again nor hands on by address (kube-keeper's dashboards counting
    objects with `option := metav1.ListOptions{Limit: int64(1)}`): a paging loop writes its continue token there
    (`opts.Continue = …`)."""
    literal = options.child_by_field_name("operand") if parser.is_unary(options, "&") else options
    if literal is not None and literal.type == "identifier" and resolver is not None:
        literal = _held_unchanged(file, literal, resolver)
    if literal is None or literal.type != "composite_literal":
        return []
    type_ref = resolve_type(literal.child_by_field_name("type"), file)
    if type_ref is None or not type_ref.is_(META_V1, "ListOptions"):
        return []
    keyed = dict(keyed_elements(literal))
    limit = keyed.get("Limit")
    if limit is None or "Continue" in keyed or not _positive_literal(limit):
        return []
    text = f"`Limit: {parser.text(limit)}`: one page, no continue token"
    return [Restriction(Mitigation.ONE_PAGE, kind, file.span(limit), text)]


def _held_unchanged(file: GoFile, name: tree_sitter.Node, resolver: Resolver) -> tree_sitter.Node | None:
    """The literal a local is declared with, where its function neither assigns it or its fields again nor takes
    its address; None otherwise."""
    declaration = resolver.declaration(file, name)
    value = declaration.value_node if declaration is not None and declaration.parameter_index < 0 else None
    # the function declaring it, with the function literals in it (a retry's closure), not a sibling literal
    # declaring a local of its own name
    function = innermost_function(declaration.node) if declaration is not None else None
    if declaration is None or value is None or value.type != "composite_literal" or function is None:
        return None
    text = re.escape(declaration.name)
    # `opts.Continue = token`, `opts.Continue, more = …` (a list of targets before one `=`), `opts = next`,
    # `&opts`; not the declaration (`opts := …`, `var opts = …`), nor a use in a call's arguments
    targets = r",[^\n;(){}]*?(?<![:!<>=])=(?!=)"  # `, more =`: the rest of a list of targets, then its `=`
    written = re.compile(rf"(?<![\w.])(?<!var )(?:&{text}\b|{text}(?:\.\w+)*\s*(?:[-+*/|&]?=(?!=)|\+\+|--|{targets}))")
    body = parser.text(function)
    return None if written.search(body) else value


def selector_restriction(
    resolver: Resolver,
    file: GoFile,
    target: tree_sitter.Node,
    value: tree_sitter.Node,
    field: str,
    kind: str,
    shown: str,
) -> Restriction:
    """The restriction of a selector written to list options: none in effect where it only excludes."""
    excluded = _excluded_only(file, value, resolver)
    if excluded is not None:
        detail = EXCLUDES_ONLY + excluded
        return Restriction(Mitigation.SELECTOR, kind, file.span(target), shown, is_effective=False, detail=detail)
    detail = fields_detail(file, value, resolver) if field == "FieldSelector" else ""
    return Restriction(Mitigation.SELECTOR, kind, file.span(target), shown, detail=detail)


def _excluded_only(file: GoFile, value: tree_sitter.Node, resolver: Resolver) -> str | None:
    """The selector a value writes where each of its terms excludes (`"owner!=helm"`, `!key`, `key notin (a,b)`,
    `fields.OneTermNotEqualSelector(…).String()`): it keeps every object but those, so it bounds nothing
    (ingress-nginx's and traefik's Helm exclusions); None for any other value."""
    if value.type in ("interpreted_string_literal", "raw_string_literal"):
        selector = unquote(parser.text(value)).strip(", ")  # `+= ",OWNER!=TILLER"` appends a term
        return selector if excludes_only(selector) else None
    return excluded_selector(file, value, resolver)


def _paged_through_a_local(file: GoFile, built: tree_sitter.Node) -> tree_sitter.Node | None:
    """The first listing call (`p.EachListItem(…)`) on the local a pager is built into (`p := pager.New(…)`)."""
    target = assigned_to(built)
    function = innermost_function(built)
    if target is None or target.type != "identifier" or function is None:
        return None
    return next(
        (
            call
            for call in calls_in(function)
            if method_name(call) in _PAGER_LISTS
            and (operand := operand_of(call)) is not None
            and parser.text(operand) == parser.text(target)
            and call.start_byte > built.end_byte
        ),
        None,
    )


def _sent_by_a_list(use: tree_sitter.Node) -> bool:
    """Whether a use of list options is an argument of a `….List(…)` or `….Watch(…)` call, which sends them."""
    arguments = use.parent
    call = arguments.parent if arguments is not None and arguments.type == "argument_list" else None
    return method_name(call) in ("List", "Watch")


def _reads_its_selector(use: tree_sitter.Node) -> bool:
    """Whether a use of list options reads one of their selectors (`options.FieldSelector` as a value, not as
    what an assignment writes)."""
    field = use.parent
    if field is None or field.type != "selector_expression" or field.child_by_field_name("operand") != use:
        return False
    return parser.text(field.child_by_field_name("field")) in ("LabelSelector", "FieldSelector") and not is_written(
        field
    )


def _resource_named(condition: tree_sitter.Node, variable: str) -> str | None:
    """The string `variable == "…"` compares the variable with; None for another condition."""
    operator = condition.child_by_field_name("operator") if condition.type == "binary_expression" else None
    left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
    if operator is None or parser.text(operator) != "==" or left is None or right is None:
        return None
    if left.type != "identifier" or parser.text(left) != variable or right.type != "interpreted_string_literal":
        return None
    return parser.text(right).strip('"')


def _written_fields(file: GoFile, uses: list[tree_sitter.Node]) -> list[tuple[tree_sitter.Node, tree_sitter.Node, str]]:
    """The fields list options are given where `uses` are the names of the options (`o.LabelSelector = sel`):
    the target, the value and the field's name."""
    written = []
    for _, _, targets, values in file.assignments():
        target, value = targets[0], values[0]
        operand = target.child_by_field_name("operand") if target.type == "selector_expression" else None
        if operand is not None and operand in uses:
            written.append((target, value, parser.text(target.child_by_field_name("field"))))
    return written


def list_options(
    values: ValueTracer, file: GoFile, option: tree_sitter.Node, hops: int = 0, *, builders: bool = True
) -> Iterator[tree_sitter.Node]:
    """The options a controller-runtime List argument passes, also held in local variables (`opts...`): their
    namespace and selectors narrow an uncached list only (SPEC §3.1 WL002), their field keys may name cache
    indexes. With `builders`, also what a function of the file building them returns."""
    if option.type == "variadic_argument" and parser.named(option):
        option = parser.named(option)[0]
        if is_slice_literal(option):  # `[]client.ListOption{…}...`
            for item in literal_items(option):
                yield from list_options(values, file, item, hops + 1)
            return
    converted = _converted_option(file, option)
    if converted is not None and hops < _MAX_OPTION_HOPS:
        yield from list_options(values, file, converted, hops + 1)
        return
    built = _built_options(values, file, option) if hops < _MAX_OPTION_HOPS and builders else None
    if built is not None:
        for item in literal_items(built) if is_slice_literal(built) else [built]:
            yield from list_options(values, file, item, hops + 1)
        return
    named, passed = option, None
    if option.type == "unary_expression" and (operand := option.child_by_field_name("operand")) is not None:
        named, passed = operand, option  # `&opts` of `opts := client.ListOptions{…}`
    is_local = named.type == "identifier" and hops < _MAX_OPTION_HOPS
    held = values.options_held(file, named, passed) if is_local else None
    if held is None:
        yield option
    # options a builder returns into a local that is used otherwise too (`options.ApplyOptions(…)`, handed to a
    # function) may be changed there: what the builder returns no longer tells them
    builders = builders and bool(held) and not _used_elsewhere(values, file, named, option)
    for item in held or ():
        yield from list_options(values, file, item, hops + 1, builders=builders)


def _used_elsewhere(values: ValueTracer, file: GoFile, name: tree_sitter.Node, option: tree_sitter.Node) -> bool:
    """Whether a local is used anywhere in its function but its declaration, a List's options (this one's, or
    another's) and a comparison (`if opts == nil`): where it may be changed."""
    declaration = values.resolver.declaration(file, name)
    function = innermost_function(declaration.node) if declaration is not None else None
    if declaration is None or function is None:
        return True
    return any(
        use != declaration.node
        and not option.start_byte <= use.start_byte < option.end_byte
        and values.resolver.declaration(file, use) == declaration
        and not _only_read(values, file, use)
        for use in uses_in(function, declaration.name)
    )


def _only_read(values: ValueTracer, file: GoFile, use: tree_sitter.Node) -> bool:
    """A use that cannot change the options: compared, a field read (`options.Limit` in a log line), or given
    to a client's List as its options (not a function of the module's named so, which may set them)."""
    parent = use.parent
    if parent is not None and parent.type == "binary_expression":
        return True
    outer = parent
    while outer is not None and outer.parent is not None and outer.parent.type == "selector_expression":
        outer = outer.parent  # `options.Raw.LabelSelector`: the whole field read or written
    if outer is not None and outer.type == "selector_expression" and _field_read(outer):
        return True
    call = parent.parent if parent is not None and parent.type == "argument_list" else None
    function = call.child_by_field_name("function") if call is not None else None
    return (
        parent is not None
        and function is not None
        and function.type == "selector_expression"
        and parser.text(function.child_by_field_name("field")) == "List"
        and parser.position_in(parent, use) >= 2
        and call is not None
        and values.resolver.callee(file, call) is None
    )


def _field_read(selector: tree_sitter.Node) -> bool:
    """Whether `x.f` is read, not written (`x.f = …`), called (`x.Apply(…)`) nor handed on by address."""
    parent = selector.parent
    if parent is None:
        return False
    if parent.type == "call_expression" and parent.child_by_field_name("function") == selector:
        return False
    if parser.is_unary(parent, "&"):
        return False
    return not (parent.type == "expression_list" and parent.parent is not None and parent.parent.type in _WRITES)


_WRITES = ("assignment_statement", "inc_statement", "dec_statement")


def _built_options(values: ValueTracer, file: GoFile, call: tree_sitter.Node) -> tree_sitter.Node | None:
    """The options a function of this file builds and returns first (operator-controller's `o, err :=
    metaOptionsToClientOptions(…)`), where it returns one value beside its nils: `&client.ListOptions{…}`, a
    `[]client.ListOption{…}`; None for any other call."""
    info = values.resolver.callee(file, call) if call.type == "call_expression" else None
    first = info.results[0] if info is not None and info.results else None
    if info is None or info.file is not file or first is None or not first.is_(CR_CLIENT, "ListOptions", "ListOption"):
        return None
    last = info.results[-1]
    # `error`, or a type of errors (`field.ErrorList`)
    fails = (
        len(info.results) > 1
        and last is not None
        and (last.name == "error" or last.name.endswith(("Error", "ErrorList")))
    )
    returned = []
    for statement in return_statements(info.node):
        items = return_items(statement)
        # a nil beside an error is no options the List is given; a nil alone is none (every object)
        if items and not (fails and len(items) > 1 and items[0].type == "nil" and items[-1].type != "nil"):
            returned.append(items[0])
    if len(returned) != 1:
        return None  # options that differ by path narrow the List only where each does: not told apart here
    built = returned[0]
    if built.type == "identifier":
        held = _options_local(values, info.file, info.node, built)
        if held is None:
            return None
        built = held
    literal = built.child_by_field_name("operand") if parser.is_unary(built, "&") else built
    return built if literal is not None and (literal.type == "composite_literal" or is_slice_literal(built)) else None


def _options_local(
    values: ValueTracer, file: GoFile, function: tree_sitter.Node, name: tree_sitter.Node
) -> tree_sitter.Node | None:
    """The `&client.ListOptions{…}` a function's local is declared with, where the function only writes some of
    its fields and returns it: what the literal restricts holds, unless a write may change it (the namespace
    written, or a selector written to options that had none: a condition that cannot be told counts)."""
    declaration = values.resolver.declaration(file, name)
    value = declaration.value_node if declaration is not None else None
    if declaration is None or value is None or declaration.parameter_index >= 0 or declaration.ranged_node is not None:
        return None
    literal = value.child_by_field_name("operand") if parser.is_unary(value, "&") else value
    if literal is None or literal.type != "composite_literal" or values.resolver.reassigned(file, name, declaration):
        return None
    uses = [use for use in uses_in(function, declaration.name) if values.resolver.declaration(file, use) == declaration]
    written = _written_fields(file, uses)
    targets = {target.child_by_field_name("operand") for target, _, _ in written}
    if any(use not in targets and use != declaration.node and not _returned(use) for use in uses):
        return None  # handed on, copied or read otherwise: another function or name may write it
    fields = {field for _, _, field in written}
    keyed = dict(keyed_elements(literal))
    scoped = "Namespace" in keyed and parser.text(keyed["Namespace"]) not in ALL_NAMESPACES
    if "Namespace" in fields or (fields & {"LabelSelector", "FieldSelector", "Raw"} and not scoped):
        return None
    return value


def _returned(use: tree_sitter.Node) -> bool:
    """Whether a name is one of the values a return statement gives."""
    items = use.parent
    return (
        items is not None
        and items.type == "expression_list"
        and items.parent is not None
        and (items.parent.type == "return_statement")
    )


def _converted_option(file: GoFile, option: tree_sitter.Node) -> tree_sitter.Node | None:
    """The option a conversion to controller-runtime's option interface wraps (koperator's
    `client.ListOption(client.InNamespace(ns))`); None for any other expression."""
    function = option.child_by_field_name("function") if option.type == "call_expression" else None
    if function is None or function.type != "selector_expression":
        return None
    operand, field = function.child_by_field_name("operand"), function.child_by_field_name("field")
    arguments = parser.named(option.child_by_field_name("arguments") or option)
    wraps = parser.text(field) in ("ListOption", "DeleteAllOfOption") and len(arguments) == 1
    return (
        arguments[0] if wraps and operand is not None and file.imports.get(parser.text(operand)) == CR_CLIENT else None
    )


def option_restrictions(
    file: GoFile, option: tree_sitter.Node, kind: str, *, one_page: bool = False
) -> Iterator[Restriction]:
    """What one controller-runtime List option restricts: `client.InNamespace`, a selector option, or a
    `client.ListOptions{…}`; an option of another package is not understood (UNRESOLVED). With `one_page` (the
    option is written at a call that asks for no next page), a limit too: `client.Limit(1)`, `Limit: 1`."""
    text = " ".join(parser.text(option).split())
    head = text.lstrip("&").split("(", 1)[0].split("{", 1)[0]
    name = head.rsplit(".", 1)[-1]
    package = file.imports.get(head.rsplit(".", 1)[0]) if "." in head else None
    span = file.span(option)
    if package == CR_CLIENT and name == "InNamespace":
        arguments = option.child_by_field_name("arguments")
        namespace = parser.text(parser.first_named(arguments)) or '""'
        if namespace not in ALL_NAMESPACES:
            yield Restriction(Mitigation.NAMESPACE, kind, span, text)
    elif package == CR_CLIENT and name in _SELECTOR_OPTIONS:
        yield Restriction(Mitigation.SELECTOR, kind, span, text)
    elif package == CR_CLIENT and name == "Limit":
        limit = parser.first_named(option.child_by_field_name("arguments"))
        if one_page and _positive_literal(limit):
            yield Restriction(Mitigation.ONE_PAGE, kind, span, f"`{text}`: one page, no continue token")
    elif package == CR_CLIENT and name == "ListOptions":
        yield from _list_options_literal(file, option, kind, one_page=one_page)
    elif package != CR_CLIENT:
        yield Restriction(Mitigation.UNRESOLVED, kind, span, text)


def _list_options_literal(
    file: GoFile, option: tree_sitter.Node, kind: str, *, one_page: bool
) -> Iterator[Restriction]:
    """What a `client.ListOptions{…}` restricts: its namespace, its selectors, and a limit with no continue
    token (one page)."""
    text = " ".join(parser.text(option).split())
    span = file.span(option)
    literal = option.child_by_field_name("operand") if option.type == "unary_expression" else option
    keyed = keyed_elements(literal) if literal is not None else []
    for field_name, field_value in keyed:
        if field_name == "Namespace" and parser.text(field_value) not in ALL_NAMESPACES:
            yield Restriction(Mitigation.NAMESPACE, kind, span, text)
        elif field_name in ("LabelSelector", "FieldSelector"):
            yield Restriction(Mitigation.SELECTOR, kind, span, text)
        elif field_name == "Raw":  # the metav1.ListOptions the request starts from: its selectors are sent
            yield from _raw_options(field_value, kind, span, text)
        elif one_page and field_name == "Limit" and _positive_literal(field_value) and "Continue" not in dict(keyed):
            shown = f"`Limit: {parser.text(field_value)}`: one page, no continue token"
            yield Restriction(Mitigation.ONE_PAGE, kind, file.span(field_value), shown)


def _raw_options(raw: tree_sitter.Node, kind: str, span: Span, text: str) -> Iterator[Restriction]:
    """What a `Raw: &metav1.ListOptions{…}` restricts: its selectors, one that only excludes narrowing nothing
    (one held in a variable is judged later by what it holds by default, see `raw_selector`). Another value is
    taken to hold none (a ListFunc's `&options`, which the reflector fills with no selector of its own)."""
    written, held = _raw_parts(raw)
    if any(not excludes_only(selector) for selector in written) or held:
        yield Restriction(Mitigation.SELECTOR, kind, span, text)
    elif written:
        yield Restriction(Mitigation.SELECTOR, kind, span, text, is_effective=False, detail=EXCLUDES_ONLY + written[0])


_STRING_LITERALS = ("interpreted_string_literal", "raw_string_literal")


def raw_selectors(raw: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The selectors a `&metav1.ListOptions{…}` literal writes that are not empty, as written (`*flag` taken as
    the flag); none where it is no literal."""
    literal = struct_literal_of(raw)
    if literal is None:
        return []
    keyed = dict(keyed_elements(literal))
    found = []
    for key in ("LabelSelector", "FieldSelector"):
        value = keyed.get(key)
        if value is not None and " ".join(parser.text(value).split()) not in _NO_SELECTOR:
            found.append(value.child_by_field_name("operand") or value if parser.is_unary(value, "*") else value)
    return found


def raw_selector(raw: tree_sitter.Node) -> tree_sitter.Node | None:
    """The selector of a Raw literal to judge by what it holds by default: the first held one (a flag, a
    variable, a call), where no selector written out beside it narrows (one only excluding does not); None
    otherwise."""
    written, held = _raw_parts(raw)
    return held[0] if held and all(excludes_only(selector) for selector in written) else None


def _raw_parts(raw: tree_sitter.Node) -> tuple[list[str], list[tree_sitter.Node]]:
    """A Raw literal's selectors written out (as the strings they hold) and held (as written)."""
    selectors = raw_selectors(raw)
    written = [unquote(parser.text(item)).strip(", ") for item in selectors if item.type in _STRING_LITERALS]
    return written, [item for item in selectors if item.type not in _STRING_LITERALS]


def _positive_literal(node: tree_sitter.Node | None) -> bool:
    """`1`, or `int64(1)` converted as ListOptions' Limit is typed."""
    if (
        node is not None
        and node.type == "call_expression"
        and parser.text(node.child_by_field_name("function"))
        in (
            "int64",
            "int",
        )
    ):
        node = parser.first_named(node.child_by_field_name("arguments") or node)
    return node is not None and node.type == "int_literal" and int(parser.text(node), 0) > 0


def _printed(selector: tree_sitter.Node) -> bool:
    """`conf.PodSelector.String()`: a selector read as the string it prints."""
    function = selector.child_by_field_name("function") if selector.type == "call_expression" else None
    arguments = selector.child_by_field_name("arguments")
    return (
        function is not None
        and function.type == "selector_expression"
        and parser.text(function.child_by_field_name("field")) == "String"
        and not parser.named(arguments or selector)
    )


def local_values(resolver: Resolver, file: GoFile, node: tree_sitter.Node) -> list[tree_sitter.Node] | None:
    """Every value a local variable is declared with or assigned in its function; None for a name that is no
    such local (a parameter, a receiver, a range variable, a package variable)."""
    declaration = resolver.declaration(file, node) if node.type == "identifier" else None
    scope = resolver.scope(file, node) if declaration is not None else None
    if (
        declaration is None
        or scope is None
        or declaration.parameter_index >= 0
        or declaration.is_receiver
        or declaration.ranged_node is not None
    ):
        return None
    declared = [declaration.value_node] if declaration.value_node is not None else []
    return [*declared, *scope.assignments.get(declaration.name, [])]
