"""What one Go operator module is made of: its era, cache mode, layout and kinds, and the Controller plan of
each reconciler, all drawn from the module's own random.Random."""

from __future__ import annotations

import random
from dataclasses import dataclass

from synthetic.utilities import GO_UTILITIES
from synthetic.vocabulary import CACHE_MODES, CRD_KINDS, ERAS, GETTABLE, LISTABLE, OWNABLE, WATCHABLE


@dataclass(slots=True)
class Controller:
    """One reconciler and what it watches and reads."""

    kind: str  # the CRD it reconciles, or a built-in kind for a core controller
    builtin: bool
    owns: list[str]
    watches: list[str]
    gets: list[str]
    lists: list[str]
    api_reader: bool  # the reconciler has an APIReader field
    only_metadata: bool
    predicates: bool
    fillers: int


class OperatorPlan:
    """The choices drawn for one operator module; the renderers of its files read them, and draw from
    its `rng` in the order the files are written."""

    def __init__(self, rng: random.Random, index: int, name: str) -> None:
        self.rng = rng
        self.index = index
        self.name = name
        self.era = ERAS[index % len(ERAS)] if index < len(ERAS) else rng.choice(ERAS)
        self.cache_mode = CACHE_MODES[index % len(CACHE_MODES)] if index < len(CACHE_MODES) else rng.choice(CACHE_MODES)
        self.old_layout = self.era.minor < 15 or rng.random() < 0.15
        self.base = f"operators/{name}"
        self.org = rng.choice(("acme", "initech", "globex", "umbrella", "hooli", "vandelay"))
        self.module = f"example.com/{self.org}/{name}"
        self.group = f"{name.split('-')[1]}.{self.org}.example.com"
        self.group_alias = f"{name.split('-')[1]}v1"
        self.kinds = rng.sample(CRD_KINDS, rng.randint(3, 5))
        self.vendored = index % 2 == 1  # half the modules vendor their dependencies
        self.codegen = rng.random() < 0.35
        self.controllers = self._plan_controllers()
        self.controller_dir = "controllers" if self.old_layout else "internal/controller"
        self.controller_package = "controllers" if self.old_layout else "controller"
        self.main_path = "main.go" if self.old_layout else "cmd/main.go"
        self.helper_package = rng.choice(("resources", "kube", "objects", "apply"))
        self.utils = rng.sample(list(GO_UTILITIES), rng.randint(2, 3))
        self.disabled = rng.sample(["Secret", "ConfigMap", "ServiceAccount"], rng.randint(1, 2))
        self.selected = rng.choice(["Secret", "ConfigMap"])

    def _plan_controllers(self) -> list[Controller]:
        rng = self.rng
        plans = []
        for kind in self.kinds:
            plans.append(
                Controller(
                    kind=kind,
                    builtin=False,
                    owns=rng.sample(OWNABLE, rng.randint(1, 3)),
                    watches=rng.sample(WATCHABLE, rng.randint(0, 2)),
                    gets=rng.sample(GETTABLE, rng.randint(1, 3)),
                    lists=rng.sample(LISTABLE, rng.randint(0, 2)),
                    api_reader=rng.random() < 0.35,
                    only_metadata=rng.random() < 0.2,
                    predicates=rng.random() < 0.4,
                    fillers=rng.randint(2, 5),
                )
            )
        if rng.random() < 0.5:  # a controller of a built-in kind (labels, syncs or audits it)
            kind = rng.choice(("Secret", "ConfigMap", "Pod", "ServiceAccount"))
            plans.append(
                Controller(
                    kind=kind,
                    builtin=True,
                    owns=[],
                    watches=[],
                    gets=rng.sample(GETTABLE, 1),
                    lists=[],
                    api_reader=False,
                    only_metadata=False,
                    predicates=rng.random() < 0.5,
                    fillers=rng.randint(1, 3),
                )
            )
        return plans
