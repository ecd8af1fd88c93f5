"""Unit tests of watchlint/discover.py (units, excludes, symlinks, unreadable folders) and Go generated files."""

from __future__ import annotations

import errno
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import write_tree

from watchlint.catalog import Catalog
from watchlint.config import CommandLine
from watchlint.discover import Discovery, Unit, discover
from watchlint.engine import SettingsResolver
from watchlint.errors import WatchlintError
from watchlint.facts import Language, Notification, NotificationLevel
from watchlint.go import is_generated
from watchlint.source import decode_source

GO = Language.GO
PY = Language.PYTHON

REPO: dict[str, str | bytes] = {
    "repo/operator/go.mod": "module example.com/operator\n\ngo 1.22\n",
    "repo/operator/cmd/main.go": "package main\n",
    "repo/operator/internal/controller/app_controller.go": "package controller\n",
    "repo/operator/internal/controller/app_controller_test.go": "package controller\n",
    "repo/operator/api/v1/types.go": "package v1\n",
    "repo/operator/api/v1/zz_generated.deepcopy.go": "package v1\n",
    "repo/operator/vendor/k8s.io/client-go/client.go": "package client\n",
    "repo/operator/third_party/forked/fork.go": "package forked\n",
    "repo/operator/internal/controller/testdata/case.go": "package testdata\n",
    "repo/operator/hack/.cache/cached.go": "package cache\n",
    "repo/operator/tools/go.mod": "module example.com/operator/tools\n",
    "repo/operator/tools/tools.go": "package tools\n",
    "repo/webhook/go.mod": "module example.com/webhook\n",
    "repo/webhook/main.go": "package main\n",
    "repo/pyop/pyproject.toml": '[project]\nname = "pyop"\n',
    "repo/pyop/src/pyop/handlers.py": "import kopf\n",
    "repo/pyop/src/pyop/index.py": "import kopf\n",
    "repo/pyop/src/pyop/handlers_test.py": "def test_x() -> None: ...\n",
    "repo/pyop/tests/test_handlers.py": "def test_y() -> None: ...\n",
    "repo/pyop/node_modules/pkg/shim.py": "x = 1\n",
    "repo/legacy/setup.py": "from setuptools import setup\n",
    "repo/legacy/operator.py": "import kopf\n",
    "repo/cfgproj/setup.cfg": "[metadata]\nname = cfgproj\n",
    "repo/cfgproj/reflector.py": "import kubernetes\n",
    "repo/scripts/list_secrets.py": "import kubernetes\n",
    "repo/.git/hooks/pre-commit.py": "x = 1\n",
    "repo/.venv/lib/site.py": "x = 1\n",
    "repo/docs/README.md": "# docs\n",
}


class NoFilter:
    """A FileFilter with no configuration: nothing excluded, tests left out."""

    include_tests = False
    config_names: frozenset[str] = frozenset()

    def rules_for(self, folder: Path) -> NoFilter:
        return self

    def is_excluded(self, path: str) -> bool:
        return False


@dataclass(frozen=True)
class StubFilter:
    """A FileFilter that excludes the given names and may include tests (stands for a config)."""

    excluded_names: frozenset[str] = frozenset()
    include_tests: bool = False

    @property
    def config_names(self) -> frozenset[str]:
        return frozenset()

    def rules_for(self, folder: Path) -> StubFilter:
        return self

    def is_excluded(self, path: str) -> bool:
        return os.path.basename(path) in self.excluded_names


@dataclass(frozen=True)
class Shown:
    """A unit with its paths relative to the test folder, for exact comparison."""

    language: Language
    root: str
    files: tuple[str, ...]
    report_under: tuple[str, ...]


def relative(path: Path, base: Path) -> str:
    return path.relative_to(base).as_posix()


def shown_units(discovery: Discovery, base: Path) -> list[Shown]:
    return [
        Shown(
            unit.language,
            relative(unit.root, base),
            tuple(relative(file, unit.root) for file in unit.files),
            tuple(relative(scope, base) for scope in unit.report_under),
        )
        for unit in discovery.units
    ]


