"""The syntax shapes a client value takes in Go: fakes of tests, maps and lists of clients, the reader a
`client.New` is given, a call's operand."""

from __future__ import annotations

import tree_sitter

from watchlint.go import parser
from watchlint.go.model import CR_FAKE, GoFile
from watchlint.go.resolve import append_arguments, element_value, keyed_elements


def is_fake_client(file: GoFile, call: tree_sitter.Node, package: str | None, name: str) -> bool:
    """`fake.NewFakeClient(…)`, or `fake.NewClientBuilder()…Build()` of controller-runtime's fake package."""
    if package == CR_FAKE:
        return name in ("NewFakeClient", "NewFakeClientWithScheme")
    if name != "Build":
        return False
    root = call
    while root.type == "call_expression":
        function = root.child_by_field_name("function")
        if function is None or function.type != "selector_expression":
            return False
        operand = function.child_by_field_name("operand")
        if operand is None:
            return False
        if operand.type == "identifier":
            called = parser.text(function.child_by_field_name("field"))
            return file.imports.get(parser.text(operand)) == CR_FAKE and called == "NewClientBuilder"
        root = operand
    return False


def is_map(value: tree_sitter.Node) -> bool:
    """`make(map[K]V, …)` or a `map[K]V{…}` literal."""
    if value.type == "call_expression":
        function = value.child_by_field_name("function")
        first = parser.first_named(value.child_by_field_name("arguments") or value)
        return (
            function is not None and parser.text(function) == "make" and first is not None and first.type == "map_type"
        )
    type_node = value.child_by_field_name("type") if value.type == "composite_literal" else None
    return type_node is not None and type_node.type == "map_type"


def map_values(value: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The values of a map literal's entries (`map[string]client.Reader{"home": c}`)."""
    body = value.child_by_field_name("body") if value.type == "composite_literal" else None
    entries = [entry for entry in parser.named(body) if entry.type == "keyed_element"] if body is not None else []
    values = [parser.named(entry)[-1] for entry in entries if parser.named(entry)]
    return [element_value(item) for item in values]


def appended_item(value: tree_sitter.Node) -> tree_sitter.Node | None:
    """The first item of an `append(list, item, …)`."""
    items = append_arguments(value) or []
    return items[1] if len(items) > 1 and items[1].type != "variadic_argument" else None


def cache_reader(arguments: tree_sitter.Node) -> tuple[tree_sitter.Node, tree_sitter.Node] | None:
    """The `Reader:` of a `client.Options{Cache: &client.CacheOptions{Reader: …}}` argument, with the literal
    that sets it."""
    for literal in parser.captures("(composite_literal) @literal", arguments).get("literal", []):
        reader = reader_of(literal)
        if reader is not None:
            return reader, literal
    return None


def reader_of(literal: tree_sitter.Node) -> tree_sitter.Node | None:
    """The `Reader:` a composite literal sets (`client.CacheOptions{Reader: mgr.GetCache()}`), or the
    `CacheReader:` of the older `client.NewDelegatingClientInput{CacheReader: cache, Client: c}`, if any."""
    return next((value for key, value in keyed_elements(literal) if key in ("Reader", "CacheReader")), None)


def call_operand(call: tree_sitter.Node) -> tree_sitter.Node | None:
    function = call.child_by_field_name("function")
    return function.child_by_field_name("operand") if function is not None else None
