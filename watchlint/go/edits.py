"""Go fix builders (SPEC §4): concrete edits computed from the syntax tree, in the file's own style.

WL002 adds the kind to the manager's DisableFor (ClientDisableCacheFor before v0.15), creating the
Client and CacheOptions fields it needs; WL001 adds a ByObject label selector for the kind, or watches it
metadata-only; every edit brings the imports it needs, with the file's existing aliases.
"""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter

from watchlint.fixes import Applicability, Edit, Fix
from watchlint.go import parser
from watchlint.go.model import CR_BUILDER, CR_CACHE, CR_CLIENT, GoFile
from watchlint.go.resolve import keyed_elements

LABELS = "k8s.io/apimachinery/pkg/labels"
MANAGED_BY = "app.kubernetes.io/managed-by"


@dataclass(frozen=True, slots=True)
class OptionsAnchor:
    """Where one binary's manager options are written: the `ctrl.Options{…}` literal."""

    file: GoFile
    literal: tree_sitter.Node  # composite_literal
    is_old_era: bool  # controller-runtime before v0.15: ClientDisableCacheFor, NewCache builders
    operator: str  # the name objects are labelled with: the module's last path element


@dataclass(frozen=True, slots=True)
class KindType:
    """The Go type of a kind, as an import path and a type name."""

    package: str
    name: str


def disable_for_fix(anchor: OptionsAnchor, kind: KindType, policy: str) -> Fix | None:
    """Add the kind to Client.Cache.DisableFor (safe: reads return the same objects, live)."""
    imports = _Imports(anchor.file)
    client = imports.alias(CR_CLIENT, "client")
    obj = f"&{imports.alias(kind.package, _default_alias(kind.package))}.{kind.name}{{}}"
    if anchor.is_old_era:
        edit = _add_to_list(anchor.file, anchor.literal, "ClientDisableCacheFor", obj, f"[]{client}.Object")
    else:
        edit = _disable_for_nested(anchor, client, obj)
    if edit is None:
        return None
    where = "ClientDisableCacheFor" if anchor.is_old_era else "Client.Cache.DisableFor"
    title = f"Add {obj} to {where} in {anchor.file.path}"
    return Fix(title, Applicability.SAFE, (edit, *imports.edits()), code="WL002", policy=policy)


def _disable_for_nested(anchor: OptionsAnchor, client: str, obj: str) -> Edit | None:
    file, options = anchor.file, anchor.literal
    disable_for = f"DisableFor: []{client}.Object{{{obj}}}"
    client_options = _field(options, "Client")
    if client_options is None:
        return _insert_element(
            file, options, f"Client: {client}.Options{{Cache: &{client}.CacheOptions{{{disable_for}}}}}"
        )
    if client_options.type != "composite_literal":
        return None
    cache_options = _field(client_options, "Cache")
    if cache_options is None:
        return _insert_element(file, client_options, f"Cache: &{client}.CacheOptions{{{disable_for}}}")
    literal = cache_options.child_by_field_name("operand") if cache_options.type == "unary_expression" else None
    if literal is None or literal.type != "composite_literal":
        return None
    return _add_to_list(file, literal, "DisableFor", obj, f"[]{client}.Object")


def by_object_fix(anchor: OptionsAnchor, kind: KindType, policy: str) -> Fix | None:
    """Cache only the objects the operator labels (unsafe: unlabelled objects become invisible)."""
    imports = _Imports(anchor.file)
    client = imports.alias(CR_CLIENT, "client")
    cache = imports.alias(CR_CACHE, "cache")
    labels = imports.alias(LABELS, "labels")
    obj = f"&{imports.alias(kind.package, _default_alias(kind.package))}.{kind.name}{{}}"
    selector = f'{labels}.SelectorFromSet({labels}.Set{{"{MANAGED_BY}": "{anchor.operator}"}})'
    entry = f"{obj}: {{Label: {selector}}}"
    if anchor.is_old_era:
        edit = _selectors_by_object(anchor, cache, entry)
        where = "NewCache SelectorsByObject"
    else:
        edit = _by_object(anchor, client, cache, entry)
        where = "Cache.ByObject"
    if edit is None:
        return None
    title = (
        f"Cache only {kind.name} objects labelled {MANAGED_BY}={anchor.operator} ({where} in {anchor.file.path}); "
        "unlabelled ones become invisible, so label what the operator creates"
    )
    return Fix(title, Applicability.UNSAFE, (edit, *imports.edits()), code="WL001", policy=policy)


