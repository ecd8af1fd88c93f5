"""Go fix builders (SPEC §4): concrete edits computed from the syntax tree, in the file's own style.

WL002 adds the kind to the manager's DisableFor (ClientDisableCacheFor before v0.15), creating the
Client and CacheOptions fields it needs; WL001 adds a ByObject label selector for a kind the operator owns,
or watches the kind metadata-only; every edit brings the imports it needs, with the file's existing aliases.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import tree_sitter

from watchlint.fixes import Applicability, Edit, Fix
from watchlint.go import parser
from watchlint.go.model import CR_BUILDER, CR_CACHE, CR_CLIENT, GoFile
from watchlint.go.predicateselectors import Labels
from watchlint.go.resolve import keyed_elements, keyed_entries, selector_root
from watchlint.go.scope import innermost_function

LABELS = "k8s.io/apimachinery/pkg/labels"


# what an edit of a generated file says: the next `go generate` writes the file anew
_GENERATED_NOTE = "; the file is generated: make the same change where it is generated from, or it is undone"


@dataclass(frozen=True, slots=True)
class OptionsAnchor:
    """Where one binary's manager options are written: the `ctrl.Options{…}` literal."""

    file: GoFile
    literal: tree_sitter.Node  # composite_literal
    is_old_era: bool  # controller-runtime before v0.15: ClientDisableCacheFor, NewCache builders
    # the owner label the operator sets on what it creates, for a label selector; None when its value varies
    label: tuple[str, str] | None
    # fields of the options the code assigns whole after the literal (`opts.Cache = cache.Options{…}` in a
    # helper given &opts, `opts.Cache.ByObject = map…{}` under a flag), as dotted paths: an edit of the
    # literal's field, or of a field inside it, would be replaced
    overwritten: frozenset[str] = frozenset()
    has_selectors: bool = True  # controller-runtime v0.9 or later: per-kind selectors (SelectorsByObject) exist
    has_disable_for: bool = True  # v0.7 or later: ClientDisableCacheFor and client.Object exist
    # where `label` is made up (the code sets no owner key): per API type (import path, name), a label every
    # object of it the code builds carries, proposed instead
    built_labels: Mapping[tuple[str, str], tuple[str, str]] = field(default_factory=dict)
    label_made_up: bool = False  # the code sets no owner key: `label` is the operator's name, on nothing yet
    generated: bool = False  # the file is generated (upjet's zz_main.go from a template): its generator decides
    # the `client.CacheOptions{…}` literal the code assigns to the options' Client.Cache whole (percona's
    # `options.Client.Cache = ClientCacheOptions()`): DisableFor is edited there
    client_cache: tuple[GoFile, tree_sitter.Node] | None = None
    era: str = "current"  # the shapes of the options the controller-runtime of the literal's module has

    def replaces(self, path: str) -> bool:
        """Whether the code assigns the field at `path` (`Cache.ByObject`) whole, or one holding it."""
        parts = path.split(".")
        return any(".".join(parts[:end]) in self.overwritten for end in range(1, len(parts) + 1))


@dataclass(frozen=True, slots=True)
class KindType:
    """The Go type of a kind, as an import path and a type name."""

    package: str
    name: str


_ONE_LINE_WIDTH = 100  # columns (tabs of 4) beyond which a new literal is written one element per line


@dataclass(frozen=True, slots=True)
class Literal:
    """A composite literal to write: `head{items}tail`, on one line or one item per line as gofmt lays it out.
    Written across lines, a new element never needs aligning with its one-line neighbours (gofmt aligns
    only runs of one-line key/value elements)."""

    head: str
    items: tuple[Literal | str, ...]
    tail: str = ""

    def render(self, indent: str | None) -> str:
        """One line when `indent` is None, else across lines below a line indented by `indent`."""
        if indent is None:
            return f"{self.head}{{{', '.join(_render(item, None) for item in self.items)}}}{self.tail}"
        inner = indent + "\t"
        lines = "".join(f"{inner}{_render(item, self._layout(item, inner))},\n" for item in self.items)
        return f"{self.head}{{\n{lines}{indent}}}{self.tail}"

    def _layout(self, item: Literal | str, inner: str) -> str | None:
        """A lone, short innermost literal stays on one line: it has no neighbour to align with."""
        if not isinstance(item, Literal) or not all(isinstance(child, str) for child in item.items):
            return inner
        if len(self.items) > 1 or len(inner.expandtabs(4)) + len(item.render(None)) + 1 > _ONE_LINE_WIDTH:
            return inner
        return None


