"""The labels a `predicate.LabelSelectorPredicate(sel)` selects, where they are written out: the WL003 fix moves
them into a cache selector (SPEC §4), which filters what the informer holds instead of the events it hands on."""

from __future__ import annotations

import tree_sitter

from watchlint.go import parser
from watchlint.go.guards import returned_on_success
from watchlint.go.model import CR_PREDICATE, GoFile, call_parts
from watchlint.go.resolve import Resolver, keyed_elements, keyed_entries
from watchlint.go.values import ValueTracer

_MAX_HOPS = 2  # locals between a predicate and its construction, and between the selector and its literal

Labels = tuple[tuple[str, str], ...]


class PredicateSelectors:
    """Reads the label selector of the predicates a watch is given."""

    def __init__(self, resolver: Resolver, values: ValueTracer) -> None:
        self.resolver = resolver
        self.values = values

    def selected(self, file: GoFile, predicates: list[tree_sitter.Node]) -> Labels | None:
        """The labels of the one `LabelSelectorPredicate` among a watch's predicates (`builder.WithPredicates(
        p)` with `p, err := predicate.LabelSelectorPredicate(sel)`), where `sel` matches labels written as
        strings (`metav1.LabelSelector{MatchLabels: map[string]string{…}}`, `*metav1.SetAsLabelSelector(
        labels.Set{…})`); None otherwise: expressions, or other predicates beside it, have no cache form here."""
        if len(predicates) != 1:
            return None
        file, built = self._built(file, predicates[0])
        called = call_parts(built) if built is not None and built.type == "call_expression" else None
        if (
            called is None
            or called.name != "LabelSelectorPredicate"
            or file.imports.get(called.operand_text) != CR_PREDICATE
        ):
            return None
        arguments = parser.named(called.arguments) if called.arguments is not None else []
        return self._labels(file, arguments[0]) if len(arguments) == 1 else None

    def _built(self, file: GoFile, predicate: tree_sitter.Node) -> tuple[GoFile, tree_sitter.Node | None]:
        """What builds a predicate, through locals and the module functions that return it (`pred :=
        partitionControllerPredicate()` returning the `LabelSelectorPredicate` it builds, as moco does), with
        the file it is written in."""
        built = self.values.defined_as(file, predicate, _MAX_HOPS)
        for _ in range(_MAX_HOPS):
            info = self.resolver.callee(file, built) if built is not None and built.type == "call_expression" else None
            returned = returned_on_success(info.node) if info is not None else []
            if info is None or len({parser.text(value) for value in returned}) != 1:
                break
            file, built = info.file, self.values.defined_as(info.file, returned[0], _MAX_HOPS)
        return file, built

    def _labels(self, file: GoFile, selector: tree_sitter.Node) -> Labels | None:
        if selector.type == "unary_expression":  # `*metav1.SetAsLabelSelector(labels.Set{…})`, `*sel`
            selector = selector.child_by_field_name("operand") or selector
        value = self.values.defined_as(file, selector, _MAX_HOPS, through_address=True)
        if value is None:
            return None
        if value.type == "call_expression":
            function = value.child_by_field_name("function")
            arguments = parser.named(value.child_by_field_name("arguments") or value)
            if function is None or not parser.text(function).endswith("SetAsLabelSelector") or len(arguments) != 1:
                return None
            return self._pairs(file, self.values.defined_as(file, arguments[0], _MAX_HOPS))
        if value.type != "composite_literal":
            return None
        fields = dict(keyed_elements(value))
        if set(fields) != {"MatchLabels"}:
            return None  # MatchExpressions have no labels.Set form
        return self._pairs(file, self.values.defined_as(file, fields["MatchLabels"], _MAX_HOPS))

    def _pairs(self, file: GoFile, literal: tree_sitter.Node | None) -> Labels | None:
        """The key/value strings of a map literal (`map[string]string{…}`, `labels.Set{…}`)."""
        if literal is None or literal.type != "composite_literal":
            return None
        pairs = []
        for key, value in keyed_entries(literal):
            key_text = self.resolver.string_value(file, key)
            value_text = self.resolver.string_value(file, value)
            if key_text is None or value_text is None:
                return None
            pairs.append((key_text, value_text))
        return tuple(pairs) or None
