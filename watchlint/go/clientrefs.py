"""References to controller-runtime clients, recorded while the module's files are read and resolved once it
is known: a known client, or the field, parameter or function result it flows through."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

import tree_sitter

from watchlint.facts import Access, Evidence
from watchlint.go.declarations import FunctionKey
from watchlint.go.model import GoFile, TypeRef
from watchlint.source import Span

PACKAGE_SCOPE = "<package>"  # the pseudo-struct whose fields are a package's variables


@dataclass(frozen=True, slots=True)
class Known:
    """A client whose access is decided, with the evidence of where it comes from."""

    access: Access
    evidence: Evidence | None
    cache: str = ""  # the policy key of a second cache built with cluster.New; "" for the manager's
    roots: tuple[Span, ...] = ()  # where the chains of references start (`mgr.GetClient()`), if not here
    is_cache_itself: bool = False  # `mgr.GetCache()`: the cache read directly, which client options never see
    cluster_client: bool = False  # a cluster's `GetClient()`: the DisableFor of that cluster's client options applies
    own_client: Span | None = None  # client.New over a cache: its CacheOptions literal, whose DisableFor applies
    # such a client and the manager's own are both given (kruise's configuration helper): that DisableFor alone
    # would leave the manager's client reading the cache
    own_client_shared: bool = False
    # every chain starts at a manager's own `GetClient()`: the DisableFor of a client.New's options, which serve
    # that client only, does not apply
    manager_client: bool = False
    # the caches the reference's other cache-backed values read, besides `cache` ("" for the manager's): a helper
    # given a cluster's client by one caller and the manager's by another reads both
    other_caches: tuple[str, ...] = ()
    # of those: where the chains giving the manager's client start, where other chains give a second cache's
    # (hypershift's karpenter-operator hands a helper its management cluster's client, the other binary its
    # manager's): the binaries holding these run the helper with their manager's cache
    manager_roots: tuple[Span, ...] = ()
    # every chain starts at a `GetClient()` called on a module interface, taken for a manager's without telling
    # which (kamaji's resources' `r.GetClient()`): beside chains from a known manager, it does not name one
    through_interface: bool = False

    @property
    def origins(self) -> tuple[Span, ...]:
        """Where the client comes from: the calls at the start of the chains that reach this reference (a
        field given the client of several binaries' managers has one per binary)."""
        return self.roots or ((self.evidence.span,) if self.evidence is not None else ())


@dataclass(frozen=True, slots=True)
class FieldRef:
    """A struct field holding a client (a package variable is a field of PACKAGE_SCOPE)."""

    struct: TypeRef  # the struct that declares the field
    field: str
    # read on a parameter every call fills with a literal of the struct (`KAS(comp.Ctx{Client: c})`): the
    # function and the parameter's position, whose calls' literals hold what the field does here
    passed: tuple[FunctionKey, int] | None = None
    # read through a struct embedding the declaring one (`s.client` of a `stateOFED` embedding `stateSkel`):
    # the outer struct, whose literals' embedded values hold what the field does here
    within: TypeRef | None = None


@dataclass(frozen=True, slots=True)
class ParamRef:
    """A function parameter holding a client: what the module's calls pass decides."""

    function: FunctionKey
    index: int
    name: str


@dataclass(frozen=True, slots=True)
class ReturnRef:
    """What a same-module function returns, such as `GetKubernetesClient() (client.Client, error)`."""

    function: FunctionKey
    index: int = 0  # which of the function's results (`_, cl, cfg := setupEnv(…)` reads the second)
    # the other methods a call through a module interface may run (chaos-mesh's local client and per-token
    # pool): what each returns may be the value
    also: tuple[FunctionKey, ...] = ()


@dataclass(frozen=True, slots=True)
class LocalRef:
    """A local a function declares with one client and assigns another later (`reader := pm.apiReader; if cached
    { reader = pm.client }`): each value may be the one read."""

    path: str  # the file declaring it
    start: int  # the first byte of the value it is declared with
    name: str
    # the values assigned before the read that replace the first one (`if r.APIReader != nil { reader =
    # r.APIReader }`, or outright): where one runs by default, the first is a fallback for that read
    replacing: tuple[int, ...] = ()


class Marker(enum.Enum):
    """A reference decided without following it."""

    NOT_CLIENT = "not-client"  # a receiver whose type is known and is no controller-runtime client
    UNKNOWN = "unknown"  # a client whose origin cannot be told: cache-backed (SPEC §3.1)


@dataclass(frozen=True, slots=True)
class ForeignRef:
    """A client another module's function returns (`singleton.KubeClient.Get()`): how it is built is not seen,
    so it is taken as cache-backed (SPEC §3.1), and the note names the call."""

    span: Span
    text: str


ClientRef = Known | FieldRef | ParamRef | ReturnRef | LocalRef | ForeignRef | Marker


@dataclass(frozen=True, slots=True)
class Assigned:
    """A value that flows into a field or parameter, where it is written."""

    ref: ClientRef
    span: Span  # where the value is written
    text: str
    fallback: bool = False  # a default for where another value is nil (`if r.reader == nil { r.reader = c }`)
    in_test: bool = False  # written in test code (GoFile.is_test)
    # the value's file and node, to tell whether that code runs by default; not part of the value's identity
    place: tuple[GoFile, tree_sitter.Node] | None = field(default=None, compare=False, repr=False)
