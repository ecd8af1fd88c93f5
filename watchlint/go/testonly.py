"""Packages only a module's tests can run: imported by no other file of the module, and under an `internal/` folder or
a folder named as test support is (`itest/`, `testutil/`, `testingjobs/`), or importing package `testing`, a test
framework (ginkgo, gomega, testify, envtest) or a fake client outside a test file. Go lets only the tree holding
`internal/` import such a package, so when no binary or other package of the module imports it (envtest fakes and
suite helpers imported by `_test.go` files alone), no deployment runs it; a test-support folder's name says as much
of the helpers integration tests share (starboard's `itest/helper`, kueue's `testingjobs/job`), and so do test
imports of a library's test suite (gateway-api's conformance helpers, each taking a `*testing.T`; kserve's envtest
`fixture` package). A package only such packages import is one too (percona's `internal/bridge`, which only a
test-only controller package imports; kueue's `pkg/util/testing`). Their sites are test code's: analyzed only with
--include-tests.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from watchlint.go.imports import imported_paths
from watchlint.go.model import GoFile

# folders named for the code tests share; `test`, `tests` and `e2e` are left out of discovery whole
_TEST_SUPPORT = frozenset(
    {"itest", "itests", "testutil", "testutils", "testhelper", "testhelpers", "testing", "testinfra", "testsupport"}
)
_TEST_SUPPORT_PREFIXES = ("testing", "testutil", "testhelper")
# packages of tests, which code a binary runs has no use for: the standard library's, and the test frameworks'
_TEST_LIBRARIES = (
    "testing",
    "github.com/onsi/ginkgo",
    "github.com/onsi/gomega",
    "github.com/stretchr/testify",
    "sigs.k8s.io/controller-runtime/pkg/envtest",
)
_TEST_LIBRARY_FOLDERS = tuple(f"{library}/" for library in _TEST_LIBRARIES)  # their packages
# the fake clients, which read and write objects held in memory: a package importing one that no other imports
# is test support (mongodb-kubernetes' `mock`); a file of a package others import may build one for a dry run
_FAKE_CLIENTS = (
    "sigs.k8s.io/controller-runtime/pkg/client/fake",
    "k8s.io/client-go/kubernetes/fake",
    "k8s.io/client-go/dynamic/fake",
    "k8s.io/client-go/testing",
)
# an import path with an `internal` element, as a generated file (left unparsed) may quote it
_INTERNAL_PATH = re.compile(rb'"([^"\n]*/internal(?:/[^"\n]*)?)"')


def quoted_internal_paths(data: bytes) -> set[str]:
    """The import paths under an `internal/` folder that an unparsed (generated) file quotes: a `wire_gen.go`
    of a binary may be the one file importing a package."""
    return {match.decode("utf-8", "replace") for match in _INTERNAL_PATH.findall(data)}


def test_only_packages(
    files: Iterable[GoFile], also_imported: set[str], module_paths: frozenset[str]
) -> frozenset[str]:
    """The module's packages under an `internal/` folder of its own, named as test support or importing package
    testing or a test framework, that no file imports, main packages aside, nor any package but those (one only
    such a package imports is one too)."""
    files = list(files)
    imports = [(file.package_path, imported_paths(file)) for file in files]
    candidates = {
        file.package_path
        for file, (_, paths) in zip(files, imports, strict=True)
        if file.package_name != "main"
        and (
            _test_only_elements(file.package_path, module_paths)
            or (not file.is_test and (_imports_tests(paths) or not paths.isdisjoint(_FAKE_CLIENTS)))
        )
    }
    test_only: set[str] = set()
    while True:
        imported = {path for package, paths in imports if package not in test_only for path in paths} | also_imported
        found = candidates - imported
        if found <= test_only:
            return frozenset(test_only)
        test_only |= found


def imports_test_framework(file: GoFile) -> bool:
    """Whether a file imports package testing or a test framework: wave's `controller_suite.go`, a ginkgo
    suite the controllers' tests share, beside the code it tests."""
    return _imports_tests(imported_paths(file))


def _imports_tests(paths: frozenset[str]) -> bool:
    """Whether a file imports package testing or a test framework (ginkgo, gomega, testify, envtest)."""
    return any(path in _TEST_LIBRARIES or path.startswith(_TEST_LIBRARY_FOLDERS) for path in paths)


def _test_only_elements(package: str, module_paths: frozenset[str]) -> set[str]:
    """The elements of a package's path that make it test code: an `internal` element inside its own module (one
    in the module path itself, `corp.example/internal/op`, lets packages of other modules import it), a
    test-support name inside the outermost module holding it (a module nested in `pkg/testhelper/` is the
    outer module's test support)."""
    holding = sorted(
        (module for module in module_paths if package == module or package.startswith(module + "/")), key=len
    )
    if not holding:
        return set()
    own = set(package[len(holding[-1]) :].split("/")) & {"internal"}
    return own | {element for element in package[len(holding[0]) :].split("/") if _names_test_support(element)}


def names_test_support(path: str) -> bool:
    """Whether a file that is no test is named as test support: `test_helper.go`, `cluster_watcher_test_util.go`,
    `testutil.go`; its helpers build fakes for the tests of its package and of others."""
    stem = path.rsplit("/", 1)[-1].removesuffix(".go")
    return any(element in ("test", "tests") or _names_test_support(element) for element in stem.split("_"))


def _names_test_support(element: str) -> bool:
    """A folder named as test support, or for what it holds of it (kueue's `testingjobs`, `testutilpods`)."""
    return element in _TEST_SUPPORT or element.startswith(_TEST_SUPPORT_PREFIXES)
