"""The label an operator marks the objects it creates with, for the label selector a fix proposes: the
standard "who made this" key and the value the code sets it to (volsync's `AddLabel(obj,
OwnedByLabelKey, OwnedByLabelValue)` with `app.kubernetes.io/created-by=volsync`)."""

from __future__ import annotations

import bisect
import itertools
from collections import Counter
from collections.abc import Iterator

import tree_sitter

from watchlint.go import parser
from watchlint.go.declarations import resolve_type
from watchlint.go.model import GoFile, call_parts
from watchlint.go.resolve import Resolver, assigned_to, key_of, keyed_entries
from watchlint.go.scope import innermost_function, returned_values

MANAGED_BY = "app.kubernetes.io/managed-by"
OWNER_KEYS = (MANAGED_BY, "app.kubernetes.io/created-by")
_OWNER_KEY_ENDS = tuple(key.rpartition("/")[2] for key in OWNER_KEYS)  # in the source even when built by `+`
_OWNER_WORDS = ("ManagedBy", "CreatedBy")
_NAMES = ("identifier", "selector_expression", "interpreted_string_literal", "raw_string_literal")
_LABEL_HOPS = 3  # locals and functions followed to the map literal of an object's labels


# per file and needles, what `_written_pairs` found
WrittenPairs = dict[tuple[str, frozenset[bytes]], "list[tree_sitter.Node | tuple[tree_sitter.Node, tree_sitter.Node]]"]


def owner_label(
    files: list[GoFile], resolver: Resolver, operator: str, known: WrittenPairs | None = None
) -> tuple[str, str] | None:
    """The owner key and value the module's code sets most often, else `managed-by=<operator>`; None when the
    code sets an owner key only to values that vary (logging-operator's `managed-by` is the name of the
    resource the objects belong to): a value made up for the selector would match none of them. `known` keeps
    what each file writes, for a caller asking of several sets of files (one per binary) that share most of
    them."""
    keys = _key_names(files, resolver)
    found: Counter[tuple[str, str]] = Counter()
    varying = 0
    selects = _Selections(files)
    # a pair counts only where the file names an owner key or a constant holding one: the other files (most of
    # them) are not walked
    markers = {*_OWNER_KEY_ENDS, *_OWNER_WORDS, *(name for name in keys if not name.startswith('"'))}
    needles = frozenset(marker.encode() for marker in markers)
    known = {} if known is None else known
    for file in files:
        if file.is_test or not any(needle in file.source.data for needle in needles):
            continue
        if (file.path, needles) not in known:
            known[file.path, needles] = list(_written_pairs(file, needles))
        for key, value in _pairs(known[file.path, needles], selects):
            if _key_text(key) not in keys:
                # another module's constant may name an owner key: a value that varies rules out a made-up one
                varying += _imported_owner_key(file, key) and resolver.string_value(file, value) is None
                continue
            named, given = resolver.string_value(file, key), resolver.string_value(file, value)
            if named in OWNER_KEYS and given:
                found[(named, given)] += 1
            elif named in OWNER_KEYS:
                varying += 1
    if found:
        # a tie goes to the operator's own name (percona's base labels, beside the cert-manager value it gives
        # the certificates it relabels)
        most = max(found.values())
        tied = [pair for pair, count in found.items() if count == most]
        return next((pair for pair in tied if pair[1] == operator), tied[0])
    return None if varying else (MANAGED_BY, operator)


def _key_text(key: tree_sitter.Node) -> str:
    """A key as `_key_names` holds it: a quoted string whole, a constant by its name (`labels.ManagedBy`)."""
    text = parser.text(key)
    return text if key.type in ("interpreted_string_literal", "raw_string_literal") else text.rsplit(".", 1)[-1]


def _imported_owner_key(file: GoFile, key: tree_sitter.Node) -> bool:
    """An owner key named by another module's constant (`types.ManagedByLabel` of operator-tools), whose
    text watchlint cannot read."""
    if key.type != "selector_expression":
        return False
    operand, name = key.child_by_field_name("operand"), parser.text(key.child_by_field_name("field"))
    return parser.text(operand) in file.imports and any(word in name for word in _OWNER_WORDS)


