"""The fields a controller-runtime List filters on (`client.MatchingFields`, `MatchingFieldsSelector`,
`ListOptions.FieldSelector`). Against the cache they name indexes registered with `IndexField`; the API
server serves only a few fields per kind, so a fix that sends the List there must know which ones it uses."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import tree_sitter

from watchlint.exclusions import excludes_only
from watchlint.go import parser
from watchlint.go.guards import disjuncts
from watchlint.go.labelrequirements import excluded_requirements
from watchlint.go.model import CR_CLIENT, GoFile
from watchlint.go.parser import STRING_LITERALS
from watchlint.go.resolve import Resolver, assigned_to, keyed_elements, keyed_entries
from watchlint.go.scope import (
    function_starting_at,
    innermost_function,
    return_items,
    return_statements,
    returned_values,
)

FIELDS = "k8s.io/apimachinery/pkg/fields"
LABELS = "k8s.io/apimachinery/pkg/labels"
_ONE_TERM = frozenset({"OneTermEqualSelector", "OneTermNotEqualSelector"})
_PARSE = frozenset({"ParseSelector", "ParseSelectorOrDie"})
_PARSE_ANY = _PARSE | {"Parse"}  # labels.Parse too
_FIELD_OPTIONS = frozenset({"MatchingFields", "MatchingFieldsSelector", "ListOptions", "ListOption"})
_SELECTOR_FIELDS = {"MatchingFieldsSelector": "Selector", "ListOptions": "FieldSelector"}
_TERM = re.compile(r"^\s*([^!=\s]+)\s*(?:==|!=|=)")  # `status.phase!=Failed` -> status.phase


@dataclass(frozen=True, slots=True)
class FieldKey:
    """One field a List filters on."""

    expression: str  # as written: `podJobKey`, `"spec.nodeName"`
    value: str | None  # the field it names; None when watchlint cannot tell
    # an option a function held in a field or a variable gives (`r.podMatchingFields(meta)`): it may filter on
    # any field, which counts only for a kind the module indexes
    opaque: bool = False
    # the object's fields the cache index of that name holds, where its IndexField's function returns them
    # (`[]string{pod.Spec.NodeName}`: "spec.nodeName"), as the API server would name them
    copies: tuple[str, ...] | None = None

    @property
    def shown(self) -> str:
        return f'"{self.value}"' if self.value is not None else f"`{self.expression}`"


def index_copies(file: GoFile, call: tree_sitter.Node, resolver: Resolver) -> tuple[str, tuple[str, ...] | None] | None:
    """The name of the index an `IndexField(ctx, obj, name, extract)` registers, and the object fields its
    function returns in every non-empty return (`[]string{pod.Spec.NodeName}`: "spec.nodeName") where it leaves
    out only objects a selector on that field would not match either; None for the field where it is not seen
    or the function leaves out others (vcluster's host index of the Pods it manages), None where the name is
    not seen."""
    arguments = parser.named(call.child_by_field_name("arguments") or call)
    if len(arguments) != 4:
        return None
    name = resolver.string_value(file, arguments[2])
    if name is None:
        return None
    function = arguments[3]
    if function.type != "func_literal":
        return name, None
    copied = [value for value in returned_values(function) if value.type != "nil"]
    paths = {_field_paths(value) for value in copied}
    path = paths.pop() if len(paths) == 1 else None
    if path is None:
        return name, None
    body = copied[0].child_by_field_name("body")
    item = parser.first_named(body) if body is not None else None
    chain = parser.first_named(item) if item is not None and item.type == "literal_element" else item
    chain = chain if len(path) == 1 else None  # of several fields, only a type or an error test omits objects
    omitting = [statement for statement in return_statements(function) if _returns_nil(statement)]
    if any(not _omits_only_unset(file, statement, function, chain, resolver) for statement in omitting):
        return name, None
    return name, path


def _returns_nil(statement: tree_sitter.Node) -> bool:
    items = return_items(statement)
    return len(items) == 1 and items[0].type == "nil"


def _omits_only_unset(
    file: GoFile,
    statement: tree_sitter.Node,
    function: tree_sitter.Node,
    chain: tree_sitter.Node | None,
    resolver: Resolver,
) -> bool:
    """Whether an index function's `return nil` runs only for objects whose field is unset (`pod.Spec.NodeName ==
    ""`), that are of another type (`!ok` of a type assertion) or where it fails (`err != nil`): every `if` around
    it tests only that."""
    copied = parser.text(chain) if chain is not None else ""
    node: tree_sitter.Node | None = statement
    found = False
    while node is not None and node != function:
        parent = node.parent
        if parent is not None and parent.type == "if_statement" and node != parent.child_by_field_name("condition"):
            condition = parent.child_by_field_name("condition")
            if condition is None or not all(
                _tests_unset(file, part, copied, resolver) for part in disjuncts(condition)
            ):
                return False
            found = True
        elif parent is not None and parent.type in ("for_statement", "expression_case", "type_case", "default_case"):
            return False
        node = parent
    return found


def _tests_unset(file: GoFile, part: tree_sitter.Node, copied: str, resolver: Resolver) -> bool:
    while part.type == "parenthesized_expression" and parser.named(part):
        part = parser.named(part)[0]
    if parser.is_unary(part, "!"):
        operand = part.child_by_field_name("operand")
        declaration = (
            resolver.declaration(file, operand) if operand is not None and operand.type == "identifier" else None
        )
        value = declaration.value_node if declaration is not None else None
        return value is not None and value.type == "type_assertion_expression"
    if part.type != "binary_expression":
        return False
    operator = parser.text(part.child_by_field_name("operator"))
    left, right = parser.text(part.child_by_field_name("left")), parser.text(part.child_by_field_name("right"))
    if operator == "!=" and right == "nil":
        return left == "err" or left.endswith("Err")
    root = copied.split(".", 1)[0]
    return operator == "==" and (
        (left in (copied, f"len({copied})") and right in ('""', "0", "nil")) or (left == root and right == "nil")
    )


def _field_paths(value: tree_sitter.Node) -> tuple[str, ...] | None:
    """`("spec.nodeName",)` of `[]string{pod.Spec.NodeName}`: the field chains of a local, or of the object
    asserted to its type (`[]string{object.(*corev1.Pod).Spec.NodeName}`), its names as in JSON, that the one
    item returned holds; several where the item joins fields with literal text (carina's `fmt.Sprintf("%s-%s",
    pod.Spec.SchedulerName, pod.Spec.NodeName)`, or `a + "/" + b`)."""
    items = parser.named(value.child_by_field_name("body") or value) if value.type == "composite_literal" else []
    item = items[0] if len(items) == 1 else None
    if item is not None and item.type == "literal_element":
        item = parser.first_named(item)
    if item is None:
        return None
    if (single := _chain_path(item)) is not None:
        return (single,)
    parts = _joined_parts(item)
    paths = [_chain_path(part) for part in parts if part.type not in STRING_LITERALS]
    if not paths or any(path is None for path in paths) or len(parts) == len(paths):
        return None  # not only fields and the literal text between them
    return tuple(path for path in paths if path is not None)


def _joined_parts(item: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The operands `fmt.Sprintf` formats, with its format, or those a `+` chain joins; none for another value."""
    if item.type == "call_expression" and parser.text(item.child_by_field_name("function")) == "fmt.Sprintf":
        arguments = parser.named(item.child_by_field_name("arguments") or item)
        verbs = _VERB.findall(parser.text(arguments[0])) if arguments else []
        # each field formatted whole (`%s`, `%v`), not cut (`%.3s`) nor padded
        return arguments if verbs and all(verb in ("%s", "%v", "%d") for verb in verbs) else []
    if item.type == "binary_expression" and parser.text(item.child_by_field_name("operator")) == "+":
        sides = [item.child_by_field_name("left"), item.child_by_field_name("right")]
        return [part for side in sides if side is not None for part in (_joined_parts(side) or [side])]
    return []


def _chain_path(chain: tree_sitter.Node | None) -> str | None:
    """`spec.nodeName` of `pod.Spec.NodeName` (or `object.(*corev1.Pod).Spec.NodeName`); None for another
    expression."""
    names: list[str] = []
    while chain is not None and chain.type == "selector_expression":
        names.insert(0, parser.text(chain.child_by_field_name("field")))
        chain = chain.child_by_field_name("operand")
    while chain is not None and chain.type in ("parenthesized_expression", "type_assertion_expression"):
        chain = chain.child_by_field_name("operand") or parser.first_named(chain)
    if chain is None or chain.type != "identifier" or len(names) < 2:
        return None
    return ".".join(name[:1].lower() + name[1:] for name in names)


def excluded_selector(file: GoFile, selector: tree_sitter.Node, resolver: Resolver) -> str | None:
    """The selector an expression builds, as written, where it only excludes (see `_Reader.excluded`)."""
    return _Reader(file, resolver).excluded(selector)


def extract_field_keys(file: GoFile, option: tree_sitter.Node, resolver: Resolver) -> list[FieldKey]:
    """The fields one List option filters on; [] for an option that sets no field selector."""
    return list(_Reader(file, resolver).option(option))


def fields_detail(file: GoFile, selector: tree_sitter.Node, resolver: Resolver) -> str:
    """`fields spec.nodeName`, for the inventory: the fields a selector tests where each can be told, also of
    its string (`sel.String()`, `"spec.nodeName=" + node`, `fmt.Sprintf("spec.nodeName=%s", node)`); else ""."""
    function = selector.child_by_field_name("function") if selector.type == "call_expression" else None
    if function is not None and function.type == "selector_expression":
        operand = function.child_by_field_name("operand")
        if parser.text(function.child_by_field_name("field")) == "String" and operand is not None:
            selector = operand
    values = [key.value for key in _Reader(file, resolver).selector(selector)]
    if values and all(values):
        return "fields " + ", ".join(value for value in values if value)
    written = _WRITTEN_TERM.match(parser.text(selector))
    return f"fields {written.group(1)}" if written else ""


_WRITTEN_TERM = re.compile(r'(?:fmt\.Sprintf\(\s*)?"([\w.]+)=(?!=)')  # `"spec.nodeName=" + node`: not `!=`


_HELPER_DEPTH = 2  # helpers that build a selector, followed this many calls deep
_TEMPLATE_DEPTH = 8  # `+` operands followed in a selector string built from parts
_UNSEEN = "\x00"  # a part of a selector string that is not told
_VERB = re.compile(r"%[-+# 0]*\d*(?:\.\d+)?[a-zA-Z]")


class _Reader:
    """Reads the selectors of one file, following `&` and local variables to the expressions that build them,
    and the module's helpers that return them."""

    def __init__(self, file: GoFile, resolver: Resolver, depth: int = 0) -> None:
        self.file = file
        self.resolver = resolver
        self.depth = depth

    def option(self, node: tree_sitter.Node) -> Iterator[FieldKey]:
        if (passed := self._closure_arguments(node)) is not None:
            for argument in passed:  # kruise's `listPods := func(o *client.ListOptions) {…}; listPods(&opts)`
                yield from self._option(argument)
            return
        yield from self._option(node)

    def _option(self, node: tree_sitter.Node) -> Iterator[FieldKey]:
        typed = self.resolver.type_of(self.file, node) if node.type == "identifier" else None
        if typed is not None and typed.package == CR_CLIENT and typed.name not in _FIELD_OPTIONS:
            return  # `var selected client.MatchingLabels = info.Labels(o)`: an option of another sort
        node = self._value(node)
        name = self._qualified(node, CR_CLIENT)
        if name == "MatchingFields":
            yield from self._set(node)
        elif name is None and (returned := self._helper_returns(node)) is not None:
            for file, value in returned:  # `podKeys(meta)` returning `client.MatchingFields{…}`
                yield from _Reader(file, self.resolver, self.depth + 1).option(value)
        elif name is None and self._through_a_value(node):
            # `r.podMatchingFields(meta)`, a function a field holds: it may filter on a field only an index serves
            yield FieldKey(" ".join(parser.text(node).split()), None, opaque=True)
        elif name in _SELECTOR_FIELDS:
            literal = self._literal(node)
            for key, value in keyed_elements(literal) if literal is not None else ():
                if key != _SELECTOR_FIELDS[name]:
                    continue
                if self._qualified(self._value(value), CR_CLIENT) == "MatchingFieldsSelector":
                    # `ListOptions{FieldSelector: client.MatchingFieldsSelector{Selector: …}}`: what it wraps
                    yield from self.option(value)
                else:
                    yield from self.selector(value)

    def selector(self, node: tree_sitter.Node) -> Iterator[FieldKey]:
        """`fields.OneTermEqualSelector(k, v)`, `fields.SelectorFromSet(fields.Set{…})`, `fields.Set{…}.AsSelector()`,
        `fields.AndSelectors(…)`, `fields.ParseSelectorOrDie("k=v")`; an expression not read is one unknown field."""
        node = self._value(node)
        name = self._qualified(node, FIELDS)
        arguments = parser.named(node.child_by_field_name("arguments") or node) if name is not None else []
        set_operand = _as_selector_operand(node)
        if parser.text(node) == "nil" or name == "Everything":
            return
        if set_operand is not None:
            yield from self._set(set_operand)
        elif name in _ONE_TERM and arguments:
            yield self._key(arguments[0])
        elif name == "SelectorFromSet" and arguments:
            yield from self._set(arguments[0])
        elif name == "AndSelectors":
            for argument in arguments:
                yield from self.selector(argument)
        elif name in _PARSE and arguments:
            yield from self._parsed(node, arguments[0])
        elif (returned := self._helper_returns(node)) is not None:
            for file, value in returned:
                yield from _Reader(file, self.resolver, self.depth + 1).selector(value)
        else:
            yield self._unknown(node)

    def excluded(self, node: tree_sitter.Node, depth: int = 0) -> str | None:
        """The selector an expression builds where each of its terms excludes (`fields.OneTermNotEqualSelector(
        "type", "helm.sh/release.v1")`, `fields.ParseSelectorOrDie("status.phase!=" + string(corev1.PodPending))`,
        those joined with AndSelectors, or their `.String()`), as written; None for any other selector."""
        if (required := excluded_requirements(self.file, node, self.resolver)) is not None:
            return required  # `labels.NewSelector().Add(*noProxyName)`
        node = self._value(node)
        function = node.child_by_field_name("function") if node.type == "call_expression" else None
        if function is not None and function.type == "selector_expression" and depth < _TEMPLATE_DEPTH:
            operand = function.child_by_field_name("operand")
            if parser.text(function.child_by_field_name("field")) == "String" and operand is not None:
                return self.excluded(operand, depth + 1)
        name = self._qualified(node, FIELDS) or self._qualified(node, LABELS)
        arguments = parser.named(node.child_by_field_name("arguments") or node) if name is not None else []
        if name == "OneTermNotEqualSelector":
            return " ".join(parser.text(node).split())
        if name in _PARSE_ANY and arguments:
            template = self._template(arguments[0])
            shown = template.replace(_UNSEEN, "…")
            return shown if template != _UNSEEN and excludes_only(template.replace(_UNSEEN, "x")) else None
        if name == "AndSelectors" and arguments and depth < _TEMPLATE_DEPTH:
            # the selector list options came in with, parsed to merge with, is a reflector's: empty
            parts = [self.excluded(argument, depth + 1) for argument in arguments if not self._incoming(argument)]
            return ",".join(part for part in parts if part is not None) if parts and all(parts) else None
        return None

    def _incoming(self, node: tree_sitter.Node) -> bool:
        """`fields.ParseSelector(options.FieldSelector)`, also held in a local: the selector list options hold
        when a tweak is given them."""
        node = self._value(node)
        name = self._qualified(node, FIELDS) or self._qualified(node, LABELS)
        arguments = parser.named(node.child_by_field_name("arguments") or node) if name in _PARSE_ANY else []
        return bool(arguments) and parser.text(arguments[0]).endswith((".FieldSelector", ".LabelSelector"))

    def _parsed(self, node: tree_sitter.Node, text: tree_sitter.Node) -> Iterator[FieldKey]:
        """The terms of `fields.ParseSelector(text)`, also where the text is built: `fmt.Sprintf(
        "involvedObject.name=%s", pod.Name)` writes its key, not its value."""
        template = self._template(text)
        if template == _UNSEEN:
            yield self._unknown(node)
            return
        for term in template.split(","):
            key = _parsed_term(term.replace(_UNSEEN, "…"))
            yield key if key.value is not None and "…" not in key.value else self._unknown(text)

    def _template(self, node: tree_sitter.Node, depth: int = 0) -> str:
        """A selector string built from parts: what is written of it, each part not told `_UNSEEN` (`"k=" + v`,
        `fmt.Sprintf("k=%s", v)`)."""
        node = self._value(node)
        if (text := self.resolver.string_value(self.file, node)) is not None:
            return text
        if depth < _TEMPLATE_DEPTH and node.type == "binary_expression":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if parser.text(node.child_by_field_name("operator")) == "+" and left is not None and right is not None:
                return self._template(left, depth + 1) + self._template(right, depth + 1)
        function = node.child_by_field_name("function") if node.type == "call_expression" else None
        if function is not None and parser.text(function) == "fmt.Sprintf" and self.file.imports.get("fmt") == "fmt":
            arguments = parser.named(node.child_by_field_name("arguments") or node)
            written = self.resolver.string_value(self.file, arguments[0]) if arguments else None
            if written is not None:
                return _VERB.sub(_UNSEEN, written)
        return _UNSEEN

    def _closure_arguments(self, node: tree_sitter.Node) -> list[tree_sitter.Node] | None:
        """For a parameter of a function literal held in a local, what the local's calls in its function pass
        for it; None for another name."""
        declaration = self.resolver.declaration(self.file, node) if node.type == "identifier" else None
        if declaration is None or declaration.parameter_index < 0:
            return None
        literal = function_starting_at(node, declaration.scope_start)
        holder = assigned_to(literal) if literal is not None and literal.type == "func_literal" else None
        function = innermost_function(literal) if literal is not None else None
        if holder is None or holder.type != "identifier" or function is None:
            return None
        name, index = parser.text(holder), declaration.parameter_index
        found = []
        for call in parser.captures("(call_expression) @call", function).get("call", []):
            called = call.child_by_field_name("function")
            arguments = parser.named(call.child_by_field_name("arguments") or call)
            if called is not None and parser.text(called) == name and index < len(arguments):
                found.append(arguments[index])
        return found

    def _through_a_value(self, node: tree_sitter.Node) -> bool:
        """Whether a call runs a function a field or a variable holds (`r.podMatchingFields(meta)`), not a
        package's function nor a module method."""
        function = node.child_by_field_name("function") if node.type == "call_expression" else None
        operand = function.child_by_field_name("operand") if function is not None else None
        if function is None or function.type != "selector_expression" or operand is None:
            return False
        if operand.type == "identifier" and parser.text(operand) in self.file.imports:
            return False
        return self.resolver.callee(self.file, node) is None

    def _helper_returns(self, node: tree_sitter.Node) -> list[tuple[GoFile, tree_sitter.Node]] | None:
        """What a module function called here returns (`getEventFieldSelector(obj)`), each with its file."""
        if node.type != "call_expression" or self.depth >= _HELPER_DEPTH:
            return None
        info = self.resolver.callee(self.file, node)
        returned = [(info.file, value) for value in returned_values(info.node)] if info is not None else []
        return returned or None

    def _set(self, node: tree_sitter.Node) -> Iterator[FieldKey]:
        """The keys of `client.MatchingFields{…}` or `fields.Set{…}`, also converted: `client.MatchingFields(m)`."""
        node = self._value(node)
        if self._qualified(node, CR_CLIENT) == "MatchingFields" or self._qualified(node, FIELDS) == "Set":
            argument = parser.first_named(node.child_by_field_name("arguments"))  # a conversion: read the map
            node = self._value(argument) if argument is not None else node
        literal = self._literal(node)
        if literal is None:
            yield self._unknown(node)
            return
        for key, _ in keyed_entries(literal):
            yield self._key(key)
        yield from self._keys_set_later(literal)

    def _keys_set_later(self, literal: tree_sitter.Node) -> Iterator[FieldKey]:
        """`field := fields.Set{}` filled entry by entry in its function: `field["involvedObject.name"] = …`."""
        declared = literal.parent
        while declared is not None and declared.type == "expression_list":
            declared = declared.parent
        if declared is None or declared.type != "short_var_declaration":
            return
        left = declared.child_by_field_name("left")
        names = parser.named(left) if left is not None else []
        function = innermost_function(declared)
        if len(names) != 1 or function is None:
            return
        name = parser.text(names[0])
        for assignment in self.file.assignments():
            for target in assignment.targets:
                operand = target.child_by_field_name("operand") if target.type == "index_expression" else None
                index = target.child_by_field_name("index") if operand is not None else None
                named = operand is not None and index is not None and parser.text(operand) == name
                if named and index is not None and innermost_function(target) == function:
                    yield self._key(index)

    def _key(self, node: tree_sitter.Node) -> FieldKey:
        expression = " ".join(parser.text(node).split())
        return FieldKey(expression, self.resolver.string_value(self.file, node))

    def _unknown(self, node: tree_sitter.Node) -> FieldKey:
        return FieldKey(" ".join(parser.text(node).split()), None)

    def _value(self, node: tree_sitter.Node) -> tree_sitter.Node:
        """The expression behind `&` and a local variable (`opts := client.MatchingFields{…}`)."""
        if node.type == "unary_expression" and (operand := node.child_by_field_name("operand")) is not None:
            node = operand
        declaration = self.resolver.declaration(self.file, node) if node.type == "identifier" else None
        if declaration is None or declaration.value_node is None or declaration.parameter_index >= 0:
            return node
        value = declaration.value_node
        operand = value.child_by_field_name("operand") if value.type == "unary_expression" else None
        return operand if operand is not None else value

    def _literal(self, node: tree_sitter.Node) -> tree_sitter.Node | None:
        return node if node.type == "composite_literal" else None

    def _qualified(self, node: tree_sitter.Node, package: str) -> str | None:
        """`pkg.Name` of a composite literal's type or a call's function, when pkg imports `package`."""
        if node.type not in ("composite_literal", "call_expression"):
            return None
        head = node.child_by_field_name("type" if node.type == "composite_literal" else "function")
        if head is None or head.type not in ("qualified_type", "selector_expression"):
            return None
        qualifier = head.child_by_field_name("package" if head.type == "qualified_type" else "operand")
        name = head.child_by_field_name("name" if head.type == "qualified_type" else "field")
        if qualifier is None or self.file.imports.get(parser.text(qualifier)) != package:
            return None
        return parser.text(name)


def _parsed_term(term: str) -> FieldKey:
    """One term of a selector string: `status.phase!=Failed` names status.phase."""
    match = _TERM.match(term)
    return FieldKey(term.strip(), match.group(1) if match else None)


def _as_selector_operand(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The set of `fields.Set{…}.AsSelector()`."""
    function = node.child_by_field_name("function") if node.type == "call_expression" else None
    if function is None or function.type != "selector_expression":
        return None
    if parser.text(function.child_by_field_name("field")) != "AsSelector":
        return None
    return function.child_by_field_name("operand")