def _by_object(anchor: OptionsAnchor, client: str, cache: str, entry: str) -> Edit | None:
    file, options = anchor.file, anchor.literal
    map_type = f"map[{client}.Object]{cache}.ByObject"
    cache_options = _field(options, "Cache")
    if cache_options is None:
        return _insert_element(file, options, f"Cache: {cache}.Options{{ByObject: {map_type}{{{entry}}}}}")
    if cache_options.type != "composite_literal":
        return None
    by_object = _field(cache_options, "ByObject")
    if by_object is None:
        return _insert_element(file, cache_options, f"ByObject: {map_type}{{{entry}}}")
    return _insert_element(file, by_object, entry) if by_object.type == "composite_literal" else None


def _selectors_by_object(anchor: OptionsAnchor, cache: str, entry: str) -> Edit | None:
    file, options = anchor.file, anchor.literal
    new_cache = _field(options, "NewCache")
    selectors = f"SelectorsByObject: {cache}.SelectorsByObject{{{entry}}}"
    if new_cache is None:
        return _insert_element(file, options, f"NewCache: {cache}.BuilderWithOptions({cache}.Options{{{selectors}}})")
    arguments = new_cache.child_by_field_name("arguments") if new_cache.type == "call_expression" else None
    literal = arguments.named_children[0] if arguments is not None and arguments.named_children else None
    if literal is None or literal.type != "composite_literal" or not parser.text(new_cache).startswith(cache):
        return None
    existing = _field(literal, "SelectorsByObject")
    if existing is None:
        return _insert_element(file, literal, selectors)
    return _insert_element(file, existing, entry) if existing.type == "composite_literal" else None


def only_metadata_fix(file: GoFile, call: tree_sitter.Node, kind: str) -> Fix | None:
    """Watch the kind metadata-only (unsafe: the reconciler must read it as PartialObjectMetadata)."""
    arguments = call.child_by_field_name("arguments")
    values = [node for node in arguments.named_children if node.type != "comment"] if arguments else []
    if not values:
        return None
    imports = _Imports(file)
    builder = imports.alias(CR_BUILDER, "builder")
    edit = Edit(file.source.span(values[-1].end_byte, values[-1].end_byte), f", {builder}.OnlyMetadata")
    title = f"Watch {kind} metadata only (builder.OnlyMetadata); read it as metav1.PartialObjectMetadata"
    return Fix(title, Applicability.UNSAFE, (edit, *imports.edits()), code="WL001")


def api_reader_fix(file: GoFile, operand: tree_sitter.Node, reader: str) -> Fix:
    """Read through the reconciler's API reader field (unsafe: reads are no longer served by the cache)."""
    text = parser.text(operand)
    base = text.rsplit(".", 1)[0] if operand.type == "selector_expression" else text
    edit = Edit(file.span(operand), f"{base}.{reader}")
    return Fix(f"Read through {base}.{reader} (mgr.GetAPIReader())", Applicability.UNSAFE, (edit,), code="WL002")


# -- literals -------------------------------------------------------------------------------------------
def _field(literal: tree_sitter.Node, name: str) -> tree_sitter.Node | None:
    return next((value for key, value in keyed_elements(literal) if key == name), None)


def _add_to_list(file: GoFile, literal: tree_sitter.Node, field: str, item: str, list_type: str) -> Edit | None:
    """Append to `field: []T{…}` in a literal, or add the field when the literal has none."""
    existing = _field(literal, field)
    if existing is None:
        return _insert_element(file, literal, f"{field}: {list_type}{{{item}}}")
    if existing.type != "composite_literal":
        return None  # a variable or a call: the list is built elsewhere
    return _insert_element(file, existing, item)


def _insert_element(file: GoFile, literal: tree_sitter.Node, entry: str) -> Edit:
    """Insert an element before the closing brace, keeping one-line literals on one line."""
    body = literal.child_by_field_name("body") if literal.type == "composite_literal" else literal
    assert body is not None
    close = body.children[-1]
    elements = [child for child in body.named_children if child.type != "comment"]
    data = file.source.data
    if close.start_point.row == body.start_point.row:  # `{a, b}` or `{}`
        if not elements:
            return Edit(file.source.span(close.start_byte, close.start_byte), entry)
        between = data[elements[-1].end_byte : close.start_byte]
        return Edit(file.source.span(close.start_byte, close.start_byte), (" " if b"," in between else ", ") + entry)
    line_start = file.source.line_starts[close.start_point.row]
    if data[line_start : close.start_byte].strip():  # `…, last}` closing on the last element's line
        between = data[elements[-1].end_byte : close.start_byte] if elements else b""
        return Edit(
            file.source.span(close.start_byte, close.start_byte), ("" if b"," in between else ",") + f" {entry}"
        )
    indent = _indent_of(file, elements[-1]) if elements else _indent_of(file, close) + "\t"
    return Edit(file.source.span(line_start, line_start), f"{indent}{entry},\n")


