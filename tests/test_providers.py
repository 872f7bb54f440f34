"""Provider versions: the lock file, else the newest known release the constraints admit."""

from __future__ import annotations

import pytest
from fixture_support import lint

from kapsulint.kapsule.provider_releases import releases
from kapsulint.model.versions import lowest_admitted, newest_admitted, parse_constraint

SCALEWAY = releases("scaleway/scaleway")
HELM = releases("hashicorp/helm")


@pytest.mark.parametrize(
    ("constraint", "scaleway", "helm"),
    [
        ("~> 2.40", (2, 81, 0), None),
        (">= 2.11.0", (2, 81, 0), (3, 1, 2)),
        ("~> 2.40.0", (2, 40, 0), None),
        ("~> 2", (2, 81, 0), (2, 17, 0)),
        (">= 2.0, < 3.0", (2, 81, 0), (2, 17, 0)),
        ("!= 3.0.0, >= 2.17", (2, 81, 0), (3, 1, 2)),
        ("= 2.60.0", (2, 60, 0), None),
        ("2.60.0", (2, 60, 0), None),
        ("~>2.9", (2, 81, 0), (2, 17, 0)),
        (">= 2.0.0-rc1, < 2.1.0", (2, 0, 0), (2, 0, 3)),
        ("~> 2.54.0-rc1", (2, 54, 0), None),
    ],
)
def test_newest_admitted_release(constraint, scaleway, helm):
    clauses = parse_constraint(constraint)
    assert clauses is not None
    assert newest_admitted(clauses, SCALEWAY) == scaleway
    assert newest_admitted(clauses, HELM) == helm


@pytest.mark.parametrize("constraint", ["2.x", "2.79.*", "^2.0", ">= 2.0 < 3.0", "latest", "~> 2.40,", "v2.40.0",
                                        ""])
def test_constraints_terraform_refuses(constraint):
    assert parse_constraint(constraint) is None


@pytest.mark.parametrize(
    ("constraint", "lowest"),
    [("= 2.0.0-rc1", "2.0.0-rc1"), (">= 2.90", "2.90.0"), ("> 2.90.1", "2.90.2"), ("~> 2.90.0-rc1", "2.90.0"),
     ("> 2.90.0-rc1", "2.90.0"), (">= 2.90, < 2.50", None), ("< 1.0", None), ("2.0.0-rc1, >= 2.0.0", None)],
)
def test_lowest_admitted_version_beyond_the_release_lists(constraint, lowest):
    """Without a known release admitted (a pinned pre-release, a release newer than the facts),
    the version is the lowest one the constraint admits, when one clause bounds it from below."""
    found = lowest_admitted(parse_constraint(constraint))
    assert (found.text if found is not None else None) == lowest


def test_release_lists_are_sorted_and_dated():
    assert tuple(sorted(set(SCALEWAY))) == SCALEWAY
    assert tuple(sorted(set(HELM))) == HELM
    assert (2, 81, 0) in SCALEWAY and (3, 1, 2) in HELM


_POOL_PROJECT = """
terraform {
  required_providers {
    scaleway = {
      source  = "scaleway/scaleway"
      version = "%s"
    }
  }
}

provider "scaleway" {
  region = "fr-par"
}

resource "scaleway_k8s_cluster" "main" {
  name                        = "main"
  type                        = "kapsule"
  version                     = "1.31"
  cni                         = "cilium"
  private_network_id          = "fr-par/11111111-1111-1111-1111-111111111111"
  delete_additional_resources = false
}

resource "scaleway_k8s_pool" "apps" {
  cluster_id = scaleway_k8s_cluster.main.id
  name       = "apps"
  node_type  = "POP2-4C-16G"
  size       = 2
}
"""


@pytest.mark.parametrize(
    ("constraint", "lock", "wanted"),
    [
        ("~> 2.40", None, "the provider generates one"),
        ("~> 2.40", "2.40.0", "name is required before provider 2.78"),
        ("~> 2.40.0", None, "name is required before provider 2.78"),
        ("2.x", None, "from provider 2.78"),
    ],
)
def test_fix_text_follows_the_version_in_use(constraint, lock, wanted, tmp_path, monkeypatch):
    (tmp_path / "main.tf").write_text(_POOL_PROJECT % constraint, encoding="utf-8")
    if lock is not None:
        (tmp_path / ".terraform.lock.hcl").write_text(
            f'provider "registry.terraform.io/scaleway/scaleway" {{\n  version = "{lock}"\n}}\n', encoding="utf-8"
        )
    _, findings, stderr = lint(tmp_path, ["--select", "KAP201"], monkeypatch)
    assert [f["rule"] for f in findings] == ["KAP201"], stderr
    assert wanted in findings[0]["fix"]


@pytest.mark.parametrize(
    ("constraint", "lock", "wanted"),
    [
        ("2.78.0-rc1", None, "from provider 2.78 drop the fixed name"),  # a pre-release of 2.78: either
        ("~> 2.78.0-rc1", None, "drop the fixed name (the provider generates one)"),  # 2.78.x releases
        (">= 2.0", "2.78.0-beta.2", "from provider 2.78 drop the fixed name"),
        (">= 2.77.0-rc1, < 2.78.0", None, "name is required before provider 2.78"),  # 2.77.1
    ],
)
def test_fix_text_follows_a_pre_release(constraint, lock, wanted, tmp_path, monkeypatch):
    test_fix_text_follows_the_version_in_use(constraint, lock, wanted, tmp_path, monkeypatch)


@pytest.mark.parametrize(
    ("constraint", "wanted"),
    [("2.54.0-rc1", "require scaleway provider 2.54.0 or later (2.54.0-rc1 may predate scaleway_k8s_acl), then add"),
     (">= 2.40", 'add a resource "scaleway_k8s_acl"')],
)
def test_acl_advice_the_version_can_take(constraint, wanted, tmp_path, monkeypatch):
    """KAP403 never advises scaleway_k8s_acl as if the version in use had it: a pre-release of
    2.54.0 is told to require 2.54.0 first; an older version gets no finding at all."""
    (tmp_path / "main.tf").write_text(_POOL_PROJECT % constraint, encoding="utf-8")
    _, findings, stderr = lint(tmp_path, ["--select", "KAP403"], monkeypatch)
    assert [f["rule"] for f in findings] == ["KAP403"], stderr
    assert findings[0]["fix"].startswith(wanted)
