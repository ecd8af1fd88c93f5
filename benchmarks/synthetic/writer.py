"""The Manifest of a generated tree, and the Writer that writes its files and counts them by category."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(slots=True)
class Manifest:
    """What was generated: counts per category, and the file the benchmark touches."""

    scale: int
    seed: int
    go_operators: list[str] = field(default_factory=list)
    tools_modules: list[str] = field(default_factory=list)
    kopf_projects: list[str] = field(default_factory=list)
    files: Counter[str] = field(default_factory=Counter)
    lines: Counter[str] = field(default_factory=Counter)
    touch_target: str = ""  # a controller file, relative to the root

    @property
    def total_lines(self) -> int:
        return sum(self.lines.values())

    def to_json(self) -> dict[str, object]:
        return {
            "scale": self.scale,
            "seed": self.seed,
            "go_operators": len(self.go_operators),
            "tools_modules": len(self.tools_modules),
            "kopf_projects": len(self.kopf_projects),
            "files": dict(sorted(self.files.items())),
            "lines": dict(sorted(self.lines.items())),
            "total_lines": self.total_lines,
            "touch_target": self.touch_target,
        }


class Writer:
    """Writes files under a root and counts them by category."""

    def __init__(self, root: Path, manifest: Manifest) -> None:
        self.root = root
        self.manifest = manifest

    def write(self, relative: str, text: str, category: str) -> None:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if not text.endswith("\n"):
            text += "\n"
        path.write_text(text, encoding="utf-8", newline="\n")
        self.manifest.files[category] += 1
        self.manifest.lines[category] += text.count("\n")