def unit_at(discovery: Discovery, root: Path, language: Language) -> Unit:
    (unit,) = [unit for unit in discovery.units if unit.root == root and unit.language is language]
    return unit


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_tree(tmp_path, REPO)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_whole_repository_gives_one_unit_per_module_and_project(repo: Path) -> None:
    discovery = discover([repo / "repo"], NoFilter())
    assert shown_units(discovery, repo) == [
        Shown(
            GO, "repo/operator", ("api/v1/types.go", "cmd/main.go", "internal/controller/app_controller.go"), ("repo",)
        ),
        Shown(GO, "repo/operator/tools", ("tools.go",), ("repo",)),
        Shown(GO, "repo/webhook", ("main.go",), ("repo",)),
        Shown(PY, "repo", ("scripts/list_secrets.py",), ("repo",)),
        Shown(PY, "repo/cfgproj", ("reflector.py",), ("repo",)),
        Shown(PY, "repo/legacy", ("operator.py", "setup.py"), ("repo",)),
        Shown(PY, "repo/pyop", ("src/pyop/handlers.py", "src/pyop/index.py"), ("repo",)),
    ]
    assert discovery.notifications == ()


def test_relative_path_gives_absolute_units(repo: Path) -> None:
    discovery = discover([Path("repo/webhook")], NoFilter())
    assert [(unit.language, unit.root, unit.files) for unit in discovery.units] == [
        (GO, repo / "repo" / "webhook", (repo / "repo" / "webhook" / "main.go",))
    ]


def test_nested_module_is_its_own_unit_not_part_of_the_parent(repo: Path) -> None:
    operator = unit_at(discover([repo / "repo" / "operator"], NoFilter()), repo / "repo" / "operator", GO)
    assert repo / "repo" / "operator" / "tools" / "tools.go" not in operator.files


def test_go_units_name_the_go_mod_files_their_facts_depend_on(tmp_path: Path) -> None:
    """A unit's own go.mod, and the go.mod of a module a local `replace` merges into it; Go files outside any
    module and a Python unit have none."""
    write_tree(
        tmp_path,
        {
            "op/go.mod": "module example.com/op\n\nreplace example.com/lib => ../lib\n",
            "op/main.go": "package main\n",
            "lib/go.mod": "module example.com/lib\n",
            "lib/pkg/lib.go": "package pkg\n",
            "loose/main.go": "package main\n",
            "loose/tool.py": "import kubernetes\n",
        },
    )
    discovery = discover([tmp_path], NoFilter())
    manifests = {
        (relative(unit.root, tmp_path), unit.language): [relative(path, tmp_path) for path in unit.manifests]
        for unit in discovery.units
    }
    assert manifests == {
        ("op", GO): ["lib/go.mod", "op/go.mod"],
        (".", GO): [],
        (".", PY): [],
    }


def test_modules_linked_by_local_replaces_are_one_unit_at_the_outermost_root(tmp_path: Path) -> None:
    """Binaries in modules of their own under cmd/ that replace the root module, a library module beside the
    root that one of them replaces, and a module nothing links to (its own unit)."""
    replace_root = "module example.com/op/cmd/{0}\n\nreplace example.com/op => ../..\n{1}"
    write_tree(
        tmp_path,
        {
            "op/go.mod": "module example.com/op\n",
            "op/pkg/controller/c.go": "package controller\n",
            "op/cmd/a/go.mod": replace_root.format("a", ""),
            "op/cmd/a/main.go": "package main\n",
            "op/cmd/b/go.mod": replace_root.format("b", "replace example.com/lib => ../../../lib\n"),
            "op/cmd/b/main.go": "package main\n",
            "op/tools/go.mod": "module example.com/op/tools\n",
            "op/tools/tools.go": "package tools\n",
            "lib/go.mod": "module example.com/lib\n",
            "lib/l.go": "package lib\n",
        },
    )
    shown = {
        relative(unit.root, tmp_path): (
            [relative(path, tmp_path) for path in unit.files],
            [relative(path, tmp_path) for path in unit.manifests],
        )
        for unit in discover([tmp_path], NoFilter()).units
    }
    assert shown == {
        "op": (
            ["lib/l.go", "op/cmd/a/main.go", "op/cmd/b/main.go", "op/pkg/controller/c.go"],
            ["lib/go.mod", "op/cmd/a/go.mod", "op/cmd/b/go.mod", "op/go.mod"],
        ),
        "op/tools": (["op/tools/tools.go"], ["op/tools/go.mod"]),
    }