def _key_names(files: list[GoFile], resolver: Resolver) -> frozenset[str]:
    """The texts that may name an owner key: the keys themselves, quoted, and the constants set to them."""
    names = {f'"{key}"' for key in OWNER_KEYS}
    for (_, name), variable in resolver.declarations.variables.items():
        value = variable.value_node
        if value is None or value.type not in ("interpreted_string_literal", "binary_expression"):
            continue
        if resolver.string_value(variable.file, value) in OWNER_KEYS:  # also `labelPrefix + "managed-by"`
            names.add(name)
    present = any(key.encode() in file.source.data for file in files for key in _OWNER_KEY_ENDS)
    return frozenset(names) if present else frozenset()


def _pairs(
    written: list[tree_sitter.Node | tuple[tree_sitter.Node, tree_sitter.Node]], selects: _Selections
) -> Iterator[tuple[tree_sitter.Node, tree_sitter.Node]]:
    """The pairs of `_written_pairs`, with the entries of each map literal that does not only select objects."""
    for item in written:
        if isinstance(item, tuple):
            yield item
        elif not selects.only_selects(item):
            yield from keyed_entries(item)


def _written_pairs(
    file: GoFile, needles: frozenset[bytes]
) -> Iterator[tree_sitter.Node | tuple[tree_sitter.Node, tree_sitter.Node]]:
    """Key and value written side by side: map entries, `m[k] = v`, and adjacent call arguments; a map literal
    comes whole, as its entries count only where it does not only select objects (`_Selections`, which depends
    on the files asked of), which may be another operator's (the labels a database operator gives its pods,
    that mattermost-operator lists them by). Not annotations, which no selector sees (spin-operator annotates
    its Secrets `app.kubernetes.io/managed-by` and labels them otherwise). Literals, assignments and calls
    whose text holds none of `needles` are passed over: no key of theirs can name an owner key."""
    may_name = _NeedleIndex(file.source.data, needles).within
    for literal in file.nodes("composite_literal"):
        kind = literal.child_by_field_name("type")
        if kind is not None and kind.type == "map_type" and may_name(literal) and not _annotates(literal):
            yield literal
    for left, _, targets, values in file.assignments():
        if not may_name(left):
            continue
        target, value = targets[0], values[0]
        index = target.child_by_field_name("index") if target.type == "index_expression" else None
        operand = target.child_by_field_name("operand") if index is not None else None
        if index is not None and not _names_annotations(operand):
            yield index, value
    for call in file.calls():
        arguments = parser.named(call.arguments) if call.arguments is not None and may_name(call.arguments) else []
        for key, value in itertools.pairwise(arguments):
            if key.type in _NAMES:
                yield key, value


class _NeedleIndex:
    """Where a file's text holds any of some needles, found once: whether a node's text holds one is then a
    search among their offsets (a file has thousands of calls, and a search of each one's text for each needle
    was a fortieth of a Go module's time)."""

    def __init__(self, data: bytes, needles: frozenset[bytes]) -> None:
        found: list[tuple[int, int]] = []  # (start, end) of every occurrence, overlapping ones too
        for needle in needles:
            start = data.find(needle)
            while start >= 0:
                found.append((start, start + len(needle)))
                start = data.find(needle, start + 1)
        found.sort()
        self._starts = [start for start, _ in found]
        # the earliest end among the occurrences from each one on: one starting in a node may end past it
        # while a later, shorter one ends inside it
        self._first_end = list(itertools.accumulate(reversed([end for _, end in found]), min))[::-1]

    def within(self, node: tree_sitter.Node) -> bool:
        """Whether a needle lies wholly inside the node's text."""
        at = bisect.bisect_left(self._starts, node.start_byte)
        return at < len(self._starts) and self._first_end[at] <= node.end_byte


# where a map of labels selects objects rather than labels them
_SELECTING_CALLS = frozenset(
    {"MatchingLabels", "SelectorFromSet", "SelectorFromValidatedSet", "MatchingLabelsSelector"}
)
_SELECTING_FIELDS = frozenset({"MatchLabels"})
_ANNOTATING = frozenset({"Annotations"})


