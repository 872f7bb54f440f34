"""Missing facts (KAP013): ``missing_facts.READERS`` names the rules whose answer depends on each
fact, checked against what every rule does with the fact and without it, and the note names them.

Each scenario is one project linted twice with every rule: once with a value the facts hold, once
with a value they do not (a chart older than its facts, a Kubernetes minor outside them, a provider
pre-release of a feature's first release). The rules whose findings change are the readers of
that fact; every one of them is listed, and the note of the second run lists them (for a chart,
those that judge that chart)."""

from __future__ import annotations

import pytest

from fixture_support import lint
from kapsulint.kapsule.charts import registry
from kapsulint.kapsule.missing_facts import READERS, judges

_CLUSTER = """
provider "scaleway" {
  region = "fr-par"
}

resource "scaleway_vpc_private_network" "nodes" {
  name = "nodes"
}

resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  type                        = "kapsule-dedicated-4"
  version                     = "%(kubernetes)s"
  cni                         = "cilium"
  private_network_id          = scaleway_vpc_private_network.nodes.id
  delete_additional_resources = false
  feature_gates               = ["NoSuchGate"]
}

resource "scaleway_k8s_pool" "apps" {
  cluster_id   = scaleway_k8s_cluster.main.id
  name         = "apps"
  node_type    = "DEV1-L"
  size         = 2
  autohealing  = true
  kubelet_args = { "no-such-arg" = "1" }

  lifecycle {
    create_before_destroy = true
  }
}

resource "scaleway_k8s_pool" "batch" {
  cluster_id  = scaleway_k8s_cluster.main.id
  name        = "batch"
  node_type   = "PRO2-S"
  size        = 1
  autohealing = true
}
"""

_RELEASES = """
resource "helm_release" "haproxy" {
  name       = "haproxy"
  repository = "https://haproxytech.github.io/helm-charts"
  chart      = "kubernetes-ingress"
  version    = "%(haproxy)s"
  values = [yamlencode({ controller = { service = { type = "LoadBalancer", annotations = {
    "service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2" = "true" } } } })]
}

resource "helm_release" "nginx" {
  name       = "nginx"
  repository = "https://kubernetes.github.io/ingress-nginx"
  chart      = "ingress-nginx"
  version    = "%(nginx)s"
  values = [yamlencode({ controller = { service = { annotations = {
    "service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2" = "true" } } } })]
}

resource "helm_release" "traefik" {
  name       = "traefik"
  repository = "https://traefik.github.io/charts"
  chart      = "traefik"
  version    = "%(traefik)s"
}
"""

_HELM_V2 = """
terraform {
  required_providers {
    helm = {
      source  = "hashicorp/helm"
      version = "%(helm)s"
    }
  }
}

resource "helm_release" "cache" {
  name       = "cache"
  repository = "https://charts.bitnami.com/bitnami"
  chart      = "redis"
  version    = "20.1.0"

  set {
    name  = "architecture"
    value = "standalone"
  }
}
"""

_LOCK = 'provider "registry.terraform.io/scaleway/scaleway" {\n  version = "%s"\n}\n'

KNOWN = {"kubernetes": "1.31", "haproxy": "1.52.1", "nginx": "4.15.1", "traefik": "41.3.0", "helm": "3.1.2"}
SCENARIOS = {
    "chart-defaults": {"haproxy": "1.30.0", "nginx": "v1.2.1", "traefik": "30.0.0"},
    "support-calendar": {"kubernetes": "1.37"},
    "helm-v3": {"helm": "3.0.0-rc.1"},
}


def _findings(tmp_path, monkeypatch, name: str, values: dict, lock: str) -> list[dict]:
    folder = tmp_path / name
    folder.mkdir()
    text = (_CLUSTER + _RELEASES + _HELM_V2) % {**KNOWN, **values}
    (folder / "main.tf").write_text(text, encoding="utf-8")
    (folder / ".terraform.lock.hcl").write_text(_LOCK % lock, encoding="utf-8")
    _, findings, stderr = lint(folder, ["--today", "2026-03-01"], monkeypatch)
    assert not any(f["rule"] == "KAP008" for f in findings), stderr
    return findings


def _judged(findings: list[dict]) -> set[tuple]:
    return {(f["rule"], f["line"], f["column"], f.get("fix")) for f in findings if f["rule"] != "KAP013"}


@pytest.mark.parametrize("fact", sorted(SCENARIOS))
def test_readers_are_the_rules_the_fact_changes(fact, tmp_path, monkeypatch):
    known = _findings(tmp_path, monkeypatch, "known", {}, "2.81.0")
    missing = _findings(tmp_path, monkeypatch, "missing", SCENARIOS[fact], "2.81.0")
    changed = {item[0] for item in _judged(known) ^ _judged(missing)}
    readers = set(READERS[fact])
    if fact == "support-calendar":  # the minor is outside the API offers too
        readers |= set(READERS["feature_gates"]) | set(READERS["kubelet_args"])
    assert changed == readers
    noted = [f for f in missing if f["rule"] == "KAP013"]
    assert noted, "no note for the missing fact"
    named = {rule for f in noted for rule in readers if rule in f["message"]}
    assert named == readers
    assert not [f for f in known if f["rule"] == "KAP013"]


def test_readers_of_the_provider_features(tmp_path, monkeypatch):
    """2.53.0 lacks scaleway_k8s_acl and 2.77.1 an optional pool name; their pre-releases
    (2.54.0-rc1, 2.78.0-rc1) change what KAP403 and KAP201/KAP202 say against the releases."""
    changed = set()
    for before, pre, after in (("2.53.0", "2.54.0-rc1", "2.54.0"), ("2.77.1", "2.78.0-rc1", "2.78.0")):
        results = [_judged(_findings(tmp_path, monkeypatch, f"v{version}", {}, version)) for version in (before, pre, after)]
        changed |= {item[0] for item in (results[0] ^ results[1]) | (results[1] ^ results[2])}
        notes = [f for f in _findings(tmp_path, monkeypatch, f"again-{pre}", {}, pre) if f["rule"] == "KAP013"]
        assert [f["path"] for f in notes] == [".terraform.lock.hcl"]
    assert changed == set(READERS["k8s_acl"]) | set(READERS["optional_pool_name"])


def test_chart_readers_by_chart(tmp_path, monkeypatch):
    """KAP310 judges haproxytech only, KAP303 never traefik: a note names the rules that judge
    its chart, and those are the rules the chart's old version changed."""
    known = _judged(_findings(tmp_path, monkeypatch, "known", {}, "2.81.0"))
    missing_findings = _findings(tmp_path, monkeypatch, "missing", SCENARIOS["chart-defaults"], "2.81.0")
    missing = _judged(missing_findings)
    text = ((_CLUSTER + _RELEASES + _HELM_V2) % KNOWN).splitlines()
    starts = {name: text.index(f'resource "helm_release" "{name}" {{') + 1 for name in ("haproxy", "nginx", "traefik")}
    lines = {name: range(start, text.index("}", start) + 2) for name, start in starts.items()}
    for chart, key in (("haproxy", "haproxytech"), ("nginx", "ingress-nginx"), ("traefik", "traefik")):
        changed = {item[0] for item in known ^ missing if item[1] in lines[chart]}
        chart_of = {chart.key: chart for chart in registry.charts()}[key]
        judging = {rule for rule in READERS["chart-defaults"] if judges(rule, chart_of)}
        assert changed <= judging
        note = next(f for f in missing_findings if f["rule"] == "KAP013" and f["line"] in lines[chart])
        assert {rule for rule in READERS["chart-defaults"] if rule in note["message"]} == judging
