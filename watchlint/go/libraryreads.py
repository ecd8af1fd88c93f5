"""Library functions known to read one kind through the client their caller hands them.

Their read happens in a dependency, which is never analyzed: the site is the call, judged by the client passed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LibraryRead:
    """A library function's Get of `kind` (of Go package `package`) through its argument at `client`; `read`
    says what it reads, for the finding's note."""

    client: int
    kind: str
    package: str
    read: str


# crossplane-runtime's credential extraction gets the Secret a ProviderConfig names (crossplane/crossplane-runtime
# issue 1056: every provider passing the manager's client caches every Secret of the cluster)
_CORE_V1 = "k8s.io/api/core/v1"
_CROSSPLANE_RESOURCE = "github.com/crossplane/crossplane-runtime/pkg/resource"
_READS = {
    (_CROSSPLANE_RESOURCE, "CommonCredentialExtractor"): LibraryRead(
        2, "Secret", _CORE_V1, "the credentials Secret its selector names"
    ),
    (_CROSSPLANE_RESOURCE, "ExtractSecret"): LibraryRead(1, "Secret", _CORE_V1, "the Secret its selector names"),
}
_MAJOR_VERSION = re.compile(r"/v\d+(?=/)")  # `crossplane-runtime/v2/pkg/resource` is the same package


def library_read(package: str | None, name: str) -> LibraryRead | None:
    """The read a call of `name` from the imported `package` makes, if it is a known one."""
    if package is None:
        return None
    return _READS.get((_MAJOR_VERSION.sub("", package, count=1), name))
