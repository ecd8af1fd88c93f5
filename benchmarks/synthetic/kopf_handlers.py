"""A kopf project's handlers.py (the @kopf.on.* handlers) and k8s.py (its calls of the kubernetes or
kubernetes_asyncio client)."""

from __future__ import annotations

from synthetic.kopf_plan import KopfPlan
from synthetic.vocabulary import snake


def handlers(project: KopfPlan) -> str:
    rng = project.rng
    group, plural, kind = project.group, project.plural, project.kind
    a = "async " if project.asyncio else ""
    aw = "await " if project.asyncio else ""
    client = project.client_module
    parts = [
        f'"""kopf handlers of the {kind} operator."""\n',
        "import datetime",
        "import logging\n",
        "import kopf",
        f"import {client}",
        f"from {client}.client.rest import ApiException\n",
        f"from {project.package} import k8s, render",
        f"from {project.package}.naming import child_name\n",
        "LOG = logging.getLogger(__name__)",
        f'GROUP = "{group}"',
        'VERSION = "v1"',
        f'PLURAL = "{plural}"\n\n',
        "@kopf.on.startup()",
        "def configure(settings: kopf.OperatorSettings, **_):",
        '    """Tune kopf: persistence in annotations, shorter watch timeouts."""',
        '    settings.persistence.finalizer = f"{GROUP}/finalizer"',
        "    settings.watching.server_timeout = 300",
        "    settings.posting.level = logging.WARNING\n\n",
        "@kopf.on.create(GROUP, VERSION, PLURAL)",
        f"{a}def create_{snake(kind)}(spec, name, namespace, body, patch, logger, **_):",
        f'    """Create the dependents of a new {kind}."""',
        "    manifests = render.dependents(name, namespace, spec)",
        "    for manifest in manifests:",
        "        kopf.adopt(manifest, owner=body)",
        f"        {aw}k8s.apply(manifest)",
        '    patch.status["phase"] = "Creating"',
        '    logger.info("created %d dependents", len(manifests))',
        '    return {"dependents": [m["metadata"]["name"] for m in manifests]}\n\n',
        '@kopf.on.update(GROUP, VERSION, PLURAL, field="spec")',
        f"{a}def update_{snake(kind)}(spec, old, new, name, namespace, logger, **_):",
        f'    """Re-render the dependents when the spec of a {kind} changes."""',
        '    changed = sorted(set(old.get("spec", {}).items()) ^ set(new.get("spec", {}).items()))',
        '    logger.info("spec changed: %s", ", ".join(str(key) for key, _ in changed))',
        "    for manifest in render.dependents(name, namespace, spec):",
        f"        {aw}k8s.apply(manifest)\n\n",
        "@kopf.on.delete(GROUP, VERSION, PLURAL)",
        f"def delete_{snake(kind)}(name, namespace, logger, **_):",
        '    """Dependents are garbage-collected through their owner references."""',
        '    logger.info("%s/%s deleted", namespace, name)\n\n',
    ]
    events = rng.sample(["pods", "secrets", "configmaps", "events", "endpoints", "jobs"], rng.randint(2, 3))
    for resource in events:
        filtered = rng.random() < 0.5
        labels = ', labels={"app.kubernetes.io/managed-by": "' + project.name + '"}' if filtered else ""
        api = {"pods": '"", "v1", "pods"', "jobs": '"batch", "v1", "jobs"'}.get(resource, f'"{resource}"')
        parts += [
            f"@kopf.on.event({api}{labels})",
            f"def on_{resource}_event(event, name, namespace, labels, logger, **_):",
            f'    """Follow {resource} that belong to a {kind}."""',
            '    owner = (labels or {}).get("app.kubernetes.io/instance")',
            "    if not owner:",
            "        return",
            '    logger.debug("%s %s/%s of %s", event["type"], namespace, name, owner)\n\n',
        ]
    if rng.random() < 0.7:
        parts += [
            '@kopf.on.field(GROUP, VERSION, PLURAL, field="spec.replicas")',
            f"{a}def scale_{snake(kind)}(old, new, name, namespace, logger, **_):",
            '    """Scale the workload when spec.replicas changes."""',
            '    logger.info("scaling %s/%s from %s to %s", namespace, name, old, new)',
            f'    {aw}k8s.scale(namespace, child_name(name, "workload"), new or 1)\n\n',
        ]
    interval = rng.choice((60, 120, 300, 900))
    list_call = rng.choice(
        [
            'k8s.core().list_namespaced_pod(namespace, label_selector=f"app.kubernetes.io/instance={name}")',
            "k8s.core().list_pod_for_all_namespaces()",
            "k8s.core().list_namespaced_config_map(namespace)",
        ]
    )
    parts += [
        f"@kopf.timer(GROUP, VERSION, PLURAL, interval={interval}, idle=30)",
        f"{a}def audit_{snake(kind)}(name, namespace, patch, logger, **_):",
        f'    """Count the pods of a {kind} and record it in its status."""',
        "    try:",
        f"        pods = {aw}{list_call}",
        "    except ApiException as error:",
        '        raise kopf.TemporaryError(f"cannot list pods: {error.reason}", delay=30) from error',
        '    ready = [p for p in pods.items if (p.status.phase or "") == "Running"]',
        '    patch.status["readyPods"] = len(ready)',
        '    patch.status["lastAudit"] = datetime.datetime.now(datetime.timezone.utc).isoformat()\n\n',
    ]
    if rng.random() < 0.5:
        parts += [
            "@kopf.daemon(GROUP, VERSION, PLURAL, cancellation_timeout=10)",
            f"{a}def watch_credentials(stopped, name, namespace, logger, **_):",
            '    """Re-read the credentials Secret until the resource is deleted."""',
            "    while not stopped:",
            f'        secret = {aw}k8s.read_secret(namespace, child_name(name, "credentials"))',
            "        if secret is None:",
            '            logger.warning("credentials of %s/%s are missing", namespace, name)',
            f"        {aw}stopped.wait(60)\n\n" if project.asyncio else "        stopped.wait(60)\n\n",
        ]
    if rng.random() < 0.5:
        parts += [
            "@kopf.on.resume(GROUP, VERSION, PLURAL)",
            f"{a}def resume_{snake(kind)}(spec, name, namespace, logger, **_):",
            '    """Check the dependents after an operator restart."""',
            "    for manifest in render.dependents(name, namespace, spec):",
            f"        {aw}k8s.apply(manifest)",
            '    logger.info("resumed %s/%s", namespace, name)\n',
        ]
    return "\n".join(parts).rstrip() + "\n"


