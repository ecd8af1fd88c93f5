"""Render an inventory: a text table per unit (largest footprint first, total last), JSON, or Markdown for a
pull-request comment."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from watchlint import jsontext
from watchlint.inventory import Entry, Profile

MAX_SITES = 3  # sites listed per row; the rest are counted


@dataclass(frozen=True, slots=True)
class UnitInventory:
    unit: str  # the unit's root as displayed
    language: str
    entries: Sequence[Entry]

    @property
    def total(self) -> int:
        return sum(entry.bytes for entry in self.entries)


def size(amount: int) -> str:
    """Binary units with one decimal: 1536 -> 1.5 KiB."""
    value = float(amount)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{value:.0f} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GiB"


def _sites(entry: Entry) -> str:
    shown = [f"{site.span.path}:{site.span.line} {site.construct}" for site in entry.sites[:MAX_SITES]]
    more = len(entry.sites) - MAX_SITES
    return "; ".join(shown) + (f"; and {more} more" if more > 0 else "")


def _forms(entry: Entry) -> str:
    parts = []
    if len(entry.forms) > 1:
        parts.append("typed + metadata")
    elif entry.forms == {"metadata"}:
        parts.append("metadata-only")
    if entry.transformed:
        parts.append("transformed")
    return f" ({', '.join(parts)})" if parts else ""


def _title(unit: UnitInventory) -> str:
    language = "Go module" if unit.language == "go" else "Python project"
    return f"{language} {unit.unit}"


def render_text(units: Sequence[UnitInventory], profile: Profile) -> str:
    out = [f"Profile {profile.name}: {profile.description}", ""]
    headers = ("KIND", "CACHE", "SCOPE", "OBJECTS", "PER OBJECT", "FOOTPRINT")
    for unit in units:
        rows = [
            (
                entry.kind,
                entry.cache,
                entry.scope.text + _forms(entry),
                f"{entry.objects:,}" if entry.scope.is_held else "-",
                size(entry.per_object) if entry.scope.is_held else "-",
                size(entry.bytes) if entry.scope.is_held else "-",
            )
            for entry in unit.entries
        ]
        widths = [max(len(row[i]) for row in [headers, *rows]) for i in range(len(headers))]
        out.append(_title(unit))
        out.append("  " + _line(headers, widths))
        for row, entry in zip(rows, unit.entries, strict=True):
            out.append("  " + _line(row, widths))
            out.append(f"      sites: {_sites(entry)}")
            out.extend(f"      evidence: {item}" for item in entry.evidence[:MAX_SITES])
        out.append("  " + _line(("TOTAL", "", "", "", "", size(unit.total)), widths))
        out.append("")
    if len(units) > 1:
        out.append(f"TOTAL for {len(units)} units: {size(sum(unit.total for unit in units))}")
    return "\n".join(out).rstrip() + "\n"


def _line(cells: Sequence[str], widths: Sequence[int]) -> str:
    numeric = (3, 4, 5)
    padded = [
        cell.rjust(width) if i in numeric else cell.ljust(width)
        for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
    ]
    return "  ".join(padded).rstrip()


def render_markdown(units: Sequence[UnitInventory], profile: Profile) -> str:
    out = [f"### watchlint inventory (profile `{profile.name}`)", "", f"_{profile.description}_", ""]
    for unit in units:
        out.append(f"**{_title(unit)}** — estimated {size(unit.total)}")
        out.append("")
        out.append("| Kind | Cache | Scope | Objects | Footprint | Started by |")
        out.append("|---|---|---|---:|---:|---|")
        for entry in unit.entries:
            objects = f"{entry.objects:,}" if entry.scope.is_held else "-"
            footprint = size(entry.bytes) if entry.scope.is_held else "-"
            sites = "<br>".join(f"`{s.span.path}:{s.span.line}` `{s.construct}`" for s in entry.sites[:MAX_SITES])
            scope = (entry.scope.text + _forms(entry)).replace("|", "\\|")
            out.append(f"| {entry.kind} | {entry.cache} | {scope} | {objects} | {footprint} | {sites} |")
        out.append("")
    return "\n".join(out)


def render_json(units: Sequence[UnitInventory], profile: Profile) -> str:
    document: dict[str, Any] = {
        "version": 1,
        "profile": profile.name,
        "units": [
            {
                "unit": unit.unit,
                "language": unit.language,
                "total_bytes": unit.total,
                "kinds": [
                    {
                        "kind": entry.kind,
                        "cache": entry.cache,
                        "scope": entry.scope.text,
                        "held": entry.scope.is_held,
                        "forms": sorted(str(form) for form in entry.forms),
                        "transformed": entry.transformed,
                        "objects": entry.objects,
                        "bytes": entry.bytes,
                        "sites": [
                            {"path": s.span.path, "line": s.span.line, "construct": s.construct} for s in entry.sites
                        ],
                        "evidence": entry.evidence,
                    }
                    for entry in unit.entries
                ],
            }
            for unit in units
        ],
    }
    return jsontext.dumps(document) + "\n"
