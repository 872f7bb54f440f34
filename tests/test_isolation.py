"""Isolation (issue 12): a project's findings are the same linted alone as inside a larger tree.

Every fixture case is linted alone, then inside a tree beside a project with a file that cannot
be parsed, a root module that calls a registry module (and holds an ACL and a gateway network
whose targets are Unknown), and another project with its own cluster and ingress release. The
findings in the case must be the same: a release without a helm provider connection is linked to
the only cluster of its own root module tree, so a cluster of another root module changes nothing.
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
from fixture_support import case_config, cases, lint

NEIGHBOURS = {
    "broken/main.tf": """\
        resource "scaleway_k8s_cluster" "half" {
          name = "half"
        """,
    "registry/main.tf": """\
        provider "scaleway" {
          region = "fr-par"
        }

        variable "cluster_id" {
          type = string
        }

        variable "network_id" {
          type = string
        }

        module "vpc" {
          source  = "scaleway-terraform-modules/vpc/scaleway"
          version = "1.0.0"
        }

        resource "scaleway_k8s_acl" "any" {
          cluster_id = var.cluster_id
          acl_rules {
            ip = "198.51.100.0/24"
          }
        }

        resource "scaleway_vpc_gateway_network" "any" {
          gateway_id         = "fr-par-1/11111111-1111-1111-1111-111111111111"
          private_network_id = var.network_id
        }
        """,
    "other/main.tf": """\
        provider "scaleway" {
          region = "fr-par"
        }

        resource "scaleway_vpc_private_network" "nodes" {
          name = "other-nodes"
        }

        resource "scaleway_k8s_cluster" "other" {
          name                        = "other"
          type                        = "kapsule-dedicated-4"
          version                     = "1.31"
          cni                         = "cilium"
          private_network_id          = scaleway_vpc_private_network.nodes.id
          delete_additional_resources = false

          auto_upgrade {
            enable                        = true
            maintenance_window_start_hour = 3
            maintenance_window_day        = "sunday"
          }
        }

        resource "scaleway_k8s_acl" "other" {
          cluster_id    = scaleway_k8s_cluster.other.id
          no_ip_allowed = true
        }

        resource "scaleway_k8s_pool" "small" {
          cluster_id  = scaleway_k8s_cluster.other.id
          name        = "small"
          node_type   = "DEV1-M"
          size        = 1
          autohealing = true
        }

        resource "helm_release" "ingress" {
          name       = "ingress-nginx"
          repository = "https://kubernetes.github.io/ingress-nginx"
          chart      = "ingress-nginx"
          version    = "4.11.3"
        }
        """,
    "apps/main.tf": """\
        provider "helm" {
          kubernetes = {
            config_path = "~/.kube/config"
          }
        }

        resource "helm_release" "traefik" {
          name       = "traefik"
          repository = "https://traefik.github.io/charts"
          chart      = "traefik"
          version    = "33.0.0"
        }
        """,
}


def _plain(case: Path) -> bool:
    """Cases that are one project with no command-line input and no configuration of their own."""
    config = case_config(case)
    own = any((case / name).exists() for name in (".kapsulint.toml", "pyproject.toml", ".gitignore"))
    return not (config.get("args") or config.get("env") or own)


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("KAPSULINT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def _where(findings: list[dict], prefix: str = "") -> set[tuple]:
    return {(f["path"][len(prefix):], f["line"], f["column"], f["rule"]) for f in findings
            if f["path"].startswith(prefix)}


@pytest.mark.parametrize("case", [c for c in cases() if _plain(c)], ids=lambda c: f"{c.parent.name}/{c.name}")
def test_findings_are_the_same_alone_and_beside_other_projects(case, tmp_path, monkeypatch):
    alone = tmp_path / "alone"
    shutil.copytree(case, alone, symlinks=True)
    _, found, _ = lint(alone, [], monkeypatch)
    tree = tmp_path / "tree"
    shutil.copytree(case, tree / "project", symlinks=True)
    for name, text in NEIGHBOURS.items():
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_text(textwrap.dedent(text), encoding="utf-8")
    _, found_in_tree, _ = lint(tree, [], monkeypatch)
    expected, seen = _where(found), _where(found_in_tree, "project/")
    assert seen <= expected, f"appeared or moved in the larger tree: {sorted(seen - expected)}"
    silenced = expected - seen
    assert not silenced, f"silenced in the larger tree: {sorted(silenced)}"
