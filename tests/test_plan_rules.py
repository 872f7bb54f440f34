"""The rules about planned actions (KAP6xx), run as a new user runs them: ``kapsulint --plan plan.json``
on a project, with the issue's acceptance points, the masking of sensitive values, and the static
rules, suppressions, baselines and exit codes in the same run."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from fixture_support import lint
from kapsulint.cli.command import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
sys.path.insert(0, str(ROOT / "tests" / "plans"))
import fixture_plans  # noqa: E402
from fixture_plans import CLUSTER, CREATE, DELETE, NETWORK, NO_CONFIG, POOL, Change, noop, plan, replaced  # noqa: E402

sys.path.pop(0)

BASE = """\
resource "scaleway_vpc_private_network" "k8s" {
  name = "k8s"
}

resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  version                     = "1.35.3"
  cni                         = "cilium"
  private_network_id          = scaleway_vpc_private_network.k8s.id
  delete_additional_resources = false
}
"""


def project(tmp_path: Path, code: str, document: dict) -> Path:
    (tmp_path / "main.tf").write_text(code, encoding="utf-8")
    (tmp_path / "plan.json").write_text(json.dumps(document, indent=2), encoding="utf-8")
    return tmp_path


def run(directory: Path, monkeypatch, *args: str) -> tuple[int, list[dict], str]:
    return lint(directory, ["--plan", "plan.json", *args], monkeypatch)


def by_rule(findings: list[dict], rule: str) -> list[dict]:
    return [f for f in findings if f["rule"] == rule]


NODE_TYPE_CHANGE = plan([noop(NETWORK), noop(CLUSTER),
                         replaced(POOL, {"node_type": "PRO2-S"}, {"node_type": "PRO2-M"}, paths=(("node_type",),))])
CBD_NAMED = plan([noop(NETWORK), noop(CLUSTER),
                  replaced(POOL, {"node_type": "PRO2-S", "name": "apps"}, {"node_type": "PRO2-M", "name": "apps"},
                           first=("create", "delete"), paths=(("node_type",),))])


def test_acceptance_a_pool_replaced_for_its_node_type_without_create_before_destroy(tmp_path, monkeypatch):
    code = BASE + """
resource "scaleway_k8s_pool" "apps" {
  cluster_id = scaleway_k8s_cluster.main.id
  node_type  = "PRO2-M"
  size       = 3
}
"""
    code_, findings, stderr = run(project(tmp_path, code, NODE_TYPE_CHANGE), monkeypatch, "--select", "KAP6")
    assert code_ == 1, stderr
    (found,) = findings
    assert (found["rule"], found["path"], found["line"], found["column"]) == ("KAP601", "main.tf", 13, 1)
    assert found["related"] == [{"path": "main.tf", "line": 15, "column": 3,
                                 "message": 'node_type "PRO2-S" -> "PRO2-M" forces the replacement'}]


def test_acceptance_create_before_destroy_with_a_fixed_name_gives_the_duplicate_name(tmp_path, monkeypatch):
    code = BASE + """
resource "scaleway_k8s_pool" "apps" {
  cluster_id = scaleway_k8s_cluster.main.id
  name       = "apps"
  node_type  = "PRO2-M"
  size       = 3

  lifecycle {
    create_before_destroy = true
  }
}
"""
    code_, findings, stderr = run(project(tmp_path, code, CBD_NAMED), monkeypatch, "--select", "KAP6")
    assert code_ == 1, stderr
    (found,) = findings
    assert (found["rule"], found["line"], found["column"]) == ("KAP602", 15, 16)
    assert '"apps"' in found["message"] and found["related"][0]["line"] == 16


@pytest.mark.parametrize("case, rule", [
    ("KAP604/fires-cluster-removed-with-additional-resources", "KAP604"),
    ("KAP605/fires-cluster-renamed", "KAP605"),
    ("KAP606/fires-ip-removed-while-annotation-names-it", "KAP606"),
])
def test_acceptance_destroy_rename_and_reserved_ip_each_give_their_finding(tmp_path, monkeypatch, case, rule):
    copy = shutil.copytree(FIXTURES / case, tmp_path / "case")
    code, findings, stderr = run(copy, monkeypatch, "--select", "KAP6")
    assert code == 1, stderr
    assert [f["rule"] for f in findings] == [rule]
    if rule == "KAP604":
        assert findings[0]["severity"] == "error" and "delete_additional_resources = true" in findings[0]["message"]


def test_acceptance_a_plan_of_only_creates_gives_no_plan_finding(tmp_path, monkeypatch):
    copy = shutil.copytree(FIXTURES / "KAP604" / "silent-only-creates", tmp_path / "case")
    code, findings, stderr = run(copy, monkeypatch, "--select", "KAP6,KAP018")
    assert (code, findings) == (0, []), stderr
    assert all("create" in c["change"]["actions"] for c in fixture_plans.ONLY_CREATES["resource_changes"])


def test_static_rules_run_in_the_same_report_with_the_same_suppressions_and_exit_codes(tmp_path, monkeypatch):
    code = BASE + """