def _render(item: Literal | str, indent: str | None) -> str:
    return item if isinstance(item, str) else item.render(indent)


def disable_for_fix(anchor: OptionsAnchor, kind: KindType, policy: str) -> Fix | None:
    """Add the kind to Client.Cache.DisableFor (safe: reads return the same objects, live)."""
    if not anchor.has_disable_for:
        return None
    replaced = anchor.client_cache if not anchor.is_old_era and anchor.replaces("Client.Cache") else None
    file, literal = replaced or (anchor.file, anchor.literal)
    imports = _Imports(file, literal)
    client = imports.alias(CR_CLIENT, "client")
    obj = _object_literal(imports, kind)
    if anchor.is_old_era:
        edit = _add_to_list(file, literal, "ClientDisableCacheFor", obj, f"[]{client}.Object")
    elif replaced is not None:  # the CacheOptions the options' Client.Cache is replaced with
        edit = _add_to_list(file, literal, "DisableFor", obj, f"[]{client}.Object")
    else:
        edit = _disable_for_nested(anchor, client, obj)
    if edit is None:
        return None
    where = "ClientDisableCacheFor" if anchor.is_old_era else "Client.Cache.DisableFor"
    if replaced is not None:
        where = "the client.CacheOptions DisableFor"
    title = _noted(anchor, f"Add {obj} to {where} in {file.path}")
    # a regeneration would undo the edit of a generated file: it is the generator's input to change
    applicability = Applicability.UNSAFE if anchor.generated else Applicability.SAFE
    return Fix(title, applicability, (edit, *imports.edits()), code="WL002", policy=policy)


def own_client_disable_for_fix(file: GoFile, cache_options: tree_sitter.Node, kind: KindType) -> Fix | None:
    """Add the kind to the DisableFor of a client.New's own CacheOptions (safe, as for the manager's: its reads
    of the kind return the same objects, live)."""
    imports = _Imports(file, cache_options)
    client = imports.alias(CR_CLIENT, "client")
    obj = _object_literal(imports, kind)
    edit = _add_to_list(file, cache_options, "DisableFor", obj, f"[]{client}.Object")
    if edit is None:
        return None
    where = f"{file.path}:{file.span(cache_options).line}"
    title = f"Add {obj} to the DisableFor of the client options at {where}"
    return Fix(title, Applicability.SAFE, (edit, *imports.edits()), code="WL002")


def _object_literal(imports: _Imports, kind: KindType) -> str:
    """`&corev1.Secret{}`, under the alias the file has for the kind's package, or the one a fix adds."""
    return f"&{imports.alias(kind.package, _default_alias(kind.package))}.{kind.name}{{}}"


def _noted(anchor: OptionsAnchor, title: str) -> str:
    """A fix's title, saying where the options it edits are in a generated file that the edit is undone."""
    return title + _GENERATED_NOTE if anchor.generated else title


def _client_options(client: str, obj: str) -> Literal:
    """`Client: client.Options{Cache: &client.CacheOptions{DisableFor: []client.Object{obj}}}`."""
    return Literal(f"Client: {client}.Options", (_cache_options(client, obj),))


def _cache_options(client: str, obj: str) -> Literal:
    disable_for = Literal(f"DisableFor: []{client}.Object", (obj,))
    return Literal(f"Cache: &{client}.CacheOptions", (disable_for,))