def test_path_inside_a_module_brings_in_the_whole_module(repo: Path) -> None:
    target = repo / "repo" / "operator" / "internal" / "controller"
    discovery = discover([target], NoFilter())
    operator = unit_at(discovery, repo / "repo" / "operator", GO)
    assert [relative(file, operator.root) for file in operator.files] == [
        "api/v1/types.go",
        "cmd/main.go",
        "internal/controller/app_controller.go",
    ]
    assert operator.report_under == (target,)
    assert [operator.is_reported(file) for file in operator.files] == [False, False, True]
    reporting = [unit.root for unit in discovery.units if any(unit.is_reported(file) for file in unit.files)]
    assert reporting == [repo / "repo" / "operator"]


def test_nested_module_outside_the_given_path_is_not_a_unit(repo: Path) -> None:
    discovery = discover([repo / "repo" / "operator" / "internal" / "controller"], NoFilter())
    assert [unit.root for unit in discovery.units] == [repo / "repo" / "operator"]


def test_file_inside_a_module_is_the_only_one_reported(repo: Path) -> None:
    target = repo / "repo" / "operator" / "cmd" / "main.go"
    operator = unit_at(discover([target], NoFilter()), repo / "repo" / "operator", GO)
    assert len(operator.files) == 3
    assert [file for file in operator.files if operator.is_reported(file)] == [target]


def test_python_projects_inside_the_folder_are_their_own_units(repo: Path) -> None:
    discovery = discover([repo / "repo"], NoFilter())
    roots = [relative(unit.root, repo) for unit in discovery.units if unit.language is PY]
    assert roots == ["repo", "repo/cfgproj", "repo/legacy", "repo/pyop"]


def test_python_files_outside_a_project_belong_to_the_given_folder(repo: Path) -> None:
    scripts = unit_at(discover([repo / "repo"], NoFilter()), repo / "repo", PY)
    assert scripts.files == (repo / "repo" / "scripts" / "list_secrets.py",)


def test_project_above_the_given_folder_does_not_count(repo: Path) -> None:
    target = repo / "repo" / "pyop" / "src"
    discovery = discover([target], NoFilter())
    assert shown_units(discovery, repo) == [
        Shown(PY, "repo/pyop/src", ("pyop/handlers.py", "pyop/index.py"), ("repo/pyop/src",))
    ]


def test_given_python_file_brings_in_its_project(repo: Path) -> None:
    target = repo / "repo" / "pyop" / "src" / "pyop" / "handlers.py"
    discovery = discover([target], NoFilter())
    assert shown_units(discovery, repo) == [
        Shown(PY, "repo/pyop", ("src/pyop/handlers.py", "src/pyop/index.py"), ("repo/pyop/src/pyop/handlers.py",))
    ]
    (unit,) = discovery.units
    assert [unit.is_reported(file) for file in unit.files] == [True, False]


def test_given_python_file_outside_a_project_is_a_unit_of_its_folder(repo: Path) -> None:
    target = repo / "repo" / "scripts" / "list_secrets.py"
    assert shown_units(discover([target], NoFilter()), repo) == [
        Shown(PY, "repo/scripts", ("list_secrets.py",), ("repo/scripts/list_secrets.py",))
    ]


def all_files(discovery: Discovery, base: Path) -> set[str]:
    return {relative(file, base) for unit in discovery.units for file in unit.files}


