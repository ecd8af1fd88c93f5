"""The compiled dataclass code kept from one run to the next: the classes it makes are those compiling makes,
a bad file is never fatal, and only the command line keeps code."""

from __future__ import annotations

import dataclasses
import importlib
import marshal
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FunctionType, ModuleType

import pytest
from conftest import write_tree

from watchlint import codecache

SAMPLE = """
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True, order=True)
class Span:
    path: str
    line: int = 1
    tags: tuple[str, ...] = ()


@dataclass(kw_only=True)
class Settings:
    name: str
    levels: dict[str, int] = field(default_factory=dict)
    span: Span | None = None
"""
METHODS = ("__init__", "__repr__", "__eq__", "__hash__", "__lt__", "__setattr__", "__delattr__")


@pytest.fixture
def sample(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A module of dataclasses to import again and again, and a cache folder of the test's own."""
    folder = write_tree(tmp_path / "modules", {"kept_sample.py": SAMPLE})
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    monkeypatch.setattr(codecache, "_folder", None)
    monkeypatch.setattr(codecache, "_packages", {})
    monkeypatch.setattr(dataclasses, "exec", exec, raising=False)  # undone: dataclasses' own exec again
    yield tmp_path / "user-cache" / "watchlint"
    sys.modules.pop("kept_sample", None)


def _fresh_import() -> ModuleType:
    sys.modules.pop("kept_sample", None)
    return importlib.import_module("kept_sample")


def _shape(module: ModuleType) -> list[tuple[object, ...]]:
    """What the generated methods are: their code, defaults and annotations."""
    found = []
    for cls in (module.Span, module.Settings):
        for name in METHODS:
            method = cls.__dict__.get(name)
            if isinstance(method, FunctionType):
                code = method.__code__
                annotations = repr(method.__annotations__)
                found.append((cls.__name__, name, code.co_code, code.co_consts, code.co_names, method.__defaults__))
                found.append((code.co_varnames, method.__kwdefaults__, annotations))
    return found


def _behaviour(module: ModuleType) -> list[object]:
    span = module.Span("a.go", 3, ("x",))
    settings = module.Settings(name="n", span=span)
    with pytest.raises(dataclasses.FrozenInstanceError):
        span.line = 4
    return [repr(span), repr(settings), span == module.Span("a.go", 3, ("x",)), hash(span), span < module.Span("b")]


def test_a_class_made_from_kept_code_is_the_class_compiling_makes(sample: Path) -> None:
    compiled = _fresh_import()
    reference = (_shape(compiled), _behaviour(compiled))
    codecache.install()
    first = _fresh_import()  # compiled by codecache, and kept
    assert (_shape(first), _behaviour(first)) == reference
    codecache.save()
    [file] = sample.glob("dataclass-code-kept_sample-*.marshal")
    codecache._packages.clear()  # as a new process would start
    second = _fresh_import()
    package = codecache._packages["kept_sample"]
    assert package.new == {}  # nothing compiled: every method came from the file
    assert len(package.used) == len(marshal.loads(file.read_bytes())) > 0
    assert (_shape(second), _behaviour(second)) == reference


def test_a_corrupt_file_counts_as_empty_and_is_written_afresh(sample: Path) -> None:
    codecache.install()
    name = f"dataclass-code-kept_sample-{sys.implementation.cache_tag}-{sys.hexversion:x}.marshal"
    write_tree(sample, {name: b"\xff"})
    module = _fresh_import()
    assert module.Span("a.go").line == 1
    codecache.save()
    [file] = sample.glob("dataclass-code-kept_sample-*.marshal")
    assert set(marshal.loads(file.read_bytes())) == codecache._packages["kept_sample"].used


def test_a_folder_that_cannot_be_written_leaves_the_run_as_it_was(sample: Path) -> None:
    sample.parent.mkdir(parents=True)
    sample.write_text("a file where the folder would be", encoding="utf-8")
    codecache.install()
    assert _fresh_import().Span("a.go").line == 1
    codecache.save()
    assert sample.read_text(encoding="utf-8") == "a file where the folder would be"


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="XDG_CACHE_HOME is where Linux keeps caches")
def test_the_cache_folder_follows_xdg_cache_home_when_it_is_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "caches"))
    assert codecache.cache_folder() == tmp_path / "caches" / "watchlint"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/caches")
    assert codecache.cache_folder() == tmp_path / "home" / ".cache" / "watchlint"


def test_the_command_line_keeps_code_and_the_library_does_not(tmp_path: Path) -> None:
    write_tree(tmp_path / "project", {"handlers.py": "import kopf\n"})
    environment = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "user-cache")}
    library = subprocess.run(
        [sys.executable, "-c", "import dataclasses, watchlint.cli; print('exec' in vars(dataclasses))"],
        capture_output=True,
        text=True,
        env=environment,
        check=True,
    )
    assert library.stdout == "False\n"
    command = [sys.executable, "-m", "watchlint", "check", "project", "--no-cache", "-j", "1"]
    subprocess.run(command, cwd=tmp_path, env=environment, capture_output=True, check=True)
    kept = sorted(path.name.split("-")[2] for path in (tmp_path / "user-cache" / "watchlint").iterdir())
    assert kept == ["libcst", "watchlint"]
