"""A kopf project under kopf/<name>/: its pyproject.toml, __main__.py and tests here, its package modules
from kopf_handlers and kopf_modules."""

from __future__ import annotations

import random

from synthetic import kopf_handlers, kopf_modules
from synthetic.kopf_plan import KopfPlan
from synthetic.writer import Writer


class KopfProject:
    """A kopf operator: pyproject.toml, handlers, client helpers, plain modules and tests."""

    def __init__(self, rng: random.Random, index: int, name: str, writer: Writer) -> None:
        self.plan = KopfPlan(rng, index, name)
        self.writer = writer

    def write(self) -> None:
        project = self.plan
        write = self.writer.write
        write(f"{project.base}/pyproject.toml", _pyproject(project), "python-project")
        write(
            f"{project.base}/{project.package}/__init__.py",
            f'"""The {project.name} operator."""\n\n__version__ = "0.{project.rng.randint(1, 9)}.0"\n',
            "python",
        )
        write(f"{project.base}/{project.package}/__main__.py", _main(project), "python")
        write(f"{project.base}/{project.package}/handlers.py", kopf_handlers.handlers(project), "python")
        write(f"{project.base}/{project.package}/k8s.py", kopf_handlers.k8s(project), "python")
        write(f"{project.base}/{project.package}/render.py", kopf_modules.render(project), "python")
        write(f"{project.base}/{project.package}/config.py", kopf_modules.config(project), "python")
        write(f"{project.base}/{project.package}/naming.py", kopf_modules.naming(project), "python")
        write(f"{project.base}/{project.package}/models.py", kopf_modules.models(project), "python")
        write(f"{project.base}/{project.package}/webhooks.py", kopf_modules.webhooks(project), "python")
        write(f"{project.base}/tests/test_render.py", _tests(project), "python-test")


def _pyproject(project: KopfPlan) -> str:
    deps = ['"kopf>=1.37"', f'"{project.client_module.replace("_", "-")}>=29.0"', '"pydantic>=2.5"']
    if project.build == "poetry":
        return (
            "[tool.poetry]\n"
            f'name = "{project.name}"\nversion = "0.1.0"\ndescription = "{project.kind} operator"\n'
            'authors = ["Platform team <platform@example.org>"]\n\n'
            "[tool.poetry.dependencies]\n"
            'python = "^3.11"\nkopf = "^1.37"\n'
            f'{project.client_module.replace("_", "-")} = "^29.0"\npydantic = "^2.5"\n\n'
            "[build-system]\n"
            'requires = ["poetry-core>=1.8"]\nbuild-backend = "poetry.core.masonry.api"\n'
        )
    backend = {"setuptools": "setuptools.build_meta", "hatchling": "hatchling.build"}[project.build]
    requires = {"setuptools": '"setuptools>=68"', "hatchling": '"hatchling>=1.24"'}[project.build]
    return (
        f'[build-system]\nrequires = [{requires}]\nbuild-backend = "{backend}"\n\n'
        "[project]\n"
        f'name = "{project.name}"\nversion = "0.1.0"\ndescription = "{project.kind} operator"\n'
        'requires-python = ">=3.11"\n'
        "dependencies = [\n" + "".join(f"    {dep},\n" for dep in deps) + "]\n\n"
        "[project.optional-dependencies]\n"
        'test = ["pytest>=8", "pytest-asyncio>=0.23"]\n\n'
        "[project.scripts]\n"
        f'{project.name} = "{project.package}.__main__:main"\n'
    )


def _main(project: KopfPlan) -> str:
    namespaced = project.rng.random() < 0.4
    run = (
        "    kopf.run(clusterwide=False, namespaces=[settings.namespace], standalone=True)\n"
        if namespaced
        else "    kopf.run(clusterwide=True, standalone=True)\n"
    )
    return (
        f'"""Run the {project.name} operator: `python -m {project.package}`."""\n\n'
        "import logging\n\nimport kopf\n\n"
        f"from {project.package} import handlers  # noqa: F401  (registers the handlers)\n"
        f"from {project.package}.config import Settings\n\n\n"
        "def main() -> None:\n"
        "    settings = Settings.from_env()\n"
        "    logging.basicConfig(level=settings.log_level)\n" + run + '\n\nif __name__ == "__main__":\n    main()\n'
    )


def _tests(project: KopfPlan) -> str:
    return (
        f"from {project.package} import render\n"
        f"from {project.package}.naming import child_name\n\n\n"
        "def test_child_name_is_a_dns_label():\n"
        '    name = child_name("x" * 80, "config")\n'
        "    assert len(name) <= 63\n\n\n"
        "def test_dependents_are_labelled():\n"
        '    for manifest in render.dependents("demo", "default", {"replicas": 2}):\n'
        '        assert manifest["metadata"]["labels"]["app.kubernetes.io/instance"] == "demo"\n\n\n'
        "def test_checksum_is_stable():\n"
        '    assert render.checksum({"a": 1, "b": 2}) == render.checksum({"b": 2, "a": 1})\n'
    )
