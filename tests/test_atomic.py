"""Atomic replacement of reports, baselines, fixed files and cache entries."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from watchlint.atomic import write_atomically


def test_new_file_gets_the_umask_mode_not_a_private_one(tmp_path: Path) -> None:
    previous = os.umask(0o022)
    try:
        write_atomically(tmp_path / "report.sarif", b"{}\n")
    finally:
        os.umask(previous)
    assert (tmp_path / "report.sarif").read_bytes() == b"{}\n"
    assert (tmp_path / "report.sarif").stat().st_mode & 0o777 == 0o644


def test_existing_file_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "main.go"
    target.write_bytes(b"old\n")
    target.chmod(0o755)
    write_atomically(target, b"new\n")
    assert (target.read_bytes(), target.stat().st_mode & 0o777) == (b"new\n", 0o755)


def test_a_failed_rename_keeps_the_old_content_and_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "baseline.json"
    target.write_bytes(b"old\n")

    def refuse(source: str, destination: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="No space left"):
        write_atomically(target, b"new\n")
    assert [path.name for path in tmp_path.iterdir()] == ["baseline.json"]
    assert target.read_bytes() == b"old\n"


def test_the_temporary_file_is_never_one_that_exists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "report.json"
    taken = tmp_path / f".report.json.{'00' * 6}.watchlint"
    taken.write_bytes(b"someone else's\n")
    draws = iter([b"\0" * 6, b"\1" * 6])
    monkeypatch.setattr(os, "urandom", lambda size: next(draws))
    write_atomically(target, b"{}\n")
    assert (target.read_bytes(), taken.read_bytes()) == (b"{}\n", b"someone else's\n")
    assert sorted(path.name for path in tmp_path.iterdir()) == [taken.name, "report.json"]
