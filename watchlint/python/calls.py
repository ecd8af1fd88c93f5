"""Call arguments and the restrictions they carry (namespace, selectors), shared by the client extractors."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import libcst

from watchlint.facts import Access, Evidence, Mitigation, ObjectForm, Operation, Restriction, Site
from watchlint.python.flow import Flow
from watchlint.python.names import is_empty_literal
from watchlint.python.parser import ParsedFile


def keyword(call: libcst.Call, name: str) -> libcst.Arg | None:
    return next((arg for arg in call.args if arg.keyword is not None and arg.keyword.value == name), None)


def positional(call: libcst.Call) -> list[libcst.Arg]:
    """The positional arguments, up to the first `*args` (whose length is unknown)."""
    result = []
    for arg in call.args:
        if arg.keyword is not None or arg.star:
            break
        result.append(arg)
    return result


def argument(call: libcst.Call, name: str, position: int | None = None) -> libcst.Arg | None:
    """An argument given by keyword, or at a position of the callee's signature."""
    found = keyword(call, name)
    if found is None and position is not None:
        given = positional(call)
        found = given[position] if position < len(given) else None
    return found


def has_star_kwargs(call: libcst.Call) -> bool:
    return any(arg.star == "**" for arg in call.args)


def method_name(call: libcst.Call) -> libcst.Name | None:
    """The name token of the callee: `stream` in `w.stream(…)`, `SharedInformer` in `SharedInformer(…)`."""
    if isinstance(call.func, libcst.Attribute):
        return call.func.attr
    if isinstance(call.func, libcst.Name):
        return call.func
    return None


@dataclass(frozen=True, slots=True)
class Narrowing:
    """How a call's arguments narrow what it reads: the names of its namespace and selector parameters."""

    selectors: Sequence[tuple[str, int | None]]  # (keyword, position) of label and field selectors
    namespace: tuple[str, int | None] | None = None  # None: the call has no namespace parameter


KUBERNETES_SELECTORS = (("label_selector", None), ("field_selector", None))


def restrictions(file: ParsedFile, call: libcst.Call, kind: str, narrowing: Narrowing) -> list[Restriction]:
    """The selectors and namespace a call passes; `**kwargs` may carry them, which counts (SPEC §1)."""
    found = []
    for name, position in narrowing.selectors:
        arg = argument(call, name, position)
        if arg is not None and not is_empty_literal(arg.value):
            found.append(Restriction(Mitigation.SELECTOR, kind, file.span(arg), f"`{file.code(arg)}`"))
    if narrowing.namespace is not None:
        name, position = narrowing.namespace
        arg = argument(call, name, position)
        if arg is not None and not is_empty_literal(arg.value):
            found.append(Restriction(Mitigation.NAMESPACE, kind, file.span(arg), f"`{file.code(arg)}`"))
    if not found and has_star_kwargs(call):
        star = next(arg for arg in call.args if arg.star == "**")
        text = f"`{file.code(star)}` may pass a selector or namespace"
        found.append(Restriction(Mitigation.UNRESOLVED, kind, file.span(star), text))
    return found


def client_site(
    file: ParsedFile,
    flow: Flow,
    call: libcst.Call,
    operation: Operation,
    kind: str,
    site_restrictions: Sequence[Restriction] = (),
    filters: Sequence[Evidence] = (),
) -> Site:
    """A direct API client call: no cache, one request or stream per call (SPEC §1)."""
    name = method_name(call)
    return Site(
        operation=operation,
        access=Access.DIRECT_CLIENT,
        kind=kind,
        form=ObjectForm.TYPED,
        span=file.span(name if name is not None else call),
        call=file.code(call.func),
        construct=file.code(call),
        enclosing=flow.enclosing_name(call),
        restrictions=tuple(site_restrictions),
        filters=tuple(filters),
    )
