"""The environment variables kelseyhightower/envconfig fills a struct's fields from.

`envconfig.Process("APP", &settings)` fills every field of `settings`, tagged or not: field `SweepConfig`
from APP_SWEEPCONFIG (APP_SWEEP_CONFIG with `split_words:"true"`), a field tagged `envconfig:"X"` from APP_X
(then X), with the tag's `default:"…"` or the zero value where the variable is unset.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import tree_sitter

from watchlint.go import parser
from watchlint.go.model import GoFile, TypeRef
from watchlint.go.resolve import Resolver
from watchlint.go.structtags import declaring_struct, tag_items

ENVCONFIG = "github.com/kelseyhightower/envconfig"
_PROCESSING = frozenset({"Process", "MustProcess"})
# envconfig's own word splitting: runs of lower case, a capital and what follows, runs of capitals
_WORDS = re.compile(r"([^A-Z]+|[A-Z]+[^A-Z]+|[A-Z]+)")
_ACRONYM = re.compile(r"([A-Z]+)([A-Z][^A-Z]+)")
# the field types envconfig reads from one variable (a struct field is filled field by field instead)
_SCALARS = frozenset(
    {"string", "bool", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64"}
    | {"float32", "float64", "time.Duration"}
)


@dataclass(frozen=True, slots=True)
class Processed:
    """A struct envconfig fills, and the prefix of its variables (None: not a constant)."""

    struct: TypeRef
    prefix: str | None


@dataclass(frozen=True, slots=True)
class FieldVariable:
    """The variable one field is filled from, and the default its tag gives (None: the zero value)."""

    field: str
    variable: str
    default: str | None


def processed_structs(file: GoFile, resolver: Resolver) -> Iterator[Processed]:
    """The structs this file hands to envconfig.Process."""
    if ENVCONFIG not in file.imports.values():
        return
    for call in file.calls():
        if call.name not in _PROCESSING or call.operand is None or call.arguments is None:
            continue
        if file.imports.get(parser.text(call.operand)) != ENVCONFIG:
            continue
        values = parser.named(call.arguments)
        if len(values) != 2:
            continue
        target = values[1].child_by_field_name("operand") if values[1].type == "unary_expression" else values[1]
        struct = resolver.type_of(file, target)
        if struct is not None:
            yield Processed(struct.base, resolver.string_value(file, values[0]))


def field_variables(files: list[GoFile], processed: Processed) -> Iterator[FieldVariable]:
    """The variables of the processed struct's fields of a type read from one variable, in source order."""
    for file in files:
        if file.package_path != processed.struct.package:
            continue
        for declaration in file.nodes("field_declaration"):
            if declaring_struct(file, declaration) != processed.struct:
                continue
            type_node = declaration.child_by_field_name("type")
            if type_node is None or not _read_from_one_variable(type_node):
                continue
            tag = declaration.child_by_field_name("tag")
            items = tag_items(parser.text(tag)) if tag is not None else {}
            if items.get("ignored") == "true":
                continue
            for name in declaration.children_by_field_name("name"):
                field = parser.text(name)
                key = items.get("envconfig", "").split(",")[0] or (
                    _split_words(field) if items.get("split_words") == "true" else field
                )
                variable = f"{processed.prefix}_{key}" if processed.prefix else key
                yield FieldVariable(field, variable.upper(), items.get("default"))


def _read_from_one_variable(type_node: tree_sitter.Node) -> bool:
    """Scalars, and slices and maps of them (envconfig splits the variable on commas and colons)."""
    text = parser.text(type_node).lstrip("*")
    if text.startswith("[]"):
        text = text[2:]
    elif text.startswith("map[") and "]" in text:
        key, value = text[4:].split("]", 1)
        return key in _SCALARS and value in _SCALARS
    return text in _SCALARS


def _split_words(name: str) -> str:
    """SweepConfig -> Sweep_Config, HTTPServer -> HTTP_Server, as envconfig's split_words does."""
    words: list[str] = []
    for word in _WORDS.findall(name):
        acronym = _ACRONYM.fullmatch(word)
        words.extend(acronym.groups() if acronym is not None else (word,))
    return "_".join(words)
