"""Replacement facts by provider version (kapsulint/kapsule/replacement_facts.py), as the static
rules use them: KAP201's message, KAP202's names, and KAP112's regressions for the locked version."""

from __future__ import annotations

from pathlib import Path

import pytest

from fixture_support import lint
from kapsulint.kapsule import replacement, replacement_facts
from kapsulint.kapsule.replacement_facts import CLUSTER, HELM_RELEASE, LB_IP, POOL


@pytest.mark.parametrize("resource, argument, version, replaces", [
    (POOL, "node_type", (2, 40, 0), True),
    (POOL, "node_type", (2, 81, 0), True),
    (POOL, "security_group_id", (2, 56, 0), False),
    (POOL, "security_group_id", (2, 57, 0), True),
    (POOL, "security_group_id", (2, 67, 0), True),
    (POOL, "security_group_id", (2, 67, 1), False),
    (POOL, "size", (2, 60, 0), False),
    (CLUSTER, "cni", (2, 50, 0), True),
    (CLUSTER, "pod_cidr", (2, 60, 5), False),
    (CLUSTER, "pod_cidr", (2, 61, 0), True),
    (CLUSTER, "autoscaler_config.log_level", (2, 75, 0), False),
    (CLUSTER, "autoscaler_config.log_level", (2, 76, 0), True),
    (CLUSTER, "autoscaler_config.skip_nodes_with_local_storage", (2, 80, 0), True),
    (CLUSTER, "autoscaler_config.skip_nodes_with_local_storage", (2, 81, 0), False),
    (CLUSTER, "name", (2, 81, 0), False),
    (CLUSTER, "version", (2, 81, 0), False),
    (LB_IP, "zone", (2, 81, 0), True),
    (LB_IP, "reverse", (2, 81, 0), False),
    (HELM_RELEASE, "name", (3, 1, 2), True),
    (HELM_RELEASE, "values", (2, 17, 0), False),
])
def test_replacing_arguments_by_version(resource, argument, version, replaces):
    arguments = replacement_facts.replacing_arguments(resource, version)
    assert arguments is not None
    assert (argument in arguments) is replaces


def test_conditional_replacements_are_said_in_words():
    assert "type" not in replacement_facts.replacing_arguments(CLUSTER, (2, 81, 0))
    assert {"type", "private_network_id"} <= replacement_facts.replacing_arguments(CLUSTER, (2, 81, 0), conditional=True)
    fact = replacement_facts.fact_for(CLUSTER, "type", (2, 81, 0))
    assert fact is not None and "30-day commitment" in (fact.when or "")


def test_versions_outside_the_facts_are_unknown():
    for version in (None, (2, 39, 0), (2, 82, 0), (3, 0, 0)):
        assert replacement_facts.replacing_arguments(POOL, version) is None
    assert replacement.pool_replacing_arguments(None) == replacement_facts.ever_replacing(POOL)
    assert "security_group_id" in replacement.pool_replacing_arguments(None)
    assert "security_group_id" not in replacement_facts.always_replacing(POOL)


@pytest.mark.parametrize("key, version, holds", [
    ("autoscaler-fields-force-new", (2, 75, 0), False),
    ("autoscaler-fields-force-new", (2, 76, 0), True),
    ("autoscaler-fields-force-new", (2, 80, 0), True),
    ("autoscaler-fields-force-new", (2, 81, 0), False),
    ("autoscaler-defaults-force-new", (2, 77, 0), True),
    ("autoscaler-defaults-force-new", (2, 77, 1), False),
    ("startup-taints-overwrite-taints", (2, 81, 0), True),
    ("startup-taints-overwrite-taints", (2, 75, 0), False),
    ("security-group-force-new", (2, 57, 0), True),
    ("security-group-force-new", (2, 67, 1), False),
])
def test_regressions_by_version(key, version, holds):
    (regression,) = [r for r in replacement_facts.REGRESSIONS if r.key == key]
    assert regression.holds(version) is holds
    assert regression.holds(None) is None
    assert all(source.startswith("https://github.com/") for source in regression.sources)


CLUSTER_TF = """\
resource "scaleway_vpc_private_network" "k8s" {
  name = "k8s"
}

resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  version                     = "1.35.3"
  cni                         = "cilium"
  private_network_id          = scaleway_vpc_private_network.k8s.id
  delete_additional_resources = false

  autoscaler_config {
    skip_nodes_with_local_storage = false
  }
}
"""
LOCK = """\
provider "registry.terraform.io/scaleway/scaleway" {{
  version     = "{version}"
  constraints = ">= 2.40.0"
}}
"""


@pytest.mark.parametrize("version, fires", [("2.78.0", True), ("2.81.0", False)])
def test_acceptance_the_lock_file_decides_the_autoscaler_regression(tmp_path: Path, monkeypatch, version, fires):
    (tmp_path / "main.tf").write_text(CLUSTER_TF)
    (tmp_path / ".terraform.lock.hcl").write_text(LOCK.format(version=version))
    code, findings, stderr = lint(tmp_path, ["--select", "KAP112"], monkeypatch)
    assert code == (1 if fires else 0), stderr
    if fires:
        (only,) = findings
        assert (only["path"], only["line"], only["column"]) == ("main.tf", 13, 5)
        assert "2.78.0" in only["message"] and "2.81.0" in only["message"]
        assert only["related"][0]["path"] == ".terraform.lock.hcl" and only["related"][0]["line"] == 2
    else:
        assert findings == []


POOL_TF = """\
resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  version                     = "1.35.3"
  cni                         = "cilium"
  private_network_id          = "fr-par/11111111-1111-1111-1111-111111111111"
  delete_additional_resources = false
}

resource "scaleway_k8s_pool" "apps" {
  cluster_id        = scaleway_k8s_cluster.main.id
  node_type         = "PRO2-S"
  size              = 2
  security_group_id = "fr-par-1/22222222-2222-2222-2222-222222222222"
}
"""


@pytest.mark.parametrize("version, extra", [("2.60.0", True), ("2.81.0", False)])
def test_kap201_names_the_replacing_arguments_of_the_version(tmp_path: Path, monkeypatch, version, extra):
    (tmp_path / "main.tf").write_text(POOL_TF)
    (tmp_path / ".terraform.lock.hcl").write_text(LOCK.format(version=version))
    _, findings, stderr = lint(tmp_path, ["--select", "KAP201"], monkeypatch)
    (only,) = findings
    assert ("security_group_id too" in only["message"]) is extra, only["message"]
    assert (f"with provider {version}" in only["message"]) is extra
