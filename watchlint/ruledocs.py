"""Rule documentation: rendered for a terminal (`watchlint rule CODE`) and generated as docs/rules/*.md.

Regenerate the pages with `python -m watchlint.ruledocs docs/rules`; a test checks they are current.
"""

from __future__ import annotations

import re
import shutil
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import click

from watchlint.catalog import Catalog, Rule, load_catalog

_LINK = re.compile(r"\[([^\]]+)\]\(([^)]+)\)")
_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")
_LIST_ITEM = re.compile(r"^(\s*)([-*]|\d+\.)\s+")
_EXAMPLE = {"bad": "Bad", "good": "Good"}
MAX_WIDTH = 100


# -- terminal -----------------------------------------------------------------------------------------
def render_terminal(rule: Rule, color: bool, width: int | None = None) -> str:
    """The rule's doc for a terminal: headings set off, paragraphs wrapped, code indented, no Markdown marks."""
    width = min(width or shutil.get_terminal_size((MAX_WIDTH, 24)).columns, MAX_WIDTH)

    def style(text: str, **options: object) -> str:
        return click.style(text, **options) if color else text  # type: ignore[arg-type]

    header = f"{rule.code} {rule.name}"
    lines = [
        style(header, bold=True),
        f"{rule.summary}.",
        f"level: {rule.level} · languages: {', '.join(rule.languages)}",
        "",
    ]
    for kind, text in _blocks(rule.body):
        if kind == "heading":
            lines.extend([style(text.upper() if not text.startswith("#") else text.lstrip("# "), bold=True), ""])
        elif kind == "code":
            lines.extend(_code_block(text, style))
        else:
            lines.extend(_paragraph(text, width, style))
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _blocks(body: str) -> Iterator[tuple[str, str]]:
    """Split Markdown into ("heading" | "code" | "text", content) blocks."""
    paragraph: list[str] = []
    lines = iter(body.splitlines())
    for line in lines:
        if line.startswith("```"):
            yield from _flush(paragraph)
            code = [line]
            for inner in lines:
                code.append(inner)
                if inner.startswith("```"):
                    break
            yield "code", "\n".join(code)
        elif line.startswith("#"):
            yield from _flush(paragraph)
            level = len(line) - len(line.lstrip("#"))
            yield "heading", line.lstrip("# ").strip() if level == 2 else "#" * level + " " + line.lstrip("# ")
        elif not line.strip():
            yield from _flush(paragraph)
        else:
            paragraph.append(line)
    yield from _flush(paragraph)


def _flush(paragraph: list[str]) -> Iterator[tuple[str, str]]:
    if paragraph:
        yield "text", "\n".join(paragraph)
        paragraph.clear()


def _inline(text: str, style: Callable[..., str]) -> str:
    text = _LINK.sub(lambda match: f"{match.group(1)} <{match.group(2)}>", text)
    text = _BOLD.sub(lambda match: style(match.group(1), bold=True), text)
    return _CODE.sub(lambda match: style(match.group(1), fg="cyan"), text)


def _paragraph(text: str, width: int, style: Callable[..., str]) -> list[str]:
    """Wrap a paragraph; list items keep their marker and a hanging indent."""
    items: list[list[str]] = []
    for line in text.splitlines():
        if _LIST_ITEM.match(line) or not items:
            items.append([line.strip()])
        else:
            items[-1].append(line.strip())
    out = []
    for item in items:
        joined = " ".join(item)
        marker = _LIST_ITEM.match(joined)
        indent = " " * len(marker.group(0)) if marker else ""
        for wrapped in textwrap.wrap(joined, width=width, subsequent_indent=indent, break_on_hyphens=False):
            out.append(_inline(wrapped, style))
    return out


def _code_block(block: str, style: Callable[..., str]) -> list[str]:
    lines = block.splitlines()
    words = lines[0].strip("`").split()
    label = ""
    if len(words) == 2 and words[1] in _EXAMPLE:
        label = f"{_EXAMPLE[words[1]]} ({words[0].capitalize()}):"
    out = [style(label, bold=True)] if label else []
    out.extend(("    " + line.expandtabs(4)).rstrip() for line in lines[1:-1])
    out.append("")
    return out


# -- generated pages ------------------------------------------------------------------------------------
def render_page(rule: Rule) -> str:
    """The docs/rules/<CODE>.md page: a title, the rule's identity, then its documentation."""
    fix = {"always": "always", "sometimes": "for some sites", "none": "no"}[rule.fix]
    safety = f" ({rule.fix_safety})" if rule.fix != "none" else ""
    return (
        f"<!-- Generated from rules/{rule.code}.md by `python -m watchlint.ruledocs docs/rules`; edit that file. -->\n"
        f"# {rule.code} {rule.name}\n\n"
        f"{rule.summary}.\n\n"
        "| Level | Languages | Fix | Status | Since |\n|---|---|---|---|---|\n"
        f"| {rule.level} | {', '.join(rule.languages)} | {fix}{safety} | {rule.status} | {rule.since} |\n\n"
        f"{rule.body}"
    )


def render_index(catalog: Catalog) -> str:
    rows = "".join(
        f"| [{rule.code}]({rule.code}.md) | {rule.name} | {rule.level} | {rule.summary} |\n"
        for rule in catalog.active_rules
    )
    return (
        "<!-- Generated by `python -m watchlint.ruledocs docs/rules`; edit rules/*.md instead. -->\n"
        "# watchlint rules\n\n| Code | Name | Level | What it finds |\n|---|---|---|---|\n" + rows
    )


def pages(catalog: Catalog) -> dict[str, str]:
    """{file name: content} of every generated page."""
    generated = {f"{rule.code}.md": render_page(rule) for rule in catalog.active_rules}
    generated["README.md"] = render_index(catalog)
    return generated


def main(arguments: list[str] | None = None) -> int:
    """Write the pages into the folder given (docs/rules)."""
    target = Path((arguments or sys.argv[1:] or ["docs/rules"])[0])
    target.mkdir(parents=True, exist_ok=True)
    for name, content in pages(load_catalog()).items():
        (target / name).write_text(content, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
