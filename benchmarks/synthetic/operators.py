"""A controller-runtime operator module under operators/<name>/: which file goes where, each rendered by the
module of its kind."""

from __future__ import annotations

import random

from synthetic import api_types, controllers, deepcopy, manager, support
from synthetic.operator_plan import OperatorPlan
from synthetic.utilities import GO_UTILITIES
from synthetic.vendor import write_vendor
from synthetic.writer import Writer


class GoOperator:
    """A controller-runtime operator module."""

    def __init__(self, rng: random.Random, index: int, name: str, writer: Writer) -> None:
        self.plan = OperatorPlan(rng, index, name)
        self.writer = writer

    def path(self, relative: str) -> str:
        return f"{self.plan.base}/{relative}"

    def write(self) -> str:
        """Write the module; return the path of its first controller file (relative to the root)."""
        operator = self.plan
        write = self.writer.write
        write(self.path("go.mod"), manager.go_mod(operator), "go.mod")
        write(self.path(operator.main_path), manager.main_go(operator), "go")
        api_dir = "api/v1"
        write(self.path(f"{api_dir}/groupversion_info.go"), api_types.groupversion(operator), "go")
        for kind in operator.kinds:
            write(self.path(f"{api_dir}/{kind.lower()}_types.go"), api_types.types(operator, kind), "go")
        write(self.path(f"{api_dir}/zz_generated.deepcopy.go"), deepcopy.deepcopy(operator), "go-generated")
        first = ""
        for controller in operator.controllers:
            relative = f"{operator.controller_dir}/{controller.kind.lower()}_controller.go"
            write(self.path(relative), controllers.controller(operator, controller), "go")
            first = first or self.path(relative)
        write(self.path(f"{operator.controller_dir}/common.go"), support.common(operator), "go")
        write(self.path(f"{operator.controller_dir}/suite_test.go"), support.suite_test(operator), "go-test")
        tested = operator.controllers[0]
        test_path = f"{operator.controller_dir}/{tested.kind.lower()}_controller_test.go"
        write(self.path(test_path), support.controller_test(operator, tested), "go-test")
        write(self.path(f"internal/{operator.helper_package}/configmaps.go"), support.helper_configmaps(operator), "go")
        write(self.path(f"internal/{operator.helper_package}/secrets.go"), support.helper_secrets(operator), "go")
        for util in operator.utils:
            write(self.path(f"pkg/{util}/{util}.go"), GO_UTILITIES[util](operator.rng, util), "go")
        if operator.codegen:
            for kind in operator.kinds:
                relative = f"pkg/generated/clientset/versioned/typed/{operator.group_alias[:-2]}/v1/{kind.lower()}.go"
                write(self.path(relative), api_types.typed_client(operator, kind), "go-generated")
        if operator.vendored:
            write_vendor(operator.rng, operator.base, operator.era, self.writer)
        return first
