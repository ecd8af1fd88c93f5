"""Fixes: alternative remedies made of edits, each safe or unsafe; front-ends build them, checks attach them."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from watchlint import pickling
from watchlint.source import Span


class Applicability(StrEnum):
    SAFE = "safe"  # keeps behaviour: applied by --fix
    UNSAFE = "unsafe"  # changes what the operator sees: applied only with --unsafe-fixes


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the text of `span` (end exclusive) with `new_text`; an empty span inserts."""

    span: Span
    new_text: str


@dataclass(frozen=True, slots=True)
class Fix:
    """One alternative remedy; the first of a finding's fixes is the preferred one."""

    title: str  # imperative, names the place: "Add corev1.Secret to Client.Cache.DisableFor in cmd/main.go"
    applicability: Applicability
    edits: tuple[Edit, ...] = ()
    code: str = ""  # the rule it answers; "" for any rule the site may get
    policy: str = ""  # the CachePolicy key whose options it edits; "" when it does not depend on one


def merged(fixes: list[Fix]) -> Fix:
    """One fix making the edits of several, each edit once (their imports may be alike), titled by the first
    with the other places named: the same change to the options of several managers, each of which leaves the
    site open until it has it."""
    first = fixes[0]
    if len(fixes) == 1:
        return first
    edits = tuple(dict.fromkeys(edit for fix in fixes for edit in fix.edits))
    # the places of the edits the first fix does not make: two binaries building their manager through one
    # shared function give the same edit twice, which is one place
    made = set(first.edits)
    places = ([edit for edit in fix.edits if edit not in made][:1] for fix in fixes[1:])
    others = list(dict.fromkeys(f"{edit.span.path}:{edit.span.line}" for place in places for edit in place))
    title = f"{first.title} (and the same in {', '.join(others)})" if others else first.title
    unsafe = any(fix.applicability is Applicability.UNSAFE for fix in fixes)
    return replace(
        first, title=title, edits=edits, applicability=Applicability.UNSAFE if unsafe else first.applicability
    )


def same_change(first: Fix, second: Fix) -> bool:
    """Whether two fixes make the same change in different places: titles alike but for the files they name."""
    return _placeless(first) == _placeless(second)


def _placeless(fix: Fix) -> str:
    title = fix.title
    for edit in fix.edits:
        title = title.replace(edit.span.path, "")
    return title


pickling.register(Edit, Fix)