def k8s(project: KopfPlan) -> str:
    client = project.client_module
    a = "async " if project.asyncio else ""
    aw = "await " if project.asyncio else ""
    rng = project.rng
    secrets_scan = rng.choice(
        [
            "core().list_secret_for_all_namespaces(label_selector=selector)",
            "core().list_secret_for_all_namespaces()",
            "core().list_namespaced_secret(namespace, label_selector=selector)",
        ]
    )
    load = "        await config.load_kube_config()\n" if project.asyncio else "        config.load_kube_config()\n"
    if project.asyncio:
        loader = (
            f"{a}def load() -> None:\n"
            '    """Load the in-cluster configuration, or the local kubeconfig."""\n'
            "    try:\n"
            "        config.load_incluster_config()\n"
            "    except config.ConfigException:\n" + load
        )
    else:
        loader = (
            "def load() -> None:\n"
            '    """Load the in-cluster configuration, or the local kubeconfig."""\n'
            "    try:\n"
            "        config.load_incluster_config()\n"
            "    except config.ConfigException:\n" + load
        )
    return (
        f'"""Thin helpers over the {client} client."""\n\n'
        "from __future__ import annotations\n\n"
        "import functools\nimport logging\n\n"
        f"from {client} import client, config\n"
        f"from {client}.client.rest import ApiException\n\n"
        "LOG = logging.getLogger(__name__)\n\n\n" + loader + "\n\n@functools.cache\n"
        "def core() -> client.CoreV1Api:\n"
        "    return client.CoreV1Api()\n\n\n"
        "@functools.cache\n"
        "def apps() -> client.AppsV1Api:\n"
        "    return client.AppsV1Api()\n\n\n"
        f"{a}def apply(manifest: dict) -> None:\n"
        '    """Create the object, or replace it when it exists."""\n'
        '    kind = manifest["kind"]\n'
        '    namespace = manifest["metadata"]["namespace"]\n'
        '    name = manifest["metadata"]["name"]\n'
        "    try:\n"
        '        if kind == "ConfigMap":\n'
        f"            {aw}core().create_namespaced_config_map(namespace, manifest)\n"
        '        elif kind == "Secret":\n'
        f"            {aw}core().create_namespaced_secret(namespace, manifest)\n"
        '        elif kind == "Service":\n'
        f"            {aw}core().create_namespaced_service(namespace, manifest)\n"
        "        else:\n"
        f"            {aw}apps().create_namespaced_deployment(namespace, manifest)\n"
        "    except ApiException as error:\n"
        "        if error.status != 409:\n"
        "            raise\n"
        '        LOG.debug("%s %s/%s exists; patching", kind, namespace, name)\n'
        '        if kind == "ConfigMap":\n'
        f"            {aw}core().patch_namespaced_config_map(name, namespace, manifest)\n"
        '        elif kind == "Deployment":\n'
        f"            {aw}apps().patch_namespaced_deployment(name, namespace, manifest)\n\n\n"
        f"{a}def scale(namespace: str, name: str, replicas: int) -> None:\n"
        f'    body = {{"spec": {{"replicas": replicas}}}}\n'
        f"    {aw}apps().patch_namespaced_deployment_scale(name, namespace, body)\n\n\n"
        f"{a}def read_secret(namespace: str, name: str):\n"
        '    """The Secret, or None when it does not exist."""\n'
        "    try:\n"
        f"        return {aw}core().read_namespaced_secret(name, namespace)\n"
        "    except ApiException as error:\n"
        "        if error.status == 404:\n"
        "            return None\n"
        "        raise\n\n\n"
        f"{a}def stale_credentials(namespace: str, selector: str, max_age_days: int = 90) -> list[str]:\n"
        '    """Names of the credentials Secrets older than max_age_days."""\n'
        "    import datetime\n\n"
        "    now = datetime.datetime.now(datetime.timezone.utc)\n"
        f"    secrets = {aw}{secrets_scan}\n"
        "    stale = []\n"
        "    for secret in secrets.items:\n"
        "        created = secret.metadata.creation_timestamp\n"
        "        if created and (now - created).days > max_age_days:\n"
        '            stale.append(f"{secret.metadata.namespace}/{secret.metadata.name}")\n'
        "    return stale\n"
    )
