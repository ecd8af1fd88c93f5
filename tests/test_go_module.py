"""go.mod reading: the directives a tracked library's version comes from, and those that do not give one."""

from __future__ import annotations

import pytest

from watchlint.go.module import CONTROLLER_RUNTIME, DYNAMICLISTENER, parse_go_mod, release

LISTENER_REQUIRED = f"""module example.com/webhook

go 1.22

require (
	{DYNAMICLISTENER} v0.6.1 // the old release
	{CONTROLLER_RUNTIME} v0.19.0
)
"""


@pytest.mark.parametrize(
    ("directive", "version"),
    [
        ("", "v0.6.1"),
        (f"replace {DYNAMICLISTENER} => {DYNAMICLISTENER} v0.9.0", "v0.9.0"),
        (f"replace (\n\t{DYNAMICLISTENER} v0.6.1 => {DYNAMICLISTENER} v0.9.0\n)", "v0.9.0"),
        (f"replace {DYNAMICLISTENER} v0.9.0 => {DYNAMICLISTENER} v0.8.0", "v0.6.1"),
        (f"replace {DYNAMICLISTENER} => github.com/example/dynamiclistener v0.9.0", None),
        (f"replace {DYNAMICLISTENER} => ./third_party/dynamiclistener", None),
        (f"exclude (\n\t{DYNAMICLISTENER} v0.7.1\n)", "v0.6.1"),
        (f"retract v0.1.0\nexclude {DYNAMICLISTENER} v0.9.0", "v0.6.1"),
        (f"replace(\n\t{DYNAMICLISTENER} => {DYNAMICLISTENER} v0.9.0\n)", "v0.9.0"),
    ],
)
def test_a_tracked_librarys_version_is_the_one_the_build_uses(directive: str, version: str | None) -> None:
    """A `replace` of the same module puts its version in place (only where it names no other version to
    replace); one naming a fork or a folder leaves the release unknown; `exclude` and `retract` require nothing."""
    assert parse_go_mod(f"{LISTENER_REQUIRED}\n{directive}\n").required(DYNAMICLISTENER) == version


def test_a_block_opened_against_its_directive_is_read() -> None:
    """`require(` without a space is a block, as the go command reads it."""
    module = parse_go_mod(f"module example.com/x\n\nrequire(\n\t{CONTROLLER_RUNTIME} v0.14.6\n)\n")
    assert module.controller_runtime == (0, 14, 6)


def test_controller_runtime_replaced_by_a_fork_keeps_the_version_required() -> None:
    """A fork of controller-runtime has the option shapes of the release it forks: the one required."""
    text = f"{LISTENER_REQUIRED}\nreplace {CONTROLLER_RUNTIME} => github.com/example/controller-runtime v0.14.1\n"
    assert parse_go_mod(text).controller_runtime == (0, 19, 0)


@pytest.mark.parametrize(
    ("version", "parsed"),
    [
        ("v0.7.1", ((0, 7, 1), False)),
        ("v0.7.1-rc1", ((0, 7, 1), True)),
        ("v0.7.1-0.20250812122709-5bcd92291962", ((0, 7, 1), True)),
        ("v2.0.0+incompatible", ((2, 0, 0), False)),
        ("master", None),
    ],
)
def test_a_release_before_its_numbers_is_told_apart(version: str, parsed: object) -> None:
    assert release(version) == parsed