@pytest.mark.parametrize(
    "path",
    [
        "repo/operator/vendor/k8s.io/client-go/client.go",
        "repo/operator/third_party/forked/fork.go",
        "repo/operator/internal/controller/testdata/case.go",
        "repo/pyop/node_modules/pkg/shim.py",
        "repo/.git/hooks/pre-commit.py",
        "repo/.venv/lib/site.py",
        "repo/operator/hack/.cache/cached.go",
        "repo/operator/api/v1/zz_generated.deepcopy.go",
        "repo/operator/internal/controller/app_controller_test.go",
        "repo/pyop/tests/test_handlers.py",
        "repo/pyop/src/pyop/handlers_test.py",
    ],
    ids=[
        "vendor",
        "third-party",
        "testdata",
        "node-modules",
        "git",
        "hidden-venv",
        "hidden-dir",
        "zz-generated",
        "go-test",
        "test-prefix-py",
        "test-suffix-py",
    ],
)
def test_default_excludes_leave_files_out(repo: Path, path: str) -> None:
    files = all_files(discover([repo / "repo"], NoFilter()), repo)
    assert path not in files
    assert {"repo/operator/api/v1/types.go", "repo/pyop/src/pyop/index.py"} <= files


@pytest.mark.parametrize(
    ("files", "kept"),
    [
        (
            {"m/go.mod": "module m\n", "m/a.go": "", "m/.hidden.go": "", "m/zz_generated.deepcopy.go": ""},
            {"m/a.go"},
        ),
        ({"p/a.py": "", "p/.hidden.py": "", "p/__pycache__/a.py": "", "p/venv/b.py": ""}, {"p/a.py"}),
    ],
    ids=["go", "python"],
)
def test_hidden_and_generated_files_are_left_out(tmp_path: Path, files: dict[str, str | bytes], kept: set[str]) -> None:
    write_tree(tmp_path, files)
    root = tmp_path / next(iter(files)).split("/")[0]
    discovery = discover([root], NoFilter())
    assert all_files(discovery, tmp_path) == kept


def test_including_tests_brings_test_files_back(repo: Path) -> None:
    files = all_files(discover([repo / "repo"], StubFilter(include_tests=True)), repo)
    assert {
        "repo/operator/internal/controller/app_controller_test.go",
        "repo/pyop/tests/test_handlers.py",
        "repo/pyop/src/pyop/handlers_test.py",
    } <= files
    assert "repo/operator/vendor/k8s.io/client-go/client.go" not in files
    assert "repo/operator/api/v1/zz_generated.deepcopy.go" not in files


def test_configured_excludes_leave_out_files_and_folders(repo: Path) -> None:
    file_filter = StubFilter(excluded_names=frozenset({"cmd", "index.py", "legacy"}))
    discovery = discover([repo / "repo"], file_filter)
    files = all_files(discovery, repo)
    assert "repo/operator/cmd/main.go" not in files
    assert "repo/pyop/src/pyop/index.py" not in files
    assert "repo/legacy/operator.py" not in files
    assert "repo/operator/api/v1/types.go" in files
    assert [relative(unit.root, repo) for unit in discovery.units if unit.language is PY] == [
        "repo",
        "repo/cfgproj",
        "repo/pyop",
    ]


@dataclass
class RecordingFilter:
    """A FileFilter that records what it was asked about, to show excluded folders are not entered."""

    excluded: frozenset[str]
    asked: list[str]
    include_tests: bool = False
    config_names: frozenset[str] = frozenset()

    def rules_for(self, folder: Path) -> RecordingFilter:
        return self

    def is_excluded(self, path: str) -> bool:
        self.asked.append(os.path.basename(path))
        return os.path.basename(path) in self.excluded


def test_excluded_folder_is_not_entered(repo: Path) -> None:
    file_filter = RecordingFilter(frozenset({"internal"}), [])
    discover([repo / "repo" / "operator"], file_filter)
    assert "internal" in file_filter.asked
    assert "controller" not in file_filter.asked
    assert "app_controller.go" not in file_filter.asked


