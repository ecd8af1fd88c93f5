"""What one kopf project is made of: its package, the kind it serves, its API group, client library and
build backend, drawn from the project's own random.Random."""

from __future__ import annotations

import random

from synthetic.vocabulary import CRD_KINDS, plural_of


class KopfPlan:
    """The choices drawn for one kopf project; the renderers of its files read them, and draw from its
    `rng` in the order the files are written."""

    def __init__(self, rng: random.Random, index: int, name: str) -> None:
        self.rng = rng
        self.name = name
        self.package = name.replace("-", "_")
        self.base = f"kopf/{name}"
        self.kind = CRD_KINDS[(index * 5 + 2) % len(CRD_KINDS)]
        self.plural = plural_of(self.kind)
        self.group = f"{name.split('-')[1]}.example.org"
        self.asyncio = rng.random() < 0.3
        self.client_module = "kubernetes_asyncio" if self.asyncio else "kubernetes"
        self.build = rng.choice(("setuptools", "hatchling", "poetry"))
