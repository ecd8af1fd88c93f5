"""The plain modules of a kopf project, without client calls: render.py, config.py, naming.py, models.py
and webhooks.py."""

from __future__ import annotations

from synthetic.kopf_plan import KopfPlan
from synthetic.vocabulary import snake


def render(project: KopfPlan) -> str:
    rng = project.rng
    ports = rng.sample([8080, 8443, 9090, 9100, 5432, 6379, 11211], 2)
    return (
        f'"""Manifests of the dependents of a {project.kind}: plain dictionaries, no client calls."""\n\n'
        "from __future__ import annotations\n\n"
        "import hashlib\nimport json\nfrom typing import Any\n\n"
        f"from {project.package}.naming import child_name, labels_for\n\n"
        f'DEFAULT_IMAGE = "registry.example.org/{project.name}:{rng.randint(1, 4)}.{rng.randint(0, 20)}"\n'
        f"PORTS = {ports!r}\n\n\n"
        "def checksum(data: dict[str, Any]) -> str:\n"
        '    """A short stable hash of a mapping, to roll pods when configuration changes."""\n'
        '    encoded = json.dumps(data, sort_keys=True, separators=(",", ":")).encode()\n'
        "    return hashlib.sha256(encoded).hexdigest()[:12]\n\n\n"
        "def config_map(name: str, namespace: str, spec: dict[str, Any]) -> dict[str, Any]:\n"
        '    data = {key: str(value) for key, value in sorted(spec.get("settings", {}).items())}\n'
        "    return {\n"
        '        "apiVersion": "v1",\n'
        '        "kind": "ConfigMap",\n'
        '        "metadata": {\n'
        '            "name": child_name(name, "config"),\n'
        '            "namespace": namespace,\n'
        '            "labels": labels_for(name),\n'
        "        },\n"
        '        "data": data,\n'
        "    }\n\n\n"
        "def service(name: str, namespace: str) -> dict[str, Any]:\n"
        "    return {\n"
        '        "apiVersion": "v1",\n'
        '        "kind": "Service",\n'
        '        "metadata": {"name": child_name(name, "svc"), "namespace": namespace, '
        '"labels": labels_for(name)},\n'
        '        "spec": {\n'
        '            "selector": labels_for(name),\n'
        '            "ports": [{"name": f"p{port}", "port": port, "targetPort": port} for port in PORTS],\n'
        "        },\n"
        "    }\n\n\n"
        "def deployment(name: str, namespace: str, spec: dict[str, Any], config_hash: str) -> dict[str, Any]:\n"
        '    replicas = int(spec.get("replicas", 1))\n'
        '    image = spec.get("image", DEFAULT_IMAGE)\n'
        '    resources = spec.get("resources") or {"requests": {"cpu": "100m", "memory": "128Mi"}}\n'
        "    container = {\n"
        '        "name": "main",\n'
        '        "image": image,\n'
        '        "ports": [{"containerPort": port} for port in PORTS],\n'
        '        "resources": resources,\n'
        '        "envFrom": [{"configMapRef": {"name": child_name(name, "config")}}],\n'
        '        "readinessProbe": {"httpGet": {"path": "/healthz", "port": PORTS[0]}, "periodSeconds": 10},\n'
        "    }\n"
        "    return {\n"
        '        "apiVersion": "apps/v1",\n'
        '        "kind": "Deployment",\n'
        '        "metadata": {\n'
        '            "name": child_name(name, "workload"),\n'
        '            "namespace": namespace,\n'
        '            "labels": labels_for(name),\n'
        "        },\n"
        '        "spec": {\n'
        '            "replicas": replicas,\n'
        '            "selector": {"matchLabels": labels_for(name)},\n'
        '            "template": {\n'
        '                "metadata": {\n'
        '                    "labels": labels_for(name),\n'
        '                    "annotations": {"checksum/config": config_hash},\n'
        "                },\n"
        '                "spec": {"containers": [container], "serviceAccountName": child_name(name, "sa")},\n'
        "            },\n"
        "        },\n"
        "    }\n\n\n"
        "def dependents(name: str, namespace: str, spec: dict[str, Any]) -> list[dict[str, Any]]:\n"
        '    """Every object a resource owns, in creation order."""\n'
        "    config = config_map(name, namespace, spec)\n"
        '    workload = deployment(name, namespace, spec, checksum(config["data"]))\n'
        "    return [config, service(name, namespace), workload]\n"
    )


def config(project: KopfPlan) -> str:
    rng = project.rng
    fields = rng.sample(
        [
            ("namespace", "str", '"default"'),
            ("log_level", "str", '"INFO"'),
            ("resync_seconds", "int", "300"),
            ("max_workers", "int", "4"),
            ("dry_run", "bool", "False"),
            ("metrics_port", "int", "9100"),
            ("registry", "str", '"registry.example.org"'),
        ],
        5,
    )
    names = {name for name, _, _ in fields}
    fields += [f for f in (("namespace", "str", '"default"'), ("log_level", "str", '"INFO"')) if f[0] not in names]
    converters = {"str": "str", "int": "int", "bool": "_flag"}
    lines = [
        '"""Operator settings from environment variables."""\n',
        "from __future__ import annotations\n",
        "import os",
        "from dataclasses import dataclass, fields\n\n",
        "def _flag(value: str) -> bool:",
        '    return value.strip().lower() in {"1", "true", "yes", "on"}\n\n',
        "@dataclass(frozen=True)",
        "class Settings:",
        '    """Settings; each field reads OPERATOR_<NAME> from the environment."""\n',
    ]
    lines += [f"    {name}: {kind} = {default}" for name, kind, default in fields]
    lines += [
        "",
        "    @classmethod",
        "    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:",
        "        environ = dict(os.environ if environ is None else environ)",
        "        values = {}",
        "        converters = {",
    ]
    lines += [f'            "{name}": {converters[kind]},' for name, kind, _ in fields]
    lines += [
        "        }",
        "        for field in fields(cls):",
        '            raw = environ.get(f"OPERATOR_{field.name.upper()}")',
        "            if raw is not None:",
        "                values[field.name] = converters[field.name](raw)",
        "        return cls(**values)",
    ]
    return "\n".join(lines) + "\n"


