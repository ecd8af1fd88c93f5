"""Handlers of the Bookstore operator.

Importing this module registers the handlers with kopf's default registry.
"""

import kopf
import kubernetes


@kopf.on.create("bookstores.example.com")
def create_bookstore(spec, name, namespace, logger, **_):
    """Acknowledge a new Bookstore; the Deployment is rendered by a later handler."""
    replicas = spec.get("replicas", 1)
    logger.info("Bookstore %s/%s created with %d replica(s)", namespace, name, replicas)
    return {"phase": "Pending", "replicas": replicas}


@kopf.on.event("", "v1", "pods")
def track_bookstore_pods(event, name, namespace, labels, logger, **_):
    """Log the lifecycle of bookstore pods; every other pod is ignored here."""
    if labels.get("app") != "bookstore":
        return
    logger.info("Pod %s/%s: %s", namespace, name, event["type"])


@kopf.on.update("secrets", labels={"app.kubernetes.io/part-of": "bookstore"})
def credentials_rotated(name, namespace, logger, **_):
    """Tell the owners of a bookstore that its credentials changed."""
    logger.info("Credentials %s/%s changed; bookstore pods pick them up on restart", namespace, name)


@kopf.timer("bookstores.example.com", interval=300)
def audit_catalogs(name, logger, **_):
    """Count the catalog ConfigMaps and credentials Secrets that refer to a Bookstore."""
    core_v1 = kubernetes.client.CoreV1Api()
    config_maps = core_v1.list_config_map_for_all_namespaces()
    secrets = core_v1.list_secret_for_all_namespaces(label_selector="app.kubernetes.io/part-of=bookstore")
    catalogs = [
        cm for cm in config_maps.items
        if (cm.metadata.annotations or {}).get("example.com/bookstore") == name
    ]
    credentials = [s for s in secrets.items if (s.metadata.labels or {}).get("example.com/bookstore") == name]
    logger.info("Bookstore %s: %d catalog(s), %d credential(s)", name, len(catalogs), len(credentials))
    return {"catalogs": len(catalogs), "credentials": len(credentials)}
