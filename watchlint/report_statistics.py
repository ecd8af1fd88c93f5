"""`--statistics`: how many unsuppressed findings each rule has, per kind, most frequent first (like ruff's)."""

from __future__ import annotations

import json
from collections import Counter

from watchlint.catalog import Catalog
from watchlint.engine import Report


def count(report: Report) -> list[tuple[int, str, str]]:
    """(count, code, kind) rows, most frequent first, then by code and kind."""
    counter = Counter((finding.code, finding.kind) for finding in report.active_findings)
    return sorted(((n, code, kind) for (code, kind), n in counter.items()), key=lambda row: (-row[0], row[1], row[2]))


def render_text(report: Report, catalog: Catalog) -> str:
    names = {rule.code: rule.name for rule in catalog.rules}
    rows = count(report)
    if not rows:
        return ""
    width = len(str(rows[0][0]))
    name_width = max(len(names.get(code, "")) for _, code, _ in rows)
    return "".join(f"{n:>{width}}\t{code}\t{names.get(code, ''):<{name_width}}\t{kind}\n" for n, code, kind in rows)


def render_json(report: Report, catalog: Catalog) -> str:
    names = {rule.code: rule.name for rule in catalog.rules}
    rows = [{"code": code, "name": names.get(code, ""), "kind": kind, "count": n} for n, code, kind in count(report)]
    return json.dumps(rows, indent=2) + "\n"
