"""Which fixes and suggestions each Python site is offered (SPEC §4).

kubernetes client lists and streams across all namespaces switch to the namespaced list when a namespace is
in scope (unsafe: other namespaces are no longer seen); a placeholder selector is never an edit, so a loop
that filters on a label gets the exact `label_selector=` as a suggestion. kopf handlers get the exact
`namespaces=[…]` change of the operator's `kopf.run`/`kopf.operator` call, or the `kopf run -n` one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import libcst

from watchlint.facts import Operation, Site
from watchlint.fixes import Applicability, Fix
from watchlint.python import edits
from watchlint.python.calls import ClientContext, keyword, positional
from watchlint.python.conditions import truth_by_default
from watchlint.python.flow import Flow
from watchlint.python.kopf import Runner
from watchlint.python.loops import loop_label_selector
from watchlint.python.names import ListMethod
from watchlint.python.namespaces import namespace_in_scope

NAMESPACED_CUSTOM_LIST = "list_namespaced_custom_object"
NAMESPACE_PLACEHOLDER = '"<namespace>"'
KOPF_FILTERS = "kopf applies handler filters after streaming every object: "
KOPF_COMMAND_LINE = (
    "start the operator with `kopf run --namespace=<namespace> …` (-n, once per namespace) rather than "
    "--all-namespaces/-A, and set kopf-namespaced = true in the watchlint config, which cannot see the command line"
)
_SCOPE_KEYWORDS = ("clusterwide", "namespaces", "namespace")


@dataclass(frozen=True, slots=True)
class ListCall:
    """A kubernetes list method as a site uses it: called (`offset` 0), or passed to a watch stream, whose
    arguments after the method (`offset` 1) go to the list."""

    call: libcst.Call  # the call whose arguments the list receives
    method: ListMethod
    name: libcst.Name | None  # the method's name token; None when it arrives through a variable or a partial
    offset: int


def kubernetes_remedies(context: ClientContext, site: Site, listed: ListCall) -> Site:
    """The site with the namespaced-list fix, and the suggestion of the label its loop tests or else of the
    namespaced list to call."""
    fix = _namespaced_list_fix(context, site, listed)
    site = _with(context, site, listed.call, (fix,) if fix is not None else ())
    new_name = _namespaced_name(context, site, listed)
    if site.suggestion or new_name is None:
        return site
    verb = "watch" if site.operation is Operation.WATCH else "list"
    arguments = "group, version, <namespace>, plural" if listed.method.is_custom else "<namespace>, …"
    suggestion = f"Pass label_selector= or field_selector=, or {verb} one namespace with {new_name}({arguments})"
    return replace(site, suggestion=suggestion)


def dynamic_remedies(context: ClientContext, site: Site, call: libcst.Call, shift: int) -> Site:
    """The dynamic client's `resource.get()` / `.watch()`: `namespace=` when a namespace is in scope."""
    has_namespace = len(positional(call)) > shift or keyword(call, "namespace") is not None
    namespace = None if has_namespace else namespace_in_scope(context.flow, call)
    if namespace is None:
        return _with(context, site, call, ())
    edit = edits.insert_keyword(context.file, call, f"namespace={namespace}")
    fix = Fix(_title(site, namespace, f"namespace={namespace}"), Applicability.UNSAFE, (edit,))
    return _with(context, site, call, (fix,))


def _with(context: ClientContext, site: Site, call: libcst.Call, fixes: tuple[Fix, ...]) -> Site:
    """Attach the fixes, and the selector of the label the loop over the call's results tests (WL003)."""
    # what a watch's loop filters on, or a list's loop over its items (a list is no WL003: it has no filters)
    wanted = site.filters or (site.operation is Operation.LIST and not site.restrictions)
    selector = loop_label_selector(context.file, context.flow, call) if wanted else None
    suggestion = ""
    if selector is not None:
        suggestion = (
            f'Pass label_selector="{selector}", what the loop keeps, so the API server sends only matching objects'
        )
    return replace(site, fixes=fixes, suggestion=suggestion)