def _disable_for_nested(anchor: OptionsAnchor, client: str, obj: str) -> Edit | None:
    file, options = anchor.file, anchor.literal
    if anchor.replaces("Client.Cache.DisableFor"):
        return None
    client_options = _field(options, "Client")
    if client_options is None:
        return _insert_element(file, options, _client_options(client, obj))
    if client_options.type == "identifier":  # `clientOpts := client.Options{…}`, then `Client: clientOpts`
        client_options = _held_literal(client_options)
    if client_options is None or client_options.type != "composite_literal":
        return None
    cache_value = _field(client_options, "Cache")
    if cache_value is None:
        return _insert_element(file, client_options, _cache_options(client, obj))
    literal = cache_value.child_by_field_name("operand") if cache_value.type == "unary_expression" else None
    if literal is None or literal.type != "composite_literal":
        return None
    return _add_to_list(file, literal, "DisableFor", obj, f"[]{client}.Object")


def by_object_fix(anchor: OptionsAnchor, kind: KindType, policy: str) -> Fix | None:
    """Cache only the objects the operator labels (unsafe: unlabelled objects become invisible); for `Owns`
    only, whose objects the operator creates and can label."""
    return _by_object_fix(anchor, kind, policy, keep_reads=False)


def by_object_keeping_reads_fix(anchor: OptionsAnchor, kind: KindType, policy: str) -> Fix | None:
    """`by_object_fix` for a kind the manager's client also reads: the kind goes to DisableFor as well, so those
    reads still find the objects the narrowed cache leaves out (a Secret the user names)."""
    return _by_object_fix(anchor, kind, policy, keep_reads=True)


def predicate_selector_fix(anchor: OptionsAnchor, kind: KindType, policy: str, selected: Labels) -> Fix | None:
    """Move the labels a `LabelSelectorPredicate` selects into the kind's cache selector (unsafe: every watch
    and cached read of the kind then sees only those objects). The predicate stays, now redundant: dropping
    it would leave its variable unused, which does not compile."""
    shown = ", ".join(f"{key}={value}" for key, value in selected)
    made = _labelled_entry(anchor, kind, selected, keep_reads=False)
    if made is None:
        return None
    edits, where, _ = made
    title = (
        f"Cache only {kind.name} objects labelled {shown}, as the predicate selects ({where} in "
        f"{anchor.file.path}); every watch and cached read of {kind.name} then sees only those"
    )
    return Fix(_noted(anchor, title), Applicability.UNSAFE, edits, code="WL003", policy=policy)


def _by_object_fix(anchor: OptionsAnchor, kind: KindType, policy: str, keep_reads: bool) -> Fix | None:
    built = anchor.built_labels.get((kind.package, kind.name))
    label = built or anchor.label
    if label is None:
        return None
    key, value = label
    made = _labelled_entry(anchor, kind, ((key, value),), keep_reads)
    if made is None:
        return None
    edits, where, reads = made
    if built is not None:
        title = (
            f"Cache only {kind.name} objects labelled {key}={value}, as every {kind.name} the operator builds is "
            f"({where} in {anchor.file.path}){reads}; others become invisible"
        )
    elif anchor.label_made_up:  # locust-k8s-operator builds its Jobs with no label at all
        title = (
            f"Cache only {kind.name} objects labelled {key}={value} ({where} in {anchor.file.path}){reads}; the "
            f"operator sets this label on nothing yet: label each {kind.name} it creates first, others become "
            "invisible"
        )
    else:
        title = (
            f"Cache only {kind.name} objects labelled {key}={value} ({where} in {anchor.file.path}){reads}; "
            "unlabelled ones become invisible, so label what the operator creates"
        )
    return Fix(_noted(anchor, title), Applicability.UNSAFE, edits, code="WL001", policy=policy)


