"""The kubebuilder RBAC markers a module grants itself with, read for the verbs a read sent past the cache needs,
and the DisableFor fix they make unsafe where they withhold one."""

from __future__ import annotations

from pathlib import Path

import pytest

from watchlint.catalog import Catalog
from watchlint.config import CommandLine
from watchlint.engine import run
from watchlint.go import parser
from watchlint.go.model import GoFile, index_nodes
from watchlint.go.rbacmarkers import Grant, missing_grant, rbac_grants
from watchlint.source import SourceFile

MARKERS = """package controllers

// +kubebuilder:rbac:groups="",resources=secrets,verbs=list;watch
// +kubebuilder:rbac:groups=core,resources=secrets/status,verbs=get
//+kubebuilder:rbac:groups=core;apps,resources=configmaps;deployments,verbs=get;list
// +kubebuilder:rbac:groups="",namespace=auth,resources=secrets,verbs=patch
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=*
//+kubebuilder:rbac:groups=discovery.k8s.io,resources=endpointslices,verbs=list;watch
// +kubebuilder:rbac:groups="discovery.k8s.io",resources=endpointslices,verbs=get;list;watch
"""


def _grants(markers: str = MARKERS) -> dict[tuple[str, str], Grant]:
    source = SourceFile("controllers/rbac.go", markers.encode())
    tree = parser.parse(source)
    return rbac_grants([GoFile(source, tree, "controllers", "example.com/x", "controllers", {}, index_nodes(tree))])


def test_markers_add_up_per_group_and_resource() -> None:
    grants = _grants()
    secrets = grants[("", "secrets")]
    assert secrets.verbs == frozenset({"list", "watch"})  # patch only in the auth namespace
    assert secrets.span.line == 3
    assert grants[("", "secrets/status")].verbs == frozenset({"get"})
    assert grants[("apps", "configmaps")].verbs == grants[("", "configmaps")].verbs == frozenset({"get", "list"})
    assert grants[("batch", "jobs")].allows("get")


def test_only_a_marker_on_a_comment_line_of_its_own_grants() -> None:
    """controller-gen reads a marker only as a line comment of its own: one after code, or inside another
    comment's text, grants nothing."""
    grants = _grants(
        "package controllers\n\n"
        'var x = 1 // +kubebuilder:rbac:groups="",resources=pods,verbs=get\n'
        '// see +kubebuilder:rbac:groups="",resources=services,verbs=get\n'
        '\t//\t+kubebuilder:rbac:groups="",resources=secrets,verbs=list\r\n'
        '// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get\n'
    )
    assert sorted(grants) == [("", "configmaps"), ("", "secrets")]
    assert grants[("", "secrets")].verbs == frozenset({"list"})
    assert grants[("", "configmaps")].span.line == 6


def test_a_quoted_group_grants_what_the_bare_one_does() -> None:
    """Kong's generated controllers write `groups=discovery.k8s.io` and its hand-written one the group quoted:
    together they grant endpointslices get."""
    slices = _grants()[("discovery.k8s.io", "endpointslices")]
    assert slices.verbs == frozenset({"get", "list", "watch"})
    assert slices.span.line == 8


def test_a_list_in_braces_grants_each_of_its_values(catalog: Catalog) -> None:
    """controller-gen reads `verbs={get,list,watch}` as `verbs=get;list;watch` (CrunchyData's postgres-operator):
    its commas part the values, not the marker's fields."""
    grants = _grants(
        "package controllers\n\n"
        '// +kubebuilder:rbac:groups="",resources="secrets",verbs={get,list,watch}\n'
        '// +kubebuilder:rbac:groups=core,resources={"configmaps",pods},verbs={list, watch}\n'
        '// +kubebuilder:rbac:groups="",resources="endpoints",verbs={get}\n'
    )
    assert grants[("", "secrets")].verbs == frozenset({"get", "list", "watch"})
    assert grants[("", "configmaps")].verbs == grants[("", "pods")].verbs == frozenset({"list", "watch"})
    assert grants[("", "endpoints")].verbs == frozenset({"get"})
    kinds = {kind.name: kind for kind in catalog.kinds}
    assert missing_grant(grants, kinds["Secret"], "get") is None
    assert missing_grant(grants, kinds["Pod"], "get") is grants[("", "pods")]


def test_a_verb_is_missing_only_where_markers_name_the_resource(catalog: Catalog) -> None:
    grants = _grants()
    kinds = {kind.name: kind for kind in catalog.kinds}
    assert missing_grant(grants, kinds["Secret"], "get") is grants[("", "secrets")]
    assert missing_grant(grants, kinds["Secret"], "list") is None
    assert missing_grant(grants, kinds["ConfigMap"], "get") is None
    assert missing_grant(grants, kinds["Pod"], "get") is None  # no marker: the role is out of sight


