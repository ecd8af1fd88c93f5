"""Project metadata at run time: the version and the repository URL, kept once in pyproject.toml."""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path

from watchlint import __version__

VERSION = __version__
NAME = "watchlint"


@functools.cache
def repository_url() -> str:
    """Return [project.urls] Repository from the installed metadata, else from the checkout's pyproject.toml."""
    import importlib.metadata  # ~10 ms, and only reports with links need it

    try:
        for entry in importlib.metadata.metadata(NAME).get_all("Project-URL") or []:
            label, _, url = entry.partition(",")
            if label.strip().lower() == "repository":
                return str(url).strip()
    except importlib.metadata.PackageNotFoundError:
        pass
    pyproject = Path(__file__).parent.parent / "pyproject.toml"
    try:
        urls = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["urls"]
        return str(urls["Repository"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return ""


def rule_doc_url(code: str) -> str:
    """Return the URL of a rule's documentation page, derived from the repository URL."""
    base = repository_url()
    return f"{base}/blob/main/docs/rules/{code}.md" if base else ""