# kapsulint: ignore[KAP206] autohealing decided elsewhere
resource "scaleway_k8s_pool" "apps" {
  cluster_id = scaleway_k8s_cluster.main.id
  node_type  = "PRO2-M"
  size       = 3
}
"""
    directory = project(tmp_path, code, NODE_TYPE_CHANGE)
    status, findings, stderr = run(directory, monkeypatch, "--select", "KAP201,KAP206,KAP601")
    assert status == 1, stderr
    assert sorted(f["rule"] for f in findings) == ["KAP201", "KAP601"]
    (directory / "main.tf").write_text(code.replace("ignore[KAP206]", "ignore[KAP206, KAP601]"))
    status, findings, _ = run(directory, monkeypatch, "--select", "KAP201,KAP206,KAP601")
    assert [f["rule"] for f in findings] == ["KAP201"]
    status, findings, _ = run(directory, monkeypatch, "--select", "KAP601", "--fail-on", "error")
    assert (status, findings) == (0, [])


def test_a_baseline_holds_plan_findings_as_any_other(tmp_path, monkeypatch):
    copy = shutil.copytree(FIXTURES / "KAP604" / "fires-cluster-removed-with-additional-resources", tmp_path / "case")
    baseline = tmp_path / "baseline.json"
    code, _, stderr = run(copy, monkeypatch, "--select", "KAP604", "--write-baseline", str(baseline))
    assert code == 0, stderr
    code, findings, stderr = run(copy, monkeypatch, "--select", "KAP604", "--baseline", str(baseline))
    assert (code, findings) == (0, []), stderr


def test_sensitive_values_stay_masked_in_every_format(tmp_path, monkeypatch):
    """The plan's kubeconfig token (before_sensitive) and a name from a sensitive variable of the
    project never reach a report."""
    code = """\
variable "cluster_name" {
  type      = string
  sensitive = true
  default   = "prod-blue-secret-name"
}

resource "scaleway_vpc_private_network" "k8s" {
  name = "k8s"
}

resource "scaleway_k8s_cluster" "main" {
  name                        = var.cluster_name
  version                     = "1.35.3"
  cni                         = "calico"
  private_network_id          = scaleway_vpc_private_network.k8s.id
  delete_additional_resources = false
}
"""
    document = plan([noop(NETWORK),
                     Change(CLUSTER, ("update",), {"name": "prod-green-secret-name"}, {"name": "prod-blue-secret-name"})])
    directory = project(tmp_path, code, document)
    monkeypatch.chdir(directory)
    token = fixture_plans.SCHEMAS["scaleway_k8s_cluster"]["kubeconfig"][0]["token"]
    for output in ("text", "json", "sarif", "github", "gitlab"):
        result = CliRunner().invoke(main, ["--plan", "plan.json", "--select", "KAP605", "--format", output])
        assert result.exit_code == 1, result.stderr
        assert "KAP605" in result.stdout
        for secret in ("prod-blue-secret-name", "prod-green-secret-name", token):
            assert secret not in result.stdout and secret not in result.stderr, (output, secret)
    code_, findings, _ = run(directory, monkeypatch, "--select", "KAP605")
    assert "(sensitive value)" in findings[0]["message"]


def test_the_plan_s_own_sensitive_marks_mask_values(tmp_path, monkeypatch):
    document = plan([noop(NETWORK),
                     Change(CLUSTER, ("update",), {"name": "alpha-secret"}, {"name": "beta-secret"})])
    for change in document["resource_changes"]:
        if change["address"] == CLUSTER:
            change["change"]["before_sensitive"]["name"] = True
            change["change"]["after_sensitive"]["name"] = True
    directory = project(tmp_path, BASE.replace('"prod"', '"beta-secret"'), document)
    code, findings, stderr = run(directory, monkeypatch, "--select", "KAP605")
    assert code == 1, stderr
    assert "alpha-secret" not in findings[0]["message"] and "beta-secret" not in findings[0]["message"]


def test_plan_findings_are_located_in_modules_with_keys(tmp_path, monkeypatch):
    (tmp_path / "modules" / "pool").mkdir(parents=True)
    (tmp_path / "modules" / "pool" / "main.tf").write_text("""\