class _Selections:
    """Whether a map literal only ever selects objects: handed to a selector (`client.MatchingLabels(m)`,
    `MatchLabels: m`), or returned by a function whose every call is (or that nothing calls)."""

    def __init__(self, files: list[GoFile]) -> None:
        self._files = files
        self._calls: dict[str, list[tree_sitter.Node]] | None = None  # production calls by function name

    def only_selects(self, literal: tree_sitter.Node) -> bool:
        if _selects(literal):
            return True
        returned = literal.parent
        if returned is not None and returned.type == "expression_list":
            returned = returned.parent
        if returned is None or returned.type != "return_statement":
            return False
        function = innermost_function(returned)
        if function is None or function.type == "func_literal":
            return False
        name = function.child_by_field_name("name")
        return name is not None and all(_selects(call) for call in self._named(parser.text(name)))

    def _named(self, name: str) -> list[tree_sitter.Node]:
        if self._calls is None:
            self._calls = {}
            for file in self._files:
                if not file.is_test:
                    for call in file.calls():
                        self._calls.setdefault(call.name, []).append(call.node)
        return self._calls.get(name, [])


def _annotates(value: tree_sitter.Node) -> bool:
    """Whether a map is written as annotations: an `Annotations` field's value, `x.Annotations = m`, or the
    argument of `SetAnnotations(m)`."""
    holder = value.parent
    if holder is not None and holder.type == "literal_element":
        return key_of(value) in _ANNOTATING
    if holder is not None and holder.type == "expression_list" and holder.parent is not None:
        statement = holder.parent
        left = statement.child_by_field_name("left") if statement.type == "assignment_statement" else None
        return left is not None and any(_names_annotations(target) for target in parser.named(left))
    if holder is None or holder.type != "argument_list" or holder.parent is None:
        return False
    called = call_parts(holder.parent)
    return called is not None and called.name == "SetAnnotations"


def _names_annotations(target: tree_sitter.Node | None) -> bool:
    """`obj.Annotations`, `obj.ObjectMeta.Annotations`: a field holding annotations."""
    if target is None or target.type != "selector_expression":
        return False
    return parser.text(target.child_by_field_name("field")) in _ANNOTATING


def _selects(value: tree_sitter.Node) -> bool:
    """Whether a value is handed straight to a selector: a selecting call's argument or a MatchLabels field."""
    holder = value.parent
    if holder is not None and holder.type == "literal_element":
        return key_of(value) in _SELECTING_FIELDS
    if holder is None or holder.type != "argument_list" or holder.parent is None:
        return False
    called = call_parts(holder.parent)
    return called is not None and called.name in _SELECTING_CALLS


def sets_an_owner_key(files: list[GoFile], resolver: Resolver) -> bool:
    """Whether the code names a standard owner key at all, whole or by a constant holding it (percona's
    `labelKubernetesPrefix + "managed-by"`): where it does not, `owner_label`'s label is made up."""
    if any(key.encode() in file.source.data for file in files for key in OWNER_KEYS):
        return True
    constants = [name.encode() for name in _key_names(files, resolver) if not name.startswith('"')]
    return any(name in file.source.data for file in files for name in constants)


# per API type (import path, name), the labels one file's object literals of it all carry; None where one of
# them carries labels not all seen
FileLabels = dict[tuple[str, str], "set[tuple[str, str]] | None"]


def built_labels(
    files: list[GoFile], resolver: Resolver, known: dict[str, FileLabels] | None = None
) -> dict[tuple[str, str], frozenset[tuple[str, str]]]:
    """Per API type (import path, name), the labels every object of it the code builds with metadata carries
    (harbor-operator's init Job literal `Labels: {"job-type": "minio-init"}`): a selector of the operator's own
    to propose where it sets no owner label, or none on that kind. A type with one such literal whose labels
    are not all seen is left out; `&batchv1.Job{}` without metadata builds no object (a watch's or a read's
    target). `known` keeps each file's part by path, for a caller asking of several sets of files (one per
    binary) that share most of them."""
    known = {} if known is None else known
    common: dict[tuple[str, str], set[tuple[str, str]] | None] = {}
    for file in files:
        if file.path not in known:
            known[file.path] = _file_built_labels(file, resolver)
        for key, labels in known[file.path].items():
            seen = common.get(key, labels)
            common[key] = None if seen is None or labels is None else seen & labels
    return {key: frozenset(pairs) for key, pairs in common.items() if pairs is not None}


