"""Selectors made of exclusions only (`owner!=helm`, `!ephemeral`, `tier notin (cache)`), in either language:
they leave out the objects they name and keep every other one, so they bound nothing that grows with the
cluster (ingress-nginx's and traefik's informers leave out Helm's releases and cache every other Secret)."""

from __future__ import annotations

import re

_NAME = r"[\w./-]+"
_EXCLUSION = re.compile(rf"\s*(?:!\s*{_NAME}|{_NAME}\s*!=\s*[\w./-]*|{_NAME}\s+notin\s*\([^)]*\))\s*")


def excludes_only(selector: str) -> bool:
    """Whether every term of a label or field selector string excludes."""
    terms = _terms(selector)
    return bool(terms) and all(_EXCLUSION.fullmatch(term) for term in terms)


def _terms(selector: str) -> list[str]:
    """A selector's comma-separated terms, the commas inside a `notin (…)` set kept."""
    terms: list[str] = []
    current: list[str] = []
    depth = 0
    for character in selector:
        depth += {"(": 1, ")": -1}.get(character, 0)
        if character == "," and depth == 0:
            terms.append("".join(current))
            current = []
        else:
            current.append(character)
    terms.append("".join(current))
    return [term for term in terms if term.strip()]