def _namespaced_list_fix(context: ClientContext, site: Site, listed: ListCall) -> Fix | None:
    """`list_secret_for_all_namespaces(…)` -> `list_namespaced_secret(ns, …)`, and
    `list_cluster_custom_object(g, v, plural)` -> `list_namespaced_custom_object(g, v, ns, plural)`."""
    name, call = listed.name, listed.call
    new_name = _namespaced_name(context, site, listed)
    namespace = namespace_in_scope(context.flow, call) if new_name is not None else None
    if name is None or new_name is None or namespace is None:
        return None
    if listed.method.is_custom:
        inserted = edits.insert_positional(context.file, call, listed.offset + 2, namespace)
        if inserted is None and keyword(call, "plural") is not None:
            inserted = edits.insert_keyword(context.file, call, f"namespace={namespace}", before="plural")
    else:
        inserted = edits.insert_positional(context.file, call, listed.offset, namespace)
    if inserted is None:
        return None
    renamed = edits.rename(context.file, name, new_name)
    return Fix(_title(site, namespace, new_name), Applicability.UNSAFE, edits.joined(context.file, renamed, inserted))


def _namespaced_name(context: ClientContext, site: Site, listed: ListCall) -> str | None:
    """The namespaced list of the same kind; None for a namespaced list, or a cluster-scoped custom kind."""
    method, name = listed.method, listed.name
    if method.is_namespaced or name is None:
        return None
    if method.is_custom:
        is_namespaced = any(kind.name == site.kind and kind.namespaced for kind in context.kinds.kinds)
        return NAMESPACED_CUSTOM_LIST if is_namespaced else None
    return "list_namespaced_" + name.value.removeprefix("list_").removesuffix("_for_all_namespaces")


def _title(site: Site, namespace: str, change: str) -> str:
    verb = "Watch" if site.operation is Operation.WATCH else "List"
    kind = site.kind
    return f"{verb} {kind} in namespace `{namespace}` only ({change}); {kind} objects elsewhere are no longer seen"


# -- kopf -----------------------------------------------------------------------------------------------
def kopf_remedies(sites: list[Site], runners: list[Runner], has_scope: bool) -> list[Site]:
    """Every kopf site with the exact change that scopes the operator; unchanged when a scope exists in code
    (it is conditional, and the message says on what) or the runner's options are not all in sight."""
    change = "" if has_scope else _scope_change(runners)
    if not change:
        return sites
    return [
        replace(site, suggestion=(KOPF_FILTERS + change) if site.filters else change[0].upper() + change[1:])
        for site in sites
    ]


def _scope_change(runners: list[Runner]) -> str:
    if not runners:
        return KOPF_COMMAND_LINE
    runner = min(runners, key=lambda item: item.file.span(item.call))
    call, file = runner.call, runner.file
    if any(arg.star for arg in call.args):
        return ""  # `**options` built out of sight may hold anything
    namespace = namespace_in_scope(runner.flow, call) or NAMESPACE_PLACEHOLDER
    wanted = f"namespaces=[{namespace}]"
    where = f"`{file.code(call.func)}` at {file.path}:{file.span(call).line}"
    replaced = next((arg for arg in call.args if _is_unscoped(runner.flow, arg)), None)
    if replaced is not None:
        return f"replace `{file.code(replaced)}` with `{wanted}` in {where} to serve only those namespaces"
    return f"pass `{wanted}` to {where} to serve only those namespaces"


def _is_unscoped(flow: Flow, arg: libcst.Arg) -> bool:
    """`clusterwide=True` (or a value that may be true), `namespaces=[]`, `namespaces=["*"]`."""
    if arg.keyword is None or arg.keyword.value not in _SCOPE_KEYWORDS:
        return False
    if arg.keyword.value == "clusterwide":
        return truth_by_default(flow, arg.value) is not False
    return True  # a scope that counted would have mitigated every handler
