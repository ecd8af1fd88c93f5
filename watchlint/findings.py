"""Findings and verdicts: what checks produce and reporters render, with a line-free fingerprint."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace
from enum import StrEnum

from watchlint import pickling
from watchlint.facts import Mitigation
from watchlint.fixes import Applicability, Edit, Fix
from watchlint.levels import Level
from watchlint.source import Span


class SuppressionKind(StrEnum):
    IGNORE = "ignore"  # //watchlint:ignore CODE -- reason, # watchlint: ignore[CODE] -- reason
    NOLINT = "nolint"  # //nolint:watchlint
    NOQA = "noqa"  # the flake8 form with explicit codes


@dataclass(frozen=True, slots=True)
class Related:
    """A secondary location: the evidence behind a finding."""

    span: Span
    message: str


@dataclass(frozen=True, slots=True)
class Suppression:
    """The comment that silences a finding."""

    kind: SuppressionKind
    span: Span  # the directive comment
    justification: str  # the reason after `--`; empty for nolint/noqa without one


@dataclass(frozen=True, slots=True)
class Finding:
    """A reported site: rule, place, message, evidence and remedies."""

    code: str  # "WL001"
    level: Level
    span: Span
    message: str  # one sentence, no trailing period (DESIGN §2.6)
    kind: str  # canonical Kind
    construct: str  # whitespace-normalised construct, part of the fingerprint
    enclosing: str = ""  # enclosing function or type, part of the fingerprint
    related: tuple[Related, ...] = ()
    help: str = ""  # the text suggestion, always present for real findings
    fixes: tuple[Fix, ...] = ()
    suppression: Suppression | None = None
    occurrence: int = 0  # index among findings with the same fingerprint material

    @property
    def is_suppressed(self) -> bool:
        return self.suppression is not None

    @property
    def is_fixable(self) -> bool:
        """Whether `--fix` applies one of its fixes (a safe one with edits)."""
        return any(fix.edits and fix.applicability is Applicability.SAFE for fix in self.fixes)

    @property
    def has_unsafe_fix(self) -> bool:
        return not self.is_fixable and any(fix.edits for fix in self.fixes)

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.span.path, self.span.line, self.span.column, self.code)

    def fingerprint(self) -> str:
        """Return a line-free identity: moving code keeps it, renaming the file or the construct changes it."""
        material = "\0".join(
            (
                self.code,
                self.span.path,
                self.kind,
                self.enclosing,
                _normalise(self.construct),
                str(self.occurrence),
            )
        )
        return hashlib.sha256(material.encode("utf-8")).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class Mitigated:
    """A candidate site that is not a finding, with the reason and its evidence (--show-mitigated)."""

    code: str  # the rule that would have fired
    span: Span
    kind: str
    construct: str
    reason: Mitigation
    evidence: Related | None = None


Verdict = Finding | Mitigated

__all__ = ["Applicability", "Edit", "Finding", "Fix", "Level", "Mitigated", "Related", "Suppression", "Verdict"]

_SPACE = re.compile(r"\s+")


def _normalise(construct: str) -> str:
    return _SPACE.sub("", construct)


def number_occurrences(findings: list[Finding]) -> list[Finding]:
    """Give identical constructs in one function distinct fingerprints, in source order."""
    seen: dict[tuple[str, str, str, str, str], int] = {}
    numbered = []
    for finding in sorted(findings, key=Finding.sort_key):
        material = (
            finding.code,
            finding.span.path,
            finding.kind,
            finding.enclosing,
            _normalise(finding.construct),
        )
        index = seen.get(material, 0)
        seen[material] = index + 1
        numbered.append(finding if finding.occurrence == index else replace(finding, occurrence=index))
    return numbered


pickling.register(Related, Suppression, Finding, Mitigated)