variable "cluster_id" {}
variable "node_type" {}

resource "scaleway_k8s_pool" "this" {
  count      = 1
  cluster_id = var.cluster_id
  node_type  = var.node_type
  size       = 2
}
""")
    code = BASE + """
module "pools" {
  source     = "./modules/pool"
  for_each   = { apps = "PRO2-M" }
  cluster_id = scaleway_k8s_cluster.main.id
  node_type  = each.value
}
"""
    address = 'module.pools["apps"].scaleway_k8s_pool.this[0]'
    document = plan([noop(NETWORK), noop(CLUSTER),
                     replaced(address, {"node_type": "PRO2-S"}, {"node_type": "PRO2-M"}, paths=(("node_type",),))])
    change = document["resource_changes"][-1]
    assert change["address"] == address
    change["module_address"] = 'module.pools["apps"]'
    change["index"] = 0
    document["configuration"]["root_module"]["module_calls"] = {
        "pools": {"source": "./modules/pool", "module": {"resources": [
            {"address": "scaleway_k8s_pool.this", "mode": "managed", "type": "scaleway_k8s_pool", "name": "this"}]}}}
    document["configuration"]["root_module"]["resources"] = [
        r for r in document["configuration"]["root_module"]["resources"] if not r["address"].startswith("module.")]
    status, findings, stderr = run(project(tmp_path, code, document), monkeypatch, "--select", "KAP601,KAP018")
    assert status == 1, stderr
    (found,) = findings
    assert (found["rule"], found["path"], found["line"]) == ("KAP601", "modules/pool/main.tf", 4)
    assert found["related"][0]["path"] == "modules/pool/main.tf" and found["related"][0]["line"] == 7
    assert address in found["message"]


def test_removed_pool_of_a_destroyed_cluster_is_said_once_with_its_cluster(tmp_path, monkeypatch):
    document = plan([noop(NETWORK), Change(CLUSTER, DELETE, {}, None, NO_CONFIG), Change(POOL, DELETE, {}, None, NO_CONFIG)])
    code = 'resource "scaleway_vpc_private_network" "k8s" {\n  name = "k8s"\n}\n'
    status, findings, stderr = run(project(tmp_path, code, document), monkeypatch, "--select", "KAP604")
    assert status == 1, stderr
    (found,) = findings
    assert found["path"] == "plan.json" and "scaleway_k8s_pool.apps" in found["message"]
    assert "delete_additional_resources = false" in found["message"]


def test_without_a_plan_the_plan_rules_say_nothing(tmp_path, monkeypatch):
    copy = shutil.copytree(FIXTURES / "KAP601" / "fires-node-type-change-deletes-first", tmp_path / "case")
    status, findings, stderr = lint(copy, ["--select", "KAP6,KAP018"], monkeypatch)
    assert (status, findings) == (0, []), stderr


def test_a_created_cluster_with_unknown_values_is_never_judged(tmp_path, monkeypatch):
    document = plan([Change(NETWORK, CREATE, None, {"name": "k8s"}),
                     Change(CLUSTER, CREATE, None, {"name": "prod"}, unknown=("private_network_id", "name"))])
    status, findings, stderr = run(project(tmp_path, BASE, document), monkeypatch, "--select", "KAP6")
    assert (status, findings) == (0, []), stderr


def test_without_replace_paths_the_replacement_facts_say_what_forces_it(tmp_path, monkeypatch):
    code = BASE + """
resource "scaleway_k8s_pool" "apps" {
  cluster_id = scaleway_k8s_cluster.main.id
  node_type  = "PRO2-M"
  size       = 3
}
"""
    document = json.loads(json.dumps(NODE_TYPE_CHANGE))
    for change in document["resource_changes"]:
        change["change"].pop("replace_paths", None)
        if change["address"] == POOL:
            change["change"]["after"]["size"] = 5  # changes too, but is updated in place
    status, findings, stderr = run(project(tmp_path, code, document), monkeypatch, "--select", "KAP601")
    assert status == 1, stderr
    (found,) = findings
    assert 'forced by node_type "PRO2-S" -> "PRO2-M"' in found["message"] and "size" not in found["message"]
    assert [r["line"] for r in found["related"]] == [15]
