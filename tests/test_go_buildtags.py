"""Build constraints (watchlint/go/buildtags.py): which files a plain `go build` on linux/amd64 compiles."""

from __future__ import annotations

import pytest

from watchlint.go.buildtags import in_default_build


@pytest.mark.parametrize(
    ("head", "built"),
    [
        ("package x\n", True),
        ("//go:build integration\n\npackage x\n", False),
        ("// Copyright the authors.\n\n//go:build e2e || integration\n// +build e2e integration\n\npackage x\n", False),
        ("//go:build tools\npackage tools\n", False),
        ("//go:build !integration\npackage x\n", True),
        ("//go:build linux\npackage x\n", True),
        ("//go:build windows || darwin\npackage x\n", False),
        ("//go:build (linux && amd64) || darwin\npackage x\n", True),
        ("//go:build linux && !(arm64 || enterprise)\npackage x\n", True),
        ("//go:build go1.21 && !oss\npackage x\n", True),
        ("//go:build ignore // a generator\npackage main\n", False),
        ("package x\n\n//go:build integration\n", True),  # after the package clause: no constraint
        ("//go:build linux &&\npackage x\n", True),  # does not parse: analyzed, as without one
        ("//go:build ((linux)\npackage x\n", True),
    ],
)
def test_a_file_is_in_the_default_build_where_its_constraint_holds_for_linux_amd64(head: str, built: bool) -> None:
    assert in_default_build(head.encode()) is built