def run_with_deadline(action: Callable[[], Discovery], seconds: float = 20.0) -> Discovery:
    """Run discovery in a daemon thread so that a hang fails the test instead of blocking the run."""
    results: list[Discovery] = []
    worker = threading.Thread(target=lambda: results.append(action()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), "discovery did not finish"
    assert len(results) == 1, "discovery raised"
    return results[0]


@pytest.fixture
def module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_tree(tmp_path, {"m/go.mod": "module m\n", "m/main.go": "package main\n", "m/sub/x.go": "package sub\n"})
    monkeypatch.chdir(tmp_path)
    return tmp_path / "m"


def test_broken_symlink_gives_one_notification(module: Path) -> None:
    os.symlink("nowhere.go", module / "broken.go")
    discovery = run_with_deadline(lambda: discover([module], NoFilter()))
    assert discovery.notifications == (
        Notification("m/broken.go", "broken symbolic link; skipped", NotificationLevel.ERROR),
    )
    assert all_files(discovery, module.parent) == {"m/main.go", "m/sub/x.go"}


def test_symlink_loop_between_files_gives_one_notification_each(module: Path) -> None:
    os.symlink("b.go", module / "a.go")
    os.symlink("a.go", module / "b.go")
    discovery = run_with_deadline(lambda: discover([module], NoFilter()))
    assert discovery.notifications == (
        Notification("m/a.go", "symbolic link loop; skipped", NotificationLevel.ERROR),
        Notification("m/b.go", "symbolic link loop; skipped", NotificationLevel.ERROR),
    )
    assert all_files(discovery, module.parent) == {"m/main.go", "m/sub/x.go"}


def test_symlink_loop_given_explicitly_gives_a_notification(module: Path) -> None:
    os.symlink("b.go", module / "a.go")
    os.symlink("a.go", module / "b.go")
    discovery = run_with_deadline(lambda: discover([Path("m/a.go")], NoFilter()))
    assert Notification("m/a.go", "symbolic link loop; skipped", NotificationLevel.ERROR) in discovery.notifications


def test_symlinked_directory_loop_does_not_hang_and_files_are_found_once(module: Path) -> None:
    os.symlink("..", module / "sub" / "loop")
    discovery = run_with_deadline(lambda: discover([module], NoFilter()))
    (unit,) = discovery.units
    assert [relative(file, module) for file in unit.files] == ["main.go", "sub/x.go"]
    assert discovery.notifications == ()


def test_symlink_to_a_folder_is_not_followed(module: Path, tmp_path: Path) -> None:
    write_tree(tmp_path, {"elsewhere/other.go": "package other\n"})
    os.symlink(tmp_path / "elsewhere", module / "linked")
    (unit,) = run_with_deadline(lambda: discover([module], NoFilter())).units
    assert [relative(file, module) for file in unit.files] == ["main.go", "sub/x.go"]


def test_unreadable_directory_gives_a_notification(module: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Tests run as root in CI, where chmod 000 has no effect: refuse scandir of one folder instead.
    blocked = module / "sub"
    real_scandir = os.scandir

    def scandir(path: str | os.PathLike[str] = ".") -> Iterator[os.DirEntry[str]]:
        if Path(path) == blocked:
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    discovery = discover([module], NoFilter())
    assert discovery.notifications == (Notification("m/sub", "cannot read directory: Permission denied"),)
    assert all_files(discovery, module.parent) == {"m/main.go"}


@pytest.mark.parametrize("given", ["missing", "m/missing.go", "missing/x.py"], ids=["folder", "file", "nested"])
def test_missing_path_is_a_user_error(module: Path, given: str) -> None:
    with pytest.raises(WatchlintError) as raised:
        discover([Path("m"), Path(given)], NoFilter())
    assert str(raised.value) == f"{given}: no such file or directory"


@pytest.mark.parametrize(
    ("files", "given"),
    [
        ({"notes.txt": "x"}, "notes.txt"),
        ({"m/go.mod": "module m\n", "m/README.md": "# m\n"}, "m/README.md"),
        ({"p/pyproject.toml": "", "p/requirements.txt": "kopf\n"}, "p/requirements.txt"),
    ],
    ids=["plain", "inside-go-module", "inside-python-project"],
)
def test_non_source_file_given_explicitly_gives_a_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str | bytes], given: str
) -> None:
    write_tree(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    discovery = discover([Path(given)], NoFilter())
    assert discovery.notifications == (Notification(given, "not a Go or Python file; skipped", NotificationLevel.NOTE),)


def test_non_source_file_in_a_go_module_that_is_also_a_python_project_gives_a_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_tree(tmp_path, {"m/go.mod": "module m\n", "m/pyproject.toml": "", "m/main.go": "package main\n"})
    write_tree(tmp_path, {"m/notes.txt": "x"})
    monkeypatch.chdir(tmp_path)
    discovery = discover([Path("m/notes.txt")], NoFilter())
    assert discovery.notifications == (
        Notification("m/notes.txt", "not a Go or Python file; skipped", NotificationLevel.NOTE),
    )


@pytest.mark.parametrize(
    "data",
    [
        b"// Code generated by controller-gen. DO NOT EDIT.\n\npackage v1\n",
        b"// Code generated by controller-gen. DO NOT EDIT.\r\n\r\npackage v1\r\n",
        b"// Copyright 2024 The Authors.\n\n// Code generated by protoc-gen-go. DO NOT EDIT.\n// x\n\npackage v1\n",
        b"//go:build !ignore_autogenerated\n\n// Code generated by controller-gen. DO NOT EDIT.\n\npackage v1\n",
    ],
    ids=["controller-gen", "crlf", "after-license", "after-build-tag"],
)
def test_go_generated_marker_before_package_clause(data: bytes) -> None:
    assert is_generated(decode_source(data, "zz.go")) is True


@pytest.mark.parametrize(
    "data",
    [
        b"// Code generated by controller-gen. DO NOT EDIT\n\npackage v1\n",
        b"// Code generated by hand, edit freely.\n\npackage v1\n",
        b"//Code generated by controller-gen. DO NOT EDIT.\n\npackage v1\n",
        b"// Code generated by x. DO NOT EDIT. really\npackage v1\n",
        b"package v1\n\nfunc f() {}\n",
    ],
    ids=["no-final-period", "different-text", "no-space-after-slashes", "text-after-period", "no-comment"],
)
def test_go_similar_comments_are_not_generated_markers(data: bytes) -> None:
    assert is_generated(decode_source(data, "types.go")) is False


def test_go_generated_marker_after_package_clause_does_not_count() -> None:
    data = b"package v1\n\n// Code generated by controller-gen. DO NOT EDIT.\nfunc f() {}\n"
    assert is_generated(decode_source(data, "types.go")) is False


def test_test_folders_are_test_code_left_out_unless_tests_are_included(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        "op/go.mod": "module example.com/op\n",
        "op/main.go": "package main\n",
        "op/test/utils/utils.go": "package utils\n",
        "op/tests/e2e/suite.go": "package e2e\n",
        "op/internal/e2e/helpers.go": "package e2e\n",
        "op/internal/testing/fake.go": "package testing\n",
    }
    write_tree(tmp_path, files)
    assert all_files(discover([tmp_path / "op"], NoFilter()), tmp_path) == {
        "op/main.go",
        "op/internal/testing/fake.go",
    }
    assert all_files(discover([tmp_path / "op"], StubFilter(include_tests=True)), tmp_path) == {
        "op/main.go",
        "op/test/utils/utils.go",
        "op/tests/e2e/suite.go",
        "op/internal/e2e/helpers.go",
        "op/internal/testing/fake.go",
    }


def test_each_folder_follows_its_nearest_configuration(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_tree(
        tmp_path,
        {
            ".watchlint.toml": 'exclude = ["skipme"]\n',
            "a/skipme/x.py": "x = 1\n",
            "a/other/x.py": "x = 1\n",
            "b/pyproject.toml": "[project]\nname = 'b'\n",  # no [tool.watchlint]: the root's configuration
            "b/skipme/x.py": "x = 1\n",
            "c/.watchlint.toml": 'exclude = ["other"]\n',
            "c/deep/skipme/x.py": "x = 1\n",
            "c/deep/other/x.py": "x = 1\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    discovery = discover([Path(".")], SettingsResolver(CommandLine(), catalog))
    files = sorted(str(path.relative_to(tmp_path)) for unit in discovery.units for path in unit.files)
    assert files == ["a/other/x.py", "c/deep/skipme/x.py"]