def _labelled_entry(
    anchor: OptionsAnchor, kind: KindType, selected: Labels, keep_reads: bool
) -> tuple[tuple[Edit, ...], str, str] | None:
    """The edits giving the kind a ByObject label selector (and with `keep_reads` a DisableFor entry), with
    where they go and what the reads become; None where the options cannot take them."""
    imports = _Imports(anchor.file, anchor.literal)
    obj = _object_literal(imports, kind)
    labels = imports.alias(LABELS, "labels")
    cache = imports.alias(CR_CACHE, "cache")
    pairs = ", ".join(f"{_go_string(key)}: {_go_string(value)}" for key, value in selected)
    selector = f"{labels}.SelectorFromSet({labels}.Set{{{pairs}}})"
    entry = Literal(f"{obj}: ", (f"Label: {selector}",))
    reads = ""
    edits: tuple[Edit | None, ...]
    if anchor.is_old_era:
        disabled = (f"[]{imports.alias(CR_CLIENT, 'client')}.Object", obj) if keep_reads else None
        edits = _selectors_by_object(anchor, cache, entry, disabled)
        where = "NewCache SelectorsByObject"
        reads = f", and read {kind.name} through ClientDisableCacheFor" if keep_reads else ""
    else:
        client = imports.alias(CR_CLIENT, "client")
        edits = _by_object(anchor, client, cache, obj, entry, keep_reads)
        where = "Cache.ByObject"
        reads = f", and read {kind.name} through Client.Cache.DisableFor" if keep_reads else ""
    made = tuple(edit for edit in edits if edit is not None)
    if len(made) < len(edits):
        return None
    return (*made, *imports.edits()), where, reads