def _indent_of(file: GoFile, node: tree_sitter.Node) -> str:
    start = file.source.line_starts[node.start_point.row]
    line = file.source.data[start : node.start_byte].decode("utf-8", errors="replace")
    return line[: len(line) - len(line.lstrip())]


# -- imports --------------------------------------------------------------------------------------------
def _default_alias(package: str) -> str:
    """`k8s.io/api/core/v1` -> corev1, as kubebuilder names them."""
    parts = package.split("/")
    if package.startswith("k8s.io/api/") and len(parts) >= 2:
        return parts[-2] + parts[-1]
    return parts[-1]


class _Imports:
    """The aliases a fix may use in one file, and the import specs it must add."""

    def __init__(self, file: GoFile) -> None:
        self.file = file
        self.by_path = {path: alias for alias, path in file.imports.items()}
        self.missing: dict[str, str] = {}

    def alias(self, path: str, preferred: str) -> str:
        if path in self.by_path:
            return self.by_path[path]
        if path not in self.missing:
            taken = set(self.file.imports) | set(self.missing.values())
            alias = preferred
            while alias in taken:
                alias += "x"
            self.missing[path] = alias
        return self.missing[path]

    def edits(self) -> tuple[Edit, ...]:
        """The import edits, merged per insertion point so each place gets one edit in gofmt order."""
        if not self.missing:
            return ()
        specs = parser.captures("(import_spec) @spec", self.file.tree.root_node).get("spec", [])
        listed = [spec for spec in specs if spec.parent is not None and spec.parent.type == "import_spec_list"]
        if not listed:
            return (self._new_block(specs),)
        by_offset: dict[int, list[str]] = {}
        for path, alias in sorted(self.missing.items()):
            offset, text = self._insertion(listed, path, alias)
            by_offset.setdefault(offset, []).append(text)
        edits = []
        for offset, texts in sorted(by_offset.items()):
            at_line_start = offset in self.file.source.line_starts
            joined = "".join(f"{text}\n" for text in texts) if at_line_start else "".join(f"\n{text}" for text in texts)
            edits.append(Edit(self.file.source.span(offset, offset), joined))
        return tuple(edits)

    def _spec_text(self, path: str, alias: str) -> str:
        name = "" if alias == path.rsplit("/", 1)[-1] else f"{alias} "
        return f'{name}"{path}"'

    def _insertion(self, specs: list[tree_sitter.Node], path: str, alias: str) -> tuple[int, str]:
        """Where and what to insert so the new spec sorts within the group of the closest paths (gofmt)."""
        group = _closest_group(self.file, specs, path)
        following = next((spec for spec in group if _spec_path(spec) > path), None)
        anchor = following if following is not None else group[-1]
        text = _indent_of(self.file, anchor) + self._spec_text(path, alias)
        if following is not None:
            return self.file.source.line_starts[following.start_point.row], text
        return anchor.end_byte, text

    def _new_block(self, specs: list[tree_sitter.Node]) -> Edit:
        """Turn `import x "p"` (or no import at all) into an import block holding the new specs."""
        existing = [(_spec_path(spec), parser.text(spec)) for spec in specs]
        added = [(path, self._spec_text(path, alias)) for path, alias in self.missing.items()]
        body = "".join(f"\t{text}\n" for _, text in sorted(existing + added))
        block = f"import (\n{body})"
        declarations = [spec.parent for spec in specs if spec.parent is not None]
        root = self.file.tree.root_node
        if declarations:
            declaration = declarations[0]
            return Edit(self.file.span(declaration), block)
        clause = next(child for child in root.named_children if child.type == "package_clause")
        return Edit(self.file.source.span(clause.end_byte, clause.end_byte), f"\n\n{block}")


def _spec_path(spec: tree_sitter.Node) -> str:
    return parser.text(spec.child_by_field_name("path")).strip('"`')


def _closest_group(file: GoFile, specs: list[tree_sitter.Node], path: str) -> list[tree_sitter.Node]:
    """Import specs split at blank lines (gofmt sorts each group); the group sharing most of `path`."""
    groups: list[list[tree_sitter.Node]] = [[specs[0]]]
    for spec in specs[1:]:
        if spec.start_point.row > groups[-1][-1].end_point.row + 1 or spec.parent != groups[-1][-1].parent:
            groups.append([spec])
        else:
            groups[-1].append(spec)

    def shared(group: list[tree_sitter.Node]) -> int:
        return max(len(_common_prefix(_spec_path(spec), path)) for spec in group)

    return max(groups, key=shared)


def _common_prefix(left: str, right: str) -> str:
    size = 0
    for a, b in zip(left, right, strict=False):
        if a != b:
            break
        size += 1
    return left[:size]
