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
    # where the argument at `client` is an options struct: the field of it holding the client ("" for the client)
    field: str = ""
    takes_reader: bool = False  # the client is declared a client.Reader: mgr.GetAPIReader() may be passed
    # where options leaving `field` unset make the library read through the manager at this argument (its
    # GetClient(), which reads the manager's cache)
    unset_reads_manager: int | None = None
    # the argument at `client` is a manager, read through its GetClient(), unless an option of this name is
    # among the arguments (crossplane-runtime's NewReconciler publishes through its own client by default)
    default_unless: str = ""
    # the major version of the library from which that option is no longer public (crossplane-runtime v2 keeps
    # WithConnectionPublishers for its tests): a note no longer offers it
    option_until: int = 0


# crossplane-runtime's credential extraction gets the Secret a ProviderConfig names (crossplane/crossplane-runtime
# issue 1056: every provider passing the manager's client caches every Secret of the cluster)
_CORE_V1 = "k8s.io/api/core/v1"
_CROSSPLANE_RESOURCE = "github.com/crossplane/crossplane-runtime/pkg/resource"
# its connection publisher applies (gets, then creates or updates) the connection Secret a managed resource names;
# a managed reconciler given no publisher of its own builds one over the manager's client
_CROSSPLANE_MANAGED = "github.com/crossplane/crossplane-runtime/pkg/reconciler/managed"
_CONNECTION_SECRET = "the connection Secret each managed resource names"
# Flux's helpers get the Secret (or ServiceAccount, then each of its image pull Secrets) a reference names; its
# impersonator gets the ServiceAccount it impersonates (CanImpersonate) through the client it is built with
_FLUX_SECRETS = "github.com/fluxcd/pkg/runtime/secrets"
_FLUX_CLIENT = "github.com/fluxcd/pkg/runtime/client"
# Cluster API's ClusterCache gets each workload cluster's kubeconfig Secret through the client its options name:
# providers hand it a client reading through the manager's cache (`secretCachingClient`)
_CAPI_CLUSTERCACHE = "sigs.k8s.io/cluster-api/controllers/clustercache"
_CAPI_REMOTE = "sigs.k8s.io/cluster-api/controllers/remote"
_KUBECONFIG = "the kubeconfig Secret of each workload cluster"
_KUBECONFIG_OF_ONE = "the cluster's kubeconfig Secret"
# its util packages get a cluster's Secret of one purpose (kubeconfig, CA, …) through the reader they are given
_CAPI_SECRET = "sigs.k8s.io/cluster-api/util/secret"
_CAPI_KUBECONFIG = "sigs.k8s.io/cluster-api/util/kubeconfig"
_READS = {
    (_CAPI_CLUSTERCACHE, "SetupWithManager"): (
        LibraryRead(2, "Secret", _CORE_V1, _KUBECONFIG, "SecretClient", takes_reader=True),
    ),
    (_CAPI_REMOTE, "NewClusterCacheTracker"): (
        LibraryRead(1, "Secret", _CORE_V1, _KUBECONFIG, "SecretCachingClient", True, unset_reads_manager=0),
    ),
    # both get the kubeconfig Secret first (`kubeconfig.FromSecret`), then build a config or a client from it
    (_CAPI_REMOTE, "RESTConfig"): (LibraryRead(2, "Secret", _CORE_V1, _KUBECONFIG_OF_ONE, takes_reader=True),),
    (_CAPI_REMOTE, "NewClusterClient"): (LibraryRead(2, "Secret", _CORE_V1, _KUBECONFIG_OF_ONE),),
    (_CAPI_SECRET, "Get"): (
        LibraryRead(1, "Secret", _CORE_V1, "the cluster's Secret of the purpose it is given", takes_reader=True),
    ),
    (_CAPI_SECRET, "GetFromNamespacedName"): (
        LibraryRead(1, "Secret", _CORE_V1, "the Secret of the purpose it is given", takes_reader=True),
    ),
    (_CAPI_KUBECONFIG, "FromSecret"): (LibraryRead(1, "Secret", _CORE_V1, _KUBECONFIG_OF_ONE, takes_reader=True),),
    (_CROSSPLANE_RESOURCE, "CommonCredentialExtractor"): (
        LibraryRead(2, "Secret", _CORE_V1, "the credentials Secret its selector names"),
    ),
    (_CROSSPLANE_MANAGED, "NewAPISecretPublisher"): (LibraryRead(0, "Secret", _CORE_V1, _CONNECTION_SECRET),),
    (_CROSSPLANE_MANAGED, "NewReconciler"): (
        LibraryRead(
            0, "Secret", _CORE_V1, _CONNECTION_SECRET, default_unless="WithConnectionPublishers", option_until=2
        ),
    ),
    (_CROSSPLANE_RESOURCE, "ExtractSecret"): (LibraryRead(1, "Secret", _CORE_V1, "the Secret its selector names"),),
    (_FLUX_SECRETS, "TLSConfigFromSecretRef"): (
        LibraryRead(1, "Secret", _CORE_V1, "the TLS Secret its reference names"),
    ),
    (_FLUX_SECRETS, "ProxyURLFromSecretRef"): (
        LibraryRead(1, "Secret", _CORE_V1, "the proxy Secret its reference names"),
    ),
    (_FLUX_SECRETS, "PullSecretsFromServiceAccountRef"): (
        LibraryRead(1, "ServiceAccount", _CORE_V1, "the ServiceAccount its reference names"),
        LibraryRead(1, "Secret", _CORE_V1, "each image pull Secret of the ServiceAccount its reference names"),
    ),
}
# Methods reading through the client the value they are called on was built with, by the constructor's package,
# name and the method's name: `impersonation := client.NewImpersonator(r.Client, …)`, then
# `impersonation.CanImpersonate(ctx)` gets the ServiceAccount it would impersonate
_METHOD_READS = {
    (_FLUX_CLIENT, "NewImpersonator", "CanImpersonate"): (
        LibraryRead(0, "ServiceAccount", _CORE_V1, "the ServiceAccount it impersonates"),
    ),
}
_MAJOR_VERSION = re.compile(r"/v\d+(?=/)")  # `crossplane-runtime/v2/pkg/resource` is the same package


def major_version(package: str | None) -> int:
    """The major version an import path names (`…/crossplane-runtime/v2/pkg/…` is 2; none is 1)."""
    found = _MAJOR_VERSION.search(package or "")
    return int(found.group(0)[2:]) if found is not None else 1


def library_reads(package: str | None, name: str) -> tuple[LibraryRead, ...]:
    """The reads a call of `name` from the imported `package` makes, if it is a known function."""
    return _READS.get((unversioned(package), name), ()) if package is not None else ()


# the names of those methods: most calls are of none, and need not have their receiver traced
LIBRARY_METHODS = frozenset(method for _, _, method in _METHOD_READS)


def library_method_reads(package: str | None, constructor: str, method: str) -> tuple[LibraryRead, ...]:
    """The reads a method makes through the client given to the constructor (of the imported `package`) that
    built the value it is called on; `client` is the constructor's argument."""
    return _METHOD_READS.get((unversioned(package), constructor, method), ()) if package is not None else ()


def unversioned(package: str) -> str:
    """`…/crossplane-runtime/pkg/resource` of `…/crossplane-runtime/v2/pkg/resource`: one package to the tables."""
    return _MAJOR_VERSION.sub("", package, count=1)