def _go_string(text: str) -> str:
    """A Go interpreted string literal of `text`."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _by_object(
    anchor: OptionsAnchor, client: str, cache: str, obj: str, entry: Literal, keep_reads: bool
) -> tuple[Edit | None, ...]:
    """The edit adding the ByObject `entry` for `obj`, and with `keep_reads` the one adding `obj` to
    DisableFor; where the options have neither Cache nor Client, one edit adds both (two insertions at one
    place would have no order)."""
    file, options = anchor.file, anchor.literal
    by_object = Literal(f"ByObject: map[{client}.Object]{cache}.ByObject", (entry,))
    cache_options = _field(options, "Cache")
    if anchor.replaces("Cache.ByObject") or _entry_written(file, obj):
        added: Edit | None = None  # a second entry for the kind: v0.15 fails to build the cache, later ones pick one
    elif cache_options is None:
        new_cache = Literal(f"Cache: {cache}.Options", (by_object,))
        if keep_reads and _field(options, "Client") is None and not anchor.replaces("Client.Cache.DisableFor"):
            return (_insert_element(file, options, new_cache, _client_options(client, obj)),)
        added = _insert_element(file, options, new_cache)
    elif cache_options.type != "composite_literal":
        added = None
    elif (existing := _field(cache_options, "ByObject")) is None:
        added = _insert_element(file, cache_options, by_object)
    elif existing.type != "composite_literal" or any(_same_text(key, obj) for key, _ in keyed_entries(existing)):
        added = None  # built elsewhere, or an entry for the kind already
    else:
        added = _insert_element(file, existing, entry)
    return (added, _disable_for_nested(anchor, client, obj)) if keep_reads else (added,)


def _selectors_by_object(
    anchor: OptionsAnchor, cache: str, entry: Literal, disabled: tuple[str, str] | None
) -> tuple[Edit | None, ...]:
    """Before v0.15: the edit adding the SelectorsByObject `entry` to the NewCache builder's options, and with
    `disabled` (the list's type and the object) the one adding the object to the manager's
    ClientDisableCacheFor; where the options have neither NewCache nor ClientDisableCacheFor, one edit adds
    both (two insertions at one place would have no order)."""
    file, options = anchor.file, anchor.literal
    if anchor.replaces("NewCache") or not anchor.has_selectors:
        return (None,)
    selectors = Literal(f"SelectorsByObject: {cache}.SelectorsByObject", (entry,))
    new_cache = _field(options, "NewCache")
    reads: tuple[Edit | None, ...] = ()
    if disabled is not None:
        list_type, obj = disabled
        if new_cache is None and _field(options, "ClientDisableCacheFor") is None:
            builder = Literal(f"NewCache: {cache}.BuilderWithOptions({cache}.Options", (selectors,), ")")
            listed = Literal(f"ClientDisableCacheFor: {list_type}", (obj,))
            return (_insert_element(file, options, builder, listed),)
        reads = (_add_to_list(file, options, "ClientDisableCacheFor", obj, list_type),)
    if new_cache is None:
        builder = Literal(f"NewCache: {cache}.BuilderWithOptions({cache}.Options", (selectors,), ")")
        return (_insert_element(file, options, builder), *reads)
    # only the options of `cache.BuilderWithOptions(cache.Options{…})`: MultiNamespacedCacheBuilder takes the
    # namespaces' []string
    function = new_cache.child_by_field_name("function") if new_cache.type == "call_expression" else None
    arguments = new_cache.child_by_field_name("arguments") if function is not None else None
    literal = parser.first_named(arguments)
    typed = literal.child_by_field_name("type") if literal is not None else None
    if (
        literal is None
        or literal.type != "composite_literal"
        or parser.text(function) != f"{cache}.BuilderWithOptions"
        or parser.text(typed) != f"{cache}.Options"
    ):
        return (None, *reads)
    existing = _field(literal, "SelectorsByObject")
    if existing is None:
        return (_insert_element(file, literal, selectors), *reads)
    return (_insert_element(file, existing, entry) if existing.type == "composite_literal" else None, *reads)


def only_metadata_fix(file: GoFile, call: tree_sitter.Node, kind: str) -> Fix | None:
    """Watch the kind metadata-only (unsafe: the reconciler must read it as PartialObjectMetadata)."""
    arguments = call.child_by_field_name("arguments")
    values = parser.named(arguments) if arguments else []
    if not values:
        return None
    imports = _Imports(file)
    builder = imports.alias(CR_BUILDER, "builder")
    function = innermost_function(call)
    if function is not None and builder in _declared_names(function):
        return None  # `func (r *R) Watch(builder *builder.Builder)`: the name is not the package there
    edit = Edit(file.source.span(values[-1].end_byte, values[-1].end_byte), f", {builder}.OnlyMetadata")
    title = f"Watch {kind} metadata only (builder.OnlyMetadata); read it as metav1.PartialObjectMetadata"
    return Fix(title, Applicability.UNSAFE, (edit, *imports.edits()), code="WL001")


_FUNCTION_NODES = ("function_declaration", "method_declaration", "func_literal")
_DECLARED_NAMES = """[
  (parameter_declaration name: (identifier) @name)
  (variadic_parameter_declaration name: (identifier) @name)
  (short_var_declaration left: (expression_list (identifier) @name))
  (var_spec name: (identifier) @name)
  (const_spec name: (identifier) @name)
  (range_clause left: (expression_list (identifier) @name))
]"""


def _declared_names(function: tree_sitter.Node) -> set[str]:
    """The names a function declares (its receiver, parameters and locals), which hide packages of that name."""
    return {parser.text(name) for name in parser.captures(_DECLARED_NAMES, function).get("name", [])}


def _names_visible_at(file: GoFile, node: tree_sitter.Node) -> frozenset[str]:
    """The names the function around `node` declares before it in a block holding it (its parameters, the
    locals in scope there), which hide packages of that name at `node`."""
    if node.id not in file.visible_names:
        file.visible_names[node.id] = frozenset(_declared_before(node))
    return file.visible_names[node.id]


def _declared_before(node: tree_sitter.Node) -> set[str]:
    function = innermost_function(node)
    if function is None:
        return set()
    visible = set()
    for name in parser.captures(_DECLARED_NAMES, function).get("name", []):
        scope = name.parent
        while scope is not None and scope.type not in ("block", *_FUNCTION_NODES):
            scope = scope.parent
        if name.start_byte < node.start_byte and scope is not None and parser.encloses(scope, node):
            visible.add(parser.text(name))
    return visible


def api_reader_fix(file: GoFile, operand: tree_sitter.Node, reader: str) -> Fix:
    """Read through the reconciler's API reader field (unsafe: reads are no longer served by the cache)."""
    text = parser.text(operand)
    base = text.rsplit(".", 1)[0] if operand.type == "selector_expression" else text
    edit = Edit(file.span(operand), f"{base}.{reader}")
    return Fix(f"Read through {base}.{reader} (mgr.GetAPIReader())", Applicability.UNSAFE, (edit,), code="WL002")


# -- literals -------------------------------------------------------------------------------------------
def _held_literal(name: tree_sitter.Node) -> tree_sitter.Node | None:
    """The composite literal a local is declared with (`clientOpts := client.Options{…}`) earlier in the function
    around `name`, where nothing else in the function assigns it, nor a field of it (an edit of the literal would
    otherwise not be what the options hold)."""
    function = innermost_function(name)
    if function is None:
        return None
    text = parser.text(name)
    held = None
    for statement in parser.captures("[(short_var_declaration) (assignment_statement)] @s", function).get("s", []):
        left = statement.child_by_field_name("left")
        targets = parser.named(left) if left is not None else []
        if not any((root := selector_root(target)) is not None and parser.text(root) == text for target in targets):
            continue
        right = parser.named(statement.child_by_field_name("right") or statement)
        if held is not None or statement.type != "short_var_declaration" or len(targets) != 1 or len(right) != 1:
            return None
        if statement.end_byte > name.start_byte or right[0].type != "composite_literal":
            return None
        held = right[0]
    return held


def _field(literal: tree_sitter.Node, name: str) -> tree_sitter.Node | None:
    return next((value for key, value in keyed_elements(literal) if key == name), None)


def _add_to_list(file: GoFile, literal: tree_sitter.Node, field: str, item: str, list_type: str) -> Edit | None:
    """Append to `field: []T{…}` in a literal, or add the field when the literal has none."""
    existing = _field(literal, field)
    if existing is None:
        return _insert_element(file, literal, Literal(f"{field}: {list_type}", (item,)))
    is_append = existing.type == "call_expression" and parser.text(existing.child_by_field_name("function")) == "append"
    if existing.type in ("identifier", "selector_expression") or (existing.type == "call_expression" and not is_append):
        # a list built elsewhere (`DisableFor: disableCacheFor`, filled under a feature gate, or returned by a
        # helper other binaries share): extend it here
        return Edit(file.span(existing), f"append({parser.text(existing)}, {item})")
    if is_append:
        arguments = existing.child_by_field_name("arguments")
        items = parser.named(arguments) if arguments is not None else []
        if not items or any(_same_text(element, item) for element in items[1:]):
            return None
        return Edit(file.source.span(items[-1].end_byte, items[-1].end_byte), f", {item}")
    if existing.type != "composite_literal":
        return None
    if any(_same_text(element, item) for element in parser.named(existing.child_by_field_name("body") or existing)):
        return None  # listed already: another manager's options are the ones to edit
    return _insert_element(file, existing, item)


def _entry_written(file: GoFile, obj: str) -> bool:
    """Whether the file writes a ByObject entry for the object in a statement of its own
    (`opts.Cache.ByObject[new(corev1.Secret)] = …`)."""
    for _, _, targets, _ in file.assignments():
        for target in targets:
            held = target.child_by_field_name("operand") if target.type == "index_expression" else None
            index = target.child_by_field_name("index") if held is not None else None
            if index is not None and parser.text(held).endswith("ByObject") and _same_text(index, obj):
                return True
    return False


def _same_text(node: tree_sitter.Node, text: str) -> bool:
    """Whether a node's source is `text` but for whitespace (a literal element wraps its expression), an object
    written `new(corev1.Secret)` being `&corev1.Secret{}`."""
    return _object_spelling(parser.text(node)) == _object_spelling(text)


def _object_spelling(text: str) -> str:
    """`&T{}` for `new(T)` (and `&(T{})`), without whitespace; other text without whitespace."""
    compact = "".join(text.split())
    if compact.startswith("new(") and compact.endswith(")"):
        return f"&{compact[4:-1]}{{}}"
    if compact.startswith("&(") and compact.endswith("{})"):
        return f"&{compact[2:-1]}"
    return compact


def _insert_element(file: GoFile, literal: tree_sitter.Node, *entries: Literal | str) -> Edit:
    """Insert elements before the closing brace: in a one-line literal on that line, in a multi-line
    literal each on its own line (a new literal laid out across lines, so gofmt has nothing to re-align)."""
    body = literal.child_by_field_name("body") if literal.type == "composite_literal" else literal
    assert body is not None
    close = body.children[-1]
    elements = parser.named(body)
    data = file.source.data
    if close.start_point.row == body.start_point.row:  # `{a, b}` or `{}`
        text = ", ".join(_render(entry, None) for entry in entries)
        if not elements:
            return Edit(file.source.span(close.start_byte, close.start_byte), text)
        between = data[elements[-1].end_byte : close.start_byte]
        return Edit(file.source.span(close.start_byte, close.start_byte), (" " if b"," in between else ", ") + text)
    line_start = file.source.line_starts[close.start_point.row]
    if data[line_start : close.start_byte].strip():  # `…, last}` closing on the last element's line
        between = data[elements[-1].end_byte : close.start_byte] if elements else b""
        return Edit(
            file.source.span(close.start_byte, close.start_byte),
            ("" if b"," in between else ",") + "".join(f" {_render(entry, None)}," for entry in entries)[:-1],
        )
    indent = _indent_of(file, elements[-1]) if elements else _indent_of(file, close) + "\t"
    lines = "".join(f"{indent}{_render(entry, indent)},\n" for entry in entries)
    return Edit(file.source.span(line_start, line_start), lines)


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
    """The aliases a fix may use in one file, and the import specs it must add; where the edit goes inside a
    function (`within`), not a name it declares (koordinator's `client, eventClient, err := createClients(…)`
    beside the manager options hides the client package: the package is imported again as `clientx`)."""

    def __init__(self, file: GoFile, within: tree_sitter.Node | None = None) -> None:
        self.file = file
        self.by_path = {path: alias for alias, path in file.imports.items()}
        self.missing: dict[str, str] = {}
        self.shadowed = _names_visible_at(file, within) if within is not None else frozenset()

    def alias(self, path: str, preferred: str) -> str:
        if path in self.by_path and self.by_path[path] not in self.shadowed:
            return self.by_path[path]
        if path not in self.missing:
            taken = set(self.file.imports) | set(self.missing.values()) | self.shadowed
            alias = preferred
            while alias in taken:
                alias += "x"
            self.missing[path] = alias
        return self.missing[path]

    def edits(self) -> tuple[Edit, ...]:
        """The import edits, merged per insertion point so each place gets one edit in gofmt order."""
        if not self.missing:
            return ()
        specs = self.file.nodes("import_spec")
        listed = [spec for spec in specs if spec.parent is not None and spec.parent.type == "import_spec_list"]
        if not listed:
            return (self._new_block(specs),)
        by_offset: dict[tuple[int, bool], list[str]] = {}
        for path, alias in sorted(self.missing.items()):
            # kept on the file: each site's fix of one options literal imports the same packages there
            if (path, alias) not in self.file.import_insertions:
                self.file.import_insertions[path, alias] = self._insertion(listed, path, alias)
            offset, text, opens_group = self.file.import_insertions[path, alias]
            by_offset.setdefault((offset, opens_group), []).append(text)
        edits = []
        for (offset, opens_group), texts in sorted(by_offset.items()):
            if offset in self.file.source.line_starts:
                joined = "".join(f"{text}\n" for text in texts)
            else:
                joined = ("\n" if opens_group else "") + "".join(f"\n{text}" for text in texts)
            edits.append(Edit(self.file.source.span(offset, offset), joined))
        return tuple(edits)

    def _spec_text(self, path: str, alias: str) -> str:
        name = "" if alias == path.rsplit("/", 1)[-1] else f"{alias} "
        return f'{name}"{path}"'

    def _insertion(self, specs: list[tree_sitter.Node], path: str, alias: str) -> tuple[int, str, bool]:
        """Where and what to insert so the new spec sorts within the group of the closest paths (gofmt);
        a path with no group of its kind (standard library or not) opens a new group at the end."""
        group = _closest_group(self.file, specs, path)
        if group is None:
            last = specs[-1]
            return _line_end(last), _indent_of(self.file, last) + self._spec_text(path, alias), True
        following = next((spec for spec in group if _spec_path(spec) > path), None)
        anchor = following if following is not None else group[-1]
        text = _indent_of(self.file, anchor) + self._spec_text(path, alias)
        if following is not None:
            return self.file.source.line_starts[_commented_from(following).start_point.row], text, False
        return _line_end(anchor), text, False

    def _new_block(self, specs: list[tree_sitter.Node]) -> Edit:
        """Turn `import x "p"` (or no import at all) into an import block holding the new specs; of several such
        declarations the first, the others kept as they are (a spec written twice would not compile)."""
        declarations = [spec.parent for spec in specs if spec.parent is not None]
        kept = [spec for spec in specs if declarations and spec.parent == declarations[0]]
        existing = [(_spec_path(spec), parser.text(spec)) for spec in kept]
        added = [(path, self._spec_text(path, alias)) for path, alias in self.missing.items()]
        body = "".join(f"\t{text}\n" for _, text in sorted(existing + added))
        block = f"import (\n{body})"
        root = self.file.tree.root_node
        if declarations:
            declaration = declarations[0]
            return Edit(self.file.span(declaration), block)
        clause = next(child for child in root.named_children if child.type == "package_clause")
        return Edit(self.file.source.span(clause.end_byte, clause.end_byte), f"\n\n{block}")


def _commented_from(spec: tree_sitter.Node) -> tree_sitter.Node:
    """The first of the comment lines right above an import spec, which document it (`// Import all auth
    plugins` above `_ "k8s.io/client-go/plugin/pkg/client/auth"`), or the spec: a spec inserted before it goes
    above them."""
    first = spec
    above = spec.prev_sibling
    while above is not None and above.type == "comment" and above.end_point.row == first.start_point.row - 1:
        before = above.prev_sibling
        if before is not None and before.end_point.row == above.start_point.row:
            break  # the trailing comment of the spec above (`ctrl "sigs.k8s.io/controller-runtime" // manager`)
        first, above = above, before
    return first


def _line_end(spec: tree_sitter.Node) -> int:
    """Where the line of an import spec ends: past its trailing comment, which stays with it."""
    end, after = spec.end_byte, spec.next_sibling
    while after is not None and after.type == "comment" and after.start_point.row == spec.end_point.row:
        end, after = after.end_byte, after.next_sibling  # `ctrl "…" /* a */ // b`
    return end


def _spec_path(spec: tree_sitter.Node) -> str:
    return parser.text(spec.child_by_field_name("path")).strip('"`')


def _closest_group(file: GoFile, specs: list[tree_sitter.Node], path: str) -> list[tree_sitter.Node] | None:
    """Import specs split at blank lines (gofmt sorts each group); among the groups of the same kind as
    `path` (standard library or not), the one sharing most of it; None when there is no such group."""
    groups: list[list[tree_sitter.Node]] = [[specs[0]]]
    for spec in specs[1:]:
        if spec.start_point.row > groups[-1][-1].end_point.row + 1 or spec.parent != groups[-1][-1].parent:
            groups.append([spec])
        else:
            groups[-1].append(spec)

    def shared(group: list[tree_sitter.Node]) -> int:
        return max(len(_common_prefix(_spec_path(spec), path)) for spec in group)

    same_kind = [group for group in groups if _is_standard(_spec_path(group[0])) == _is_standard(path)]
    return max(same_kind, key=shared) if same_kind else None


def _is_standard(path: str) -> bool:
    """Standard-library paths have no dot in their first element (`net/http`, not `k8s.io/api`)."""
    return "." not in path.split("/", 1)[0]


def _common_prefix(left: str, right: str) -> str:
    size = 0
    for a, b in zip(left, right, strict=False):
        if a != b:
            break
        size += 1
    return left[:size]