def _file_built_labels(file: GoFile, resolver: Resolver) -> FileLabels:
    common: FileLabels = {}
    data = file.source.data
    if file.is_test or b"Labels" not in data:
        return common
    for literal in file.nodes("composite_literal"):
        if data.find(b"ObjectMeta", literal.start_byte, literal.end_byte) < 0:
            continue  # most literals: their entries are not taken apart
        meta = next((value for key, value in keyed_entries(literal) if parser.text(key) == "ObjectMeta"), None)
        built = resolve_type(literal.child_by_field_name("type"), file) if meta is not None else None
        if meta is None or built is None:
            continue
        labels = None if _relabelled(literal) else _literal_labels(file, meta, resolver)
        key = (built.package, built.name)
        seen = common.get(key, labels)
        common[key] = None if seen is None or labels is None else seen & labels
    return common


def _relabelled(literal: tree_sitter.Node) -> bool:
    """Whether the object a literal builds may have its labels replaced after it, in the function: its variable's
    Labels written or set, or its metadata handed to a call (argo-rollouts-manager's
    `setRolloutsLabelsAndAnnotations(&cm.ObjectMeta, cr)`, which replaces the map the literal wrote)."""
    held = literal.parent if literal.parent is not None and literal.parent.type == "unary_expression" else literal
    variable = assigned_to(held)
    function = innermost_function(literal)
    if variable is None or variable.type != "identifier" or function is None:
        return False
    name = parser.text(variable)
    for use in parser.identifiers_named(function, name, after=literal.end_byte):
        outer = use.parent
        if use.start_byte < literal.end_byte or outer is None:
            continue
        if outer.type != "selector_expression" or outer.child_by_field_name("operand") != use:
            continue
        field = parser.text(outer.child_by_field_name("field"))
        if field in ("Labels", "SetLabels"):
            return True
        around = (
            outer.parent.parent
            if outer.parent is not None and outer.parent.type == "unary_expression"
            else outer.parent
        )
        if field == "ObjectMeta" and around is not None and around.type == "argument_list":
            return True
        if field == "ObjectMeta" and around is not None and around.type == "selector_expression":
            return parser.text(around.child_by_field_name("field")) in ("Labels", "SetLabels")
    return False


def _literal_labels(file: GoFile, meta: tree_sitter.Node, resolver: Resolver) -> set[tuple[str, str]] | None:
    """The labels an `ObjectMeta{Labels: map[string]string{…}}` literal sets, of those whose key and value are
    told (`"registry": req.Name` varies by object); None for labels that are not a map literal."""
    if meta.type != "composite_literal":
        return None
    labels = next((value for key, value in keyed_entries(meta) if parser.text(key) == "Labels"), None)
    held = _held_labels(file, labels, resolver) if labels is not None else None
    if held is None:
        return None
    file, labels = held
    found = set()
    for key, value in keyed_entries(labels):
        named, given = resolver.string_value(file, key), resolver.string_value(file, value)
        if named is not None and given is not None:
            found.add((named, given))
    return found


def _held_labels(
    file: GoFile, labels: tree_sitter.Node, resolver: Resolver, hops: int = 0
) -> tuple[GoFile, tree_sitter.Node] | None:
    """The map literal a Labels value is: written there, held in a local (`labels := BootstrapLabels(node)`), or
    the one literal a module function returns (sei-k8s-controller's `return map[string]string{…}`)."""
    if labels.type == "composite_literal":
        return file, labels
    if hops >= _LABEL_HOPS:
        return None
    if labels.type == "identifier":
        declaration = resolver.declaration(file, labels)
        value = declaration.value_node if declaration is not None and declaration.value_index == 0 else None
        return _held_labels(file, value, resolver, hops + 1) if value is not None else None
    info = resolver.callee(file, labels) if labels.type == "call_expression" else None
    returned = returned_values(info.node) if info is not None else []
    if info is None or len(returned) != 1:
        return None
    return _held_labels(info.file, returned[0], resolver, hops + 1)