def naming(project: KopfPlan) -> str:
    return (
        '"""Names and labels of the dependents."""\n\n'
        "from __future__ import annotations\n\n"
        "import hashlib\nimport re\n\n"
        "MAX_NAME = 63\n"
        '_INVALID = re.compile(r"[^a-z0-9-]+")\n\n\n'
        "def child_name(owner: str, suffix: str) -> str:\n"
        '    """`owner-suffix`, shortened with a hash when it exceeds a DNS label."""\n'
        '    name = _INVALID.sub("-", f"{owner}-{suffix}".lower()).strip("-")\n'
        "    if len(name) <= MAX_NAME:\n"
        "        return name\n"
        "    digest = hashlib.sha1(name.encode()).hexdigest()[:8]\n"
        "    return f\"{name[: MAX_NAME - 9].rstrip('-')}-{digest}\"\n\n\n"
        "def labels_for(owner: str) -> dict[str, str]:\n"
        "    return {\n"
        '        "app.kubernetes.io/instance": owner,\n'
        f'        "app.kubernetes.io/managed-by": "{project.name}",\n'
        "    }\n"
    )


def models(project: KopfPlan) -> str:
    rng = project.rng
    fields = rng.sample(
        [
            ("replicas", "int", "1", "value >= 0"),
            ("image", "str", '""', "not value or ':' in value"),
            ("retention_days", "int", "7", "0 < value <= 3650"),
            ("storage_size", "str", '"1Gi"', "value[-2:] in ('Mi', 'Gi', 'Ti')"),
            ("tier", "str", '"bronze"', "value in ('bronze', 'silver', 'gold')"),
            ("paused", "bool", "False", "isinstance(value, bool)"),
            ("port", "int", "8080", "0 < value < 65536"),
            ("schedule", "str", '"@daily"', "value.startswith('@') or len(value.split()) == 5"),
        ],
        rng.randint(5, 8),
    )
    lines = [
        f'"""The spec of a {project.kind}, parsed and checked; no client, no API calls."""\n',
        "from __future__ import annotations\n",
        "from dataclasses import asdict, dataclass, field",
        "from typing import Any\n\n",
        "class SpecError(ValueError):",
        '    """A spec field has a value the operator cannot use."""\n\n',
        "@dataclass(frozen=True)",
        f"class {project.kind}Spec:",
        f'    """What a {project.kind} asks for."""\n',
    ]
    lines += [f"    {name}: {kind} = {default}" for name, kind, default, _ in fields]
    lines += [
        "    settings: dict[str, str] = field(default_factory=dict)",
        "",
        "    @classmethod",
        f"    def parse(cls, spec: dict[str, Any]) -> {project.kind}Spec:",
        '        """Read a spec, converting camelCase keys; raise SpecError on a bad value."""',
        "        values: dict[str, Any] = {}",
        "        for key, value in spec.items():",
        '            name = "".join("_" + c.lower() if c.isupper() else c for c in key)',
        "            if name in cls.__dataclass_fields__:",
        "                values[name] = value",
        "        parsed = cls(**values)",
        "        parsed.check()",
        "        return parsed",
        "",
        "    def check(self) -> None:",
    ]
    for name, _, _, condition in fields:
        lines += [
            f"        value = self.{name}",
            f"        if not ({condition}):",
            f'            raise SpecError(f"{name}: unusable value {{value!r}}")',
        ]
    lines += [
        "",
        "    def to_dict(self) -> dict[str, Any]:",
        "        return {key: value for key, value in asdict(self).items() if value not in (None, {}, [])}",
    ]
    return "\n".join(lines) + "\n"


def webhooks(project: KopfPlan) -> str:
    kind = project.kind
    return (
        f'"""Admission webhooks of the {kind} operator."""\n\n'
        "import kopf\n\n"
        f"from {project.package}.handlers import GROUP, PLURAL, VERSION\n"
        f"from {project.package}.models import {kind}Spec, SpecError\n\n\n"
        "@kopf.on.validate(GROUP, VERSION, PLURAL)\n"
        f"def validate_{snake(kind)}(spec, warnings: list[str], **_):\n"
        f'    """Refuse a {kind} whose spec the operator cannot reconcile."""\n'
        "    try:\n"
        f"        parsed = {kind}Spec.parse(dict(spec))\n"
        "    except (SpecError, TypeError) as error:\n"
        "        raise kopf.AdmissionError(str(error), code=422) from error\n"
        '    if getattr(parsed, "replicas", 1) == 0:\n'
        '        warnings.append("replicas is 0: the workload is scaled down")\n\n\n'
        "@kopf.on.mutate(GROUP, VERSION, PLURAL)\n"
        f"def default_{snake(kind)}(spec, patch, **_):\n"
        '    """Fill in the defaults, so that kubectl shows what the operator uses."""\n'
        f"    defaults = {kind}Spec().to_dict()\n"
        "    for key, value in defaults.items():\n"
        '        camel = key.split("_")[0] + "".join(part.title() for part in key.split("_")[1:])\n'
        "        if camel not in spec:\n"
        "            patch.spec[camel] = value\n"
    )
