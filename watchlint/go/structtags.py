"""Struct field declarations as the libraries filling fields read them: a tag's `key:"value"` items, and
the named struct a field belongs to."""

from __future__ import annotations

import re

import tree_sitter

from watchlint.go import parser
from watchlint.go.model import GoFile, TypeRef

_TAG_ITEM = re.compile(r'([A-Za-z_][A-Za-z0-9_-]*):"((?:[^"\\]|\\.)*)"')  # key:"value" in a struct tag


def tag_items(tag: str) -> dict[str, str]:
    """`env:"X" default:"v"` -> {"env": "X", "default": "v"}."""
    return dict(_TAG_ITEM.findall(tag))


def declaring_struct(file: GoFile, declaration: tree_sitter.Node) -> TypeRef | None:
    """The named struct type a field declaration belongs to (`type startCommand struct {…}`)."""
    struct = declaration.parent.parent if declaration.parent is not None else None
    spec = struct.parent if struct is not None and struct.type == "struct_type" else None
    name = spec.child_by_field_name("name") if spec is not None and spec.type == "type_spec" else None
    return TypeRef(file.package_path, parser.text(name)) if name is not None else None


def declares_a_variables_field(declaration: tree_sitter.Node) -> bool:
    """Whether a field declaration belongs to the anonymous struct type of a variable (`var cli struct {…}`,
    which kong fills as it would a named struct)."""
    struct = declaration.parent.parent if declaration.parent is not None else None
    return (
        struct is not None
        and struct.type == "struct_type"
        and struct.parent is not None
        and (struct.parent.type == "var_spec")
    )