def test_a_namespaced_marker_grants_nothing_outside_its_namespace(catalog: Catalog) -> None:
    """`namespace=system` makes controller-gen write a Role in that namespace: a Get sent past the cache in any
    other namespace is still forbidden."""
    grants = _grants(
        "package controllers\n\n"
        '// +kubebuilder:rbac:groups="",resources=serviceaccounts,verbs=list;watch\n'
        '// +kubebuilder:rbac:groups="",namespace=system,resources=serviceaccounts,verbs=get\n'
    )
    kinds = {kind.name: kind for kind in catalog.kinds}
    assert missing_grant(grants, kinds["ServiceAccount"], "get") is grants[("", "serviceaccounts")]


def test_markers_of_one_namespace_grant_get_where_they_let_the_cache_read(catalog: Catalog) -> None:
    """k8ssandra writes every marker for its own namespace: the cache reads Secrets there only, and get is
    granted there too, so a Get sent past the cache is not forbidden anywhere the cached one was allowed."""
    grants = _grants(
        "package controllers\n\n"
        '// +kubebuilder:rbac:groups=core,namespace="k8ssandra",resources=pods;secrets,verbs=get;list;watch\n'
        '// +kubebuilder:rbac:groups=core,namespace="k8ssandra",resources=configmaps,verbs=list;watch\n'
    )
    kinds = {kind.name: kind for kind in catalog.kinds}
    assert missing_grant(grants, kinds["Secret"], "get") is None
    assert missing_grant(grants, kinds["ConfigMap"], "get") is grants[("", "configmaps")]


def test_wildcard_markers_grant_every_resource_they_match(catalog: Catalog) -> None:
    """keda grants `get` on every resource of every group (`groups="*",resources="*",verbs=get`): no Get it
    sends past the cache is forbidden, whatever its own markers for the resource say."""
    grants = _grants(
        "package controllers\n\n"
        '// +kubebuilder:rbac:groups="",resources=serviceaccounts,verbs=list;watch\n'
        "// +kubebuilder:rbac:groups=apps,resources=*,verbs=list\n"
        '// +kubebuilder:rbac:groups="*",resources="*",verbs=get\n'
    )
    kinds = {kind.name: kind for kind in catalog.kinds}
    assert missing_grant(grants, kinds["ServiceAccount"], "get") is None
    assert missing_grant(grants, kinds["ReplicaSet"], "get") is None
    assert missing_grant(grants, kinds["ReplicaSet"], "watch") is grants[("apps", "*")]


def test_the_unsafe_disable_for_fix_says_which_verb_to_add(catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    """eventing-auth-manager grants secrets list and watch only: its Secret Get would be forbidden once sent
    past the cache."""
    monkeypatch.chdir(Path(__file__).parent / "fixtures/go/WL002/disable-for-needing-a-verb-the-rbac-markers-withhold")
    report = run([Path(".")], CommandLine(), catalog)
    titles = {finding.kind: [fix.title for fix in finding.fixes] for finding in report.findings}
    assert titles["Secret"] == [
        "Add &corev1.Secret{} to Client.Cache.DisableFor in main.go; the +kubebuilder:rbac markers (main.go:15) grant "
        "secrets no get, which the read then needs: add it"
    ]
    assert titles["ConfigMap"] == ["Add &corev1.ConfigMap{} to Client.Cache.DisableFor in main.go"]


def test_a_label_selector_fix_keeping_gets_says_which_verb_to_add(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """mariadb-operator owns Secrets and reads others by name, with `verbs=list;watch;create;patch` on secrets:
    the ByObject fix of its Owns sends those Gets past the cache through DisableFor, where they need get."""
    monkeypatch.chdir(
        Path(__file__).parent / "fixtures/go/fixes-unsafe/by-object-label-keeping-reads-the-rbac-markers-withhold-get"
    )
    report = run([Path(".")], CommandLine(), catalog)
    watch = next(finding for finding in report.findings if finding.code == "WL001")
    assert (watch.span.line, [fix.title for fix in watch.fixes]) == (
        33,
        [
            "Cache only Secret objects labelled app.kubernetes.io/managed-by=tls-operator (Cache.ByObject in "
            "main.go), and read Secret through Client.Cache.DisableFor; unlabelled ones become invisible, so label "
            "what the operator creates; the +kubebuilder:rbac markers (main.go:18) grant secrets no get, which the "
            "Gets of Secret then need: add it"
        ],
    )
