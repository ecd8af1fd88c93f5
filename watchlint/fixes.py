"""Fixes: alternative remedies made of edits, each safe or unsafe; front-ends build them, checks attach them."""

from __future__ import annotations

from dataclasses import dataclass
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


pickling.register(Edit, Fix)
