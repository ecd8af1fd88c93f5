"""Baselines: record today's findings by their line-free fingerprint, and report only new ones later.

The fingerprint (rule, path, kind, enclosing function or type, normalized construct, occurrence index)
survives code moving within its file; renaming the file or changing the construct makes a finding new.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from watchlint import jsontext
from watchlint.atomic import write_atomically
from watchlint.engine import Report
from watchlint.errors import WatchlintError
from watchlint.findings import Finding

FORMAT_VERSION = 1


def write_baseline(path: Path, findings: Iterable[Finding]) -> int:
    """Record the unsuppressed findings; return how many."""
    entries = [
        {
            "fingerprint": finding.fingerprint(),
            "code": finding.code,
            "path": finding.span.path,
            "kind": finding.kind,
            "construct": finding.construct,
        }
        for finding in findings
        if not finding.is_suppressed
    ]
    document = {"version": FORMAT_VERSION, "findings": entries}
    try:
        write_atomically(path, (jsontext.dumps(document) + "\n").encode("utf-8"))
    except OSError as error:
        raise WatchlintError(f"{path}: cannot write baseline: {error.strerror or error}") from None
    return len(entries)


def read_baseline(path: Path) -> frozenset[str]:
    """The fingerprints a baseline file records; a missing or malformed file is a usage error."""
    try:
        document: Any = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise WatchlintError(f"{path}: cannot read baseline: {error.strerror or error}") from None
    except json.JSONDecodeError as error:
        raise WatchlintError(f"{path}: not a watchlint baseline: {error}") from None
    entries = document.get("findings") if isinstance(document, dict) else None
    if not isinstance(entries, list) or document.get("version") != FORMAT_VERSION:
        raise WatchlintError(f"{path}: not a watchlint baseline (version {FORMAT_VERSION})")
    return frozenset(entry["fingerprint"] for entry in entries if isinstance(entry, dict) and "fingerprint" in entry)


def apply_baseline(report: Report, fingerprints: frozenset[str]) -> tuple[Report, int]:
    """Drop the findings the baseline records; return the new report and how many were dropped."""
    kept = [finding for finding in report.findings if finding.fingerprint() not in fingerprints]
    dropped = len(report.findings) - len(kept)
    return replace(report, findings=tuple(kept), baselined=report.baselined + dropped), dropped
