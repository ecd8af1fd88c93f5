"""The wheel: it builds from the sources alone, ships the rules inside the package, and runs once installed.

The wheel is built from a copy of the sources that is deleted before installing, and installed into a fresh
virtual environment, so that nothing can fall back to this checkout (DESIGN §2.1: rules -> watchlint/_rules).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from collections.abc import Sequence
from pathlib import Path

import pytest
from conftest import REPO, validate_sarif

import watchlint

pytestmark = pytest.mark.slow

RULE_FILES = [f"WL00{number}.md" for number in range(1, 6)]
SOURCES = ("pyproject.toml", "README.md", "watchlint", "rules")
TIMEOUT = 120  # seconds per command; a whole test stays well under a minute on an idle machine


def repository_url() -> str:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return str(project["urls"]["Repository"])


def run(command: Sequence[str | Path], cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}
    environment["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


def run_ok(command: Sequence[str | Path], cwd: Path) -> subprocess.CompletedProcess[str]:
    result = run(command, cwd)
    assert result.returncode == 0, f"{command}:\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the wheel from a copy of the sources, then delete the copy."""
    work = tmp_path_factory.mktemp("build")
    copy = work / "source"
    copy.mkdir()
    for name in SOURCES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, copy / name)
    dist = work / "dist"
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", dist]
    run_ok([*command, copy], cwd=work)
    shutil.rmtree(copy)
    (built,) = dist.glob("watchlint-*.whl")
    return built


@pytest.fixture(scope="module")
def environment(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel installed and the dependencies of the running environment."""
    env = tmp_path_factory.mktemp("env") / "venv"
    run_ok([sys.executable, "-m", "venv", "--system-site-packages", env], cwd=env.parent)
    python = env / "bin" / "python"
    purelib = run_ok([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=env.parent)
    # --system-site-packages reaches the base interpreter, not the running environment when that is itself a
    # venv; a .pth file lists its site-packages after the new environment's own (plain paths: their .pth files,
    # the editable install of this checkout among them, are not processed).
    running = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
    Path(purelib.stdout.strip(), "_running_environment.pth").write_text("\n".join(running) + "\n", encoding="utf-8")
    run_ok([env / "bin" / "pip", "install", "--no-deps", "--no-index", wheel], cwd=env.parent)
    return env


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """An unrelated working directory: no pyproject.toml, no rules/, no watchlint/ around it."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    return folder


def test_wheel_ships_the_package_and_the_rules(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert wheel.name == f"watchlint-{watchlint.__version__}-py3-none-any.whl"
    assert {f"watchlint/_rules/{name}" for name in [*RULE_FILES, "kinds.toml"]} <= names
    assert {"watchlint/__init__.py", "watchlint/cli.py", "watchlint/checks/__init__.py"} <= names
    assert sorted(name for name in names if name.startswith("watchlint/_rules/")) == sorted(
        f"watchlint/_rules/{path.name}" for path in (REPO / "rules").iterdir() if path.is_file()
    )
    assert [name for name in names if name.split("/")[0] in ("tests", "examples", "rules")] == []


def test_wheel_metadata_names_the_repository(wheel: Path) -> None:
    info = f"watchlint-{watchlint.__version__}.dist-info"
    with zipfile.ZipFile(wheel) as archive:
        metadata = archive.read(f"{info}/METADATA").decode("utf-8")
        entry_points = archive.read(f"{info}/entry_points.txt").decode("utf-8")
    assert f"Version: {watchlint.__version__}" in metadata.splitlines()
    assert [line for line in metadata.splitlines() if line.startswith("Project-URL:")] == [
        f"Project-URL: Repository, {repository_url()}"
    ]
    assert "watchlint = watchlint.launch:main" in entry_points.splitlines()


def test_wheel_hard_codes_the_repository_url_only_in_its_metadata(wheel: Path) -> None:
    url = repository_url()
    host_and_path = url.split("://", 1)[1].encode("utf-8")
    with zipfile.ZipFile(wheel) as archive:
        holders = [name for name in archive.namelist() if host_and_path in archive.read(name)]
        metadata = archive.read(f"watchlint-{watchlint.__version__}.dist-info/METADATA").decode("utf-8")
    assert holders == [f"watchlint-{watchlint.__version__}.dist-info/METADATA"]
    headers = metadata.split("\n\n", 1)[0]  # the body is the README, whose snippets test_integrations checks
    assert [line for line in headers.splitlines() if url.split("://", 1)[1] in line] == [
        f"Project-URL: Repository, {url}"
    ]


def test_installed_package_is_the_wheel_not_the_checkout(environment: Path, elsewhere: Path) -> None:
    code = "import watchlint, watchlint.catalog as c; print(watchlint.__file__); print(c.rules_directory())"
    module, rules = run_ok([environment / "bin" / "python", "-c", code], cwd=elsewhere).stdout.splitlines()
    assert Path(module).is_relative_to(environment)
    assert Path(module).parent.name == "watchlint"
    assert Path(rules) == Path(module).parent / "_rules"
    assert sorted(path.name for path in Path(rules).glob("WL*.md")) == RULE_FILES
    assert (Path(rules) / "WL001.md").read_text(encoding="utf-8") == (REPO / "rules" / "WL001.md").read_text(
        encoding="utf-8"
    )


def test_installed_watchlint_prints_its_version(environment: Path, elsewhere: Path) -> None:
    result = run_ok([environment / "bin" / "watchlint", "--version"], cwd=elsewhere)
    assert result.stdout == f"watchlint {watchlint.__version__}\n"


def test_installed_watchlint_rule_prints_the_packaged_doc(environment: Path, elsewhere: Path) -> None:
    result = run_ok([environment / "bin" / "watchlint", "rule", "WL001"], cwd=elsewhere)
    assert result.stdout.splitlines()[0] == "WL001 unfiltered-watch"
    assert "\nWHAT IT DOES\n" in result.stdout
    assert result.stderr == ""


def test_installed_watchlint_rules_lists_the_five_rules(environment: Path, elsewhere: Path) -> None:
    result = run_ok([environment / "bin" / "watchlint", "rules"], cwd=elsewhere)
    assert [line.split()[0] for line in result.stdout.splitlines()] == [name.removesuffix(".md") for name in RULE_FILES]


def test_installed_watchlint_checks_the_examples_in_sarif(environment: Path, elsewhere: Path) -> None:
    result = run([environment / "bin" / "watchlint", "check", "--format", "sarif", REPO / "examples"], cwd=elsewhere)
    assert result.returncode in (0, 1), result.stderr
    run_log = validate_sarif(result.stdout)["runs"][0]
    rules = run_log["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == [name.removesuffix(".md") for name in RULE_FILES]
    # No pyproject.toml beside the installed package: the URL comes from the installed metadata.
    assert [rule["helpUri"].startswith(repository_url() + "/") for rule in rules] == [True] * len(RULE_FILES)
    assert run_log["tool"]["driver"]["informationUri"] == repository_url()
