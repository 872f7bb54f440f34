"""The pre-commit hook, run by the real pre-commit tool on this working tree."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLUSTER = """\
resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  version                     = "1.31"
  cni                         = "cilium"
  delete_additional_resources = true
}
"""
POOL = """\
resource "scaleway_k8s_pool" "apps" {
  cluster_id = scaleway_k8s_cluster.main.id
  name       = "apps"
  node_type  = "POP2-2C-8G"
  size       = %d
}
"""


def git(directory: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=directory, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"})


def pre_commit() -> list[str]:
    found = shutil.which("pre-commit", path=str(Path(sys.executable).parent)) or shutil.which("pre-commit")
    assert found, "pre-commit is part of the test extra"
    return [found]


def test_hook_fails_a_commit_on_a_footgun_in_another_file_of_the_changed_module(tmp_path):
    repo = tmp_path / "infra"
    module = repo / "cluster"
    module.mkdir(parents=True)
    (module / "cluster.tf").write_text(CLUSTER)
    (module / "pools.tf").write_text(POOL % 2)
    (repo / "README.md").write_text("infra\n")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "initial")
    (module / "pools.tf").write_text(POOL % 3)
    (repo / "README.md").write_text("infra, edited\n")
    git(repo, "add", "cluster/pools.tf", "README.md")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
           "KAPSULINT_CACHE_DIR": str(tmp_path / "cache"), "NO_COLOR": "1"}
    env.pop("VIRTUAL_ENV", None)
    result = subprocess.run([*pre_commit(), "try-repo", str(ROOT), "kapsulint", "--verbose"], cwd=repo, env=env,
                            capture_output=True, text=True, timeout=900)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "cluster/cluster.tf:5:33: KAP101 delete-additional-resources" in output, output
    assert "Failed" in output


RELEASE = """\
resource "helm_release" "haproxy" {
  name       = "haproxy"
  repository = "https://haproxytech.github.io/helm-charts"
  chart      = "kubernetes-ingress"
  version    = "1.44.0"
  values     = [file("${path.module}/values/haproxy.yaml")]
}
"""


def test_hook_checks_a_values_file_named_only_by_the_release_that_reads_it(tmp_path):
    repo = tmp_path / "infra"
    (repo / "values").mkdir(parents=True)
    (repo / "ingress.tf").write_text(RELEASE)
    (repo / "values" / "haproxy.yaml").write_text("controller:\n  config:\n    proxy-protocol: 10.0.0.0/8\n")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "initial")
    (repo / "values" / "haproxy.yaml").write_text('controller:\n  config:\n    proxy-protocol: "0.0.0.0/0"\n')
    git(repo, "add", "values/haproxy.yaml")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
           "KAPSULINT_CACHE_DIR": str(tmp_path / "cache"), "NO_COLOR": "1"}
    env.pop("VIRTUAL_ENV", None)
    result = subprocess.run([*pre_commit(), "try-repo", str(ROOT), "kapsulint", "--verbose"], cwd=repo, env=env,
                            capture_output=True, text=True, timeout=900)
    output = result.stdout + result.stderr
    assert "no files to check" not in output, output
    assert result.returncode == 1, output
    assert "values/haproxy.yaml:3:21: KAP302 proxy-protocol-trusts-any-source" in output, output


UNNAMED_POOL = """\
resource "scaleway_k8s_pool" "apps" {
  cluster_id = "fr-par/11111111-1111-1111-1111-111111111111"
  node_type  = "POP2-4C-16G"
  size       = 3
}
"""


def test_fix_hook_writes_the_safe_fix_and_fails_the_commit_as_ruffs_hook_does(tmp_path):
    repo = tmp_path / "infra"
    repo.mkdir()
    (repo / "pools.tf").write_text(UNNAMED_POOL)
    git(repo, "init", "-q")
    git(repo, "add", ".")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
           "KAPSULINT_CACHE_DIR": str(tmp_path / "cache"), "NO_COLOR": "1"}
    env.pop("VIRTUAL_ENV", None)
    result = subprocess.run([*pre_commit(), "try-repo", str(ROOT), "kapsulint-fix", "--verbose"], cwd=repo,
                            env=env, capture_output=True, text=True, timeout=900)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "files were modified by this hook" in output, output
    fixed = (repo / "pools.tf").read_text()
    assert "  lifecycle {\n    create_before_destroy = true\n  }\n}\n" in fixed, fixed
    git(repo, "add", ".")
    again = subprocess.run([*pre_commit(), "try-repo", str(ROOT), "kapsulint-fix"], cwd=repo, env=env,
                           capture_output=True, text=True, timeout=900)
    assert "files were modified by this hook" not in again.stdout + again.stderr, again.stdout
