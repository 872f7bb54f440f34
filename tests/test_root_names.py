"""Instance addresses name their root module when two roots call the same module.

``module.kubernetes.scaleway_k8s_pool.apps`` is the same address in ``infra/prod`` and in
``infra/staging`` when both call ``../../modules/k8s`` as ``kubernetes``: a finding in the module
lists one instance per root, each with the root's path from the project root, so the owner can
tell which ``terraform apply`` is meant. A module only one root reaches keeps Terraform's address.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from fixture_support import lint

MODULE = """\
variable "cluster_id" {
  type = string
}

resource "scaleway_k8s_pool" "apps" {
  cluster_id  = var.cluster_id
  name        = "apps"
  node_type   = "PRO2-S"
  size        = 2
  autohealing = true
}
"""

ROOT = """\
provider "scaleway" {
  region = "fr-par"
}

module "kubernetes" {
  source     = "../../modules/k8s"
  cluster_id = "fr-par/11111111-1111-1111-1111-111111111111"
}
"""


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("KAPSULINT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def _write(project: Path, files: dict[str, str]) -> None:
    (project / ".kapsulint.toml").parent.mkdir(parents=True, exist_ok=True)
    (project / ".kapsulint.toml").write_text("", encoding="utf-8")
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(textwrap.dedent(text), encoding="utf-8")


def test_two_roots_calling_one_module_are_named(tmp_path, monkeypatch):
    _write(tmp_path, {"modules/k8s/main.tf": MODULE, "infra/prod/main.tf": ROOT, "infra/staging/main.tf": ROOT})
    _, findings, _ = lint(tmp_path, ["--select", "KAP201"], monkeypatch)
    assert [(f["path"], f["line"], f["column"], f["message"].split(" has ")[0], f["instances"]) for f in findings] == [
        ("modules/k8s/main.tf", 5, 1, "scaleway_k8s_pool.apps", [
            "module.kubernetes.scaleway_k8s_pool.apps (root infra/prod)",
            "module.kubernetes.scaleway_k8s_pool.apps (root infra/staging)",
        ]),
    ]


def test_a_module_of_one_root_keeps_terraform_address(tmp_path, monkeypatch):
    _write(tmp_path, {"modules/k8s/main.tf": MODULE, "infra/prod/main.tf": ROOT})
    _, findings, _ = lint(tmp_path, ["--select", "KAP201"], monkeypatch)
    assert [(f["path"], f["line"], f["column"], f["instances"]) for f in findings] == [
        ("modules/k8s/main.tf", 5, 1, ["module.kubernetes.scaleway_k8s_pool.apps"]),
    ]


def test_the_project_root_itself_is_named_dot(tmp_path, monkeypatch):
    root = ROOT.replace("../../modules/k8s", "./modules/k8s")
    _write(tmp_path, {"modules/k8s/main.tf": MODULE, "main.tf": root,
                      "infra/staging/main.tf": ROOT})
    _, findings, _ = lint(tmp_path, ["--select", "KAP201"], monkeypatch)
    assert [f["instances"] for f in findings] == [[
        "module.kubernetes.scaleway_k8s_pool.apps (root .)",
        "module.kubernetes.scaleway_k8s_pool.apps (root infra/staging)",
    ]]
