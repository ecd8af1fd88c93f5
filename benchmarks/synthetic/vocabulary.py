"""Names, kinds, controller-runtime eras and cache modes the generated tree draws from, and the small
helpers its templates share: identifier case, plurals, Go import blocks."""

from __future__ import annotations

import re
from dataclasses import dataclass

PREFIXES = [
    "aurora",
    "basalt",
    "cobalt",
    "delta",
    "ember",
    "fjord",
    "granite",
    "harbor",
    "indigo",
    "juniper",
    "kestrel",
    "lumen",
    "meadow",
    "nimbus",
    "onyx",
    "prairie",
    "quartz",
    "raven",
    "sierra",
    "tundra",
    "umber",
    "vesper",
    "willow",
    "yarrow",
    "zephyr",
    "alder",
    "birch",
    "cedar",
    "dune",
    "estuary",
]
DOMAINS = ["storage", "network", "identity", "billing", "search", "media", "ledger", "mail", "edge", "data"]
CRD_KINDS = [
    "Bookshelf",
    "Gateway",
    "Tenant",
    "Database",
    "Backup",
    "Queue",
    "Pipeline",
    "Mailbox",
    "Dashboard",
    "Registry",
    "Mirror",
    "Runner",
    "Sandbox",
    "Ledger",
    "Schedule",
    "Tunnel",
    "Workspace",
    "Bucket",
    "Exporter",
    "Snapshot",
    "Rollout",
    "Listener",
    "Topic",
    "Index",
    "Shard",
    "Replica",
    "Route",
    "Policy",
    "Quota",
    "Webhook",
    "Secretstore",
    "Volume",
    "Broker",
    "Channel",
    "Stream",
    "Notebook",
]

# (alias, import path, kind) of the built-in kinds the templates use.
CORE = ("corev1", "k8s.io/api/core/v1")
APPS = ("appsv1", "k8s.io/api/apps/v1")
BATCH = ("batchv1", "k8s.io/api/batch/v1")
DISCOVERY = ("discoveryv1", "k8s.io/api/discovery/v1")
NETWORKING = ("networkingv1", "k8s.io/api/networking/v1")
BUILTIN = {
    "Secret": CORE,
    "ConfigMap": CORE,
    "Pod": CORE,
    "Event": CORE,
    "Endpoints": CORE,
    "ServiceAccount": CORE,
    "Service": CORE,
    "PersistentVolumeClaim": CORE,
    "Deployment": APPS,
    "StatefulSet": APPS,
    "ReplicaSet": APPS,
    "Job": BATCH,
    "CronJob": BATCH,
    "EndpointSlice": DISCOVERY,
    "Ingress": NETWORKING,
}
OWNABLE = ("ConfigMap", "Secret", "Deployment", "StatefulSet", "Service", "Job", "ServiceAccount", "Ingress", "CronJob")
WATCHABLE = ("Secret", "ConfigMap", "Pod", "Endpoints", "EndpointSlice", "Event", "Job")
GETTABLE = ("Secret", "ConfigMap", "ServiceAccount", "Deployment", "Service", "PersistentVolumeClaim")
LISTABLE = ("Pod", "ReplicaSet", "Event", "Job", "EndpointSlice", "ConfigMap")


@dataclass(frozen=True, slots=True)
class Era:
    """A controller-runtime release line and the Kubernetes libraries it goes with."""

    controller_runtime: str
    kubernetes: str
    go: str

    @property
    def minor(self) -> int:
        return int(self.controller_runtime.split(".")[1])


ERAS = (
    Era("v0.14.6", "v0.26.3", "1.19"),
    Era("v0.15.3", "v0.27.7", "1.20"),
    Era("v0.16.3", "v0.28.4", "1.21"),
    Era("v0.17.5", "v0.29.6", "1.21"),
    Era("v0.18.5", "v0.30.3", "1.22"),
    Era("v0.19.1", "v0.31.2", "1.22"),
    Era("v0.20.2", "v0.32.1", "1.23"),
)
CACHE_MODES = ("none", "by-object", "namespace-flag", "disable-for", "by-object+disable-for")


def snake(name: str) -> str:
    out = []
    for index, char in enumerate(name):
        if char.isupper() and index:
            out.append("_")
        out.append(char.lower())
    return "".join(out)


def lower_first(name: str) -> str:
    return name[:1].lower() + name[1:]


def plural_of(kind: str) -> str:
    lower = kind.lower()
    if lower.endswith(("s", "x", "sh", "ch")):
        return lower + "es"
    if lower.endswith("y") and lower[-2:-1] not in "aeiou":
        return lower[:-1] + "ies"
    return lower + "s"


def prune_imports(text: str) -> str:
    """Drop the imports the file does not use (Go refuses them), and the blank lines left behind."""
    head, _, rest = text.partition("import (\n")
    block, _, body = rest.partition("\n)\n")
    kept = []
    for line in block.split("\n"):
        match = re.match(r'\t(?:(\w+) )?"([^"]+)"', line)
        if match:
            ident = match.group(1) or match.group(2).rsplit("/", 1)[-1]
            if not re.search(rf"\b{re.escape(ident)}\.", body):
                continue
        kept.append(line)
    cleaned = "\n".join(kept)
    while "\n\n\n" in cleaned:
        cleaned = cleaned.replace("\n\n\n", "\n\n")
    cleaned = cleaned.strip("\n")
    return (head + "import (\n" + cleaned + "\n)\n" + body).replace("\n\n\n", "\n\n")


def go_imports(lines: list[tuple[str, str]], groups: list[list[tuple[str, str]]] | None = None) -> str:
    """An import block: standard library first, then each group, gofmt-sorted by path."""
    blocks = []
    for group in [lines, *(groups or [])]:
        if not group:
            continue
        entries = sorted(set(group), key=lambda item: item[1])
        blocks.append("\n".join(f'\t{alias + " " if alias else ""}"{path}"' for alias, path in entries))
    return "import (\n" + "\n\n".join(blocks) + "\n)\n"
