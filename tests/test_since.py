"""--since REF: only the findings the working tree adds to a git revision."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from fixture_support import lint

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "production"
TODAY = ["--today", "2026-06-01"]

LEGACY = """\
resource "scaleway_k8s_cluster" "legacy" {
  name                        = "legacy"
  version                     = "1.31"
  cni                         = "cilium"
  delete_additional_resources = true
}
"""
ONE_FOOTGUN = """\
resource "scaleway_k8s_pool" "batch" {
  cluster_id  = scaleway_k8s_cluster.main.id
  node_type   = "POP2-4C-16G"
  size        = 2
  min_size    = 2
  max_size    = 3
  autoscaling = true
  autohealing = false
  tags        = local.common_tags

  lifecycle {
    create_before_destroy = true
  }
}
"""


def git(directory: Path, *arguments: str) -> str:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    environment.update(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t",
                       GIT_COMMITTER_EMAIL="t@example.com", GIT_CONFIG_NOSYSTEM="1", HOME=str(directory))
    return subprocess.run(["git", "-C", str(directory), *arguments], check=True, capture_output=True,
                          text=True, env=environment).stdout


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """The example project and a legacy cluster committed, with their ten findings or more."""
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLE, root)
    (root / "legacy.tf").write_text(LEGACY)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "first")
    return root


def test_a_new_file_reports_its_one_finding_and_nothing_committed(repository, monkeypatch):
    code, committed, _ = lint(repository, TODAY, monkeypatch)
    assert code == 1 and len(committed) >= 10
    (repository / "batch.tf").write_text(ONE_FOOTGUN)
    code, findings, stderr = lint(repository, [*TODAY, "--since", "HEAD"], monkeypatch)
    assert [(f["path"], f["line"], f["column"], f["rule"]) for f in findings] == [("batch.tf", 8, 17, "KAP206")]
    assert code == 1, stderr


def test_a_block_moved_ten_lines_down_is_not_new(repository, monkeypatch):
    pools = repository / "pools.tf"
    text = pools.read_text()
    head, marker, tail = text.partition("# Stateless application pods.")
    pools.write_text(head + "".join(f"# moved {n}\n" for n in range(10)) + marker + tail)
    code, moved, _ = lint(repository, TODAY, monkeypatch)
    assert any(f["path"] == "pools.tf" and f["line"] == 29 for f in moved)  # KAP201 of the apps pool, moved
    code, findings, stderr = lint(repository, [*TODAY, "--since", "HEAD"], monkeypatch)
    assert findings == [] and code == 0, stderr
    assert f"kapsulint: {len(moved)} findings already in HEAD (--since) not reported" in stderr


def test_a_file_named_as_path_that_the_revision_lacks(repository, monkeypatch):
    """pre-commit passes the changed files: one REF does not have is linted in REF as its directory."""
    (repository / "batch.tf").write_text(ONE_FOOTGUN)
    code, findings, _ = lint(repository, [*TODAY, "--since", "HEAD", "batch.tf", "pools.tf"], monkeypatch)
    assert [(f["path"], f["rule"]) for f in findings] == [("batch.tf", "KAP206")] and code == 1


def test_a_suppression_removed_reports_the_finding(repository, monkeypatch):
    pools = repository / "pools.tf"
    pools.write_text(pools.read_text().replace(
        "# Stateless application pods.\n",
        "# kapsulint: ignore[KAP201] replaced by hand\n"))
    git(repository, "commit", "-q", "-am", "suppress")
    assert lint(repository, [*TODAY, "--since", "HEAD", "--select", "KAP201"], monkeypatch)[1] == []
    pools.write_text(pools.read_text().replace("# kapsulint: ignore[KAP201] replaced by hand\n", ""))
    code, findings, _ = lint(repository, [*TODAY, "--since", "HEAD", "--select", "KAP201"], monkeypatch)
    assert [(f["path"], f["line"], f["rule"]) for f in findings] == [("pools.tf", 18, "KAP201")]


def test_an_older_revision_and_the_configuration_key(repository, monkeypatch):
    (repository / "batch.tf").write_text(ONE_FOOTGUN)
    git(repository, "add", "batch.tf")
    git(repository, "commit", "-q", "-m", "batch")
    code, findings, _ = lint(repository, [*TODAY, "--since", "HEAD~1"], monkeypatch)
    assert [f["rule"] for f in findings] == ["KAP206"]
    (repository / ".kapsulint.toml").write_text('since = "HEAD~1"\n')
    code, findings, _ = lint(repository, TODAY, monkeypatch)
    assert [f["rule"] for f in findings] == ["KAP206"] and code == 1
    code, findings, _ = lint(repository, [*TODAY, "--since", "main"], monkeypatch)  # the command line wins
    assert findings == [] and code == 0


def test_the_working_tree_configuration_applies_to_the_revision(repository, monkeypatch):
    """REF is linted with today's configuration: a rule ignored at REF and enabled now does not
    make every old finding of it new."""
    (repository / ".kapsulint.toml").write_text('ignore = ["KAP201"]\n')
    git(repository, "add", ".kapsulint.toml")
    git(repository, "commit", "-q", "-m", "ignore")
    (repository / ".kapsulint.toml").write_text("")
    code, findings, _ = lint(repository, [*TODAY, "--since", "HEAD"], monkeypatch)
    assert findings == [] and code == 0


def test_no_git_repository_and_unknown_revisions_exit_2(tmp_path, repository, monkeypatch):
    plain = tmp_path / "plain"
    shutil.copytree(EXAMPLE, plain)
    code, _, stderr = lint(plain, ["--since", "HEAD"], monkeypatch)
    assert code == 2 and "not in a git repository" in stderr
    for ref in ("no-such-branch", "--output=x", "HEAD~99"):
        code, _, stderr = lint(repository, ["--since", ref], monkeypatch)
        assert code == 2 and "--since" in stderr and "Traceback" not in stderr, ref
    assert not (repository / "x").exists()


def test_the_revision_is_read_from_git_without_running_anything(repository, monkeypatch, tmp_path):
    """No hook, fsmonitor, filter or textconv of the repository runs, and the user's tree is not
    touched: REF's tree goes to the cache, by commit."""
    ran = tmp_path / "ran"
    script = tmp_path / "run.sh"
    script.write_text(f"#!/bin/sh\ntouch {ran}\ncat\n")
    script.chmod(0o755)
    (repository / ".gitattributes").write_text("*.tf filter=evil diff=evil\n")
    git(repository, "add", ".gitattributes")
    git(repository, "commit", "-q", "-m", "attributes")
    for key in ("core.fsmonitor", "filter.evil.smudge", "filter.evil.clean", "diff.evil.textconv",
                "core.hooksPath"):
        git(repository, "config", key, str(script) if key != "core.hooksPath" else str(tmp_path))
    for hook in ("post-checkout", "pre-commit", "reference-transaction"):
        shutil.copy(script, tmp_path / hook)
    status = git(repository, "status", "--porcelain", "--ignored")
    ran.unlink(missing_ok=True)
    (repository / "batch.tf").write_text(ONE_FOOTGUN)
    code, findings, _ = lint(repository, [*TODAY, "--since", "HEAD"], monkeypatch)
    assert [f["rule"] for f in findings] == ["KAP206"]
    assert not ran.exists()
    (repository / "batch.tf").unlink()
    assert git(repository, "status", "--porcelain", "--ignored") == status
    head = git(repository, "rev-parse", "HEAD").strip()
    trees = Path(os.environ["KAPSULINT_CACHE_DIR"]) / "since"
    assert any(p.name.startswith(head) for p in trees.iterdir())



def test_ignored_files_of_the_working_tree_count_for_the_revision_too(repository, monkeypatch):
    """A gitignored terraform.tfvars is the working tree's environment, not its change: REF is
    linted with it, so a finding its value causes is no news."""
    (repository / ".gitignore").write_text("*.auto.tfvars\n")
    (repository / "batch.tf").write_text(ONE_FOOTGUN.replace("autohealing = false", 'autohealing = var.stage == "prod"')
                                         + 'variable "stage" {\n  type = string\n}\n')
    git(repository, "add", ".")
    git(repository, "commit", "-q", "-m", "batch")
    (repository / "local.auto.tfvars").write_text('stage = "dev"\n')
    code, findings, _ = lint(repository, TODAY, monkeypatch)
    assert ("batch.tf", 8, "KAP206") in {(f["path"], f["line"], f["rule"]) for f in findings}
    code, findings, stderr = lint(repository, [*TODAY, "--since", "HEAD"], monkeypatch)
    assert findings == [] and code == 0, stderr
    assert git(repository, "status", "--porcelain") == ""
    # A file the change adds, not ignored, still is the change's.
    (repository / "more.tf").write_text(ONE_FOOTGUN.replace('"batch"', '"more"'))
    code, findings, _ = lint(repository, [*TODAY, "--since", "HEAD", "--no-cache"], monkeypatch)
    assert [(f["path"], f["rule"]) for f in findings] == [("more.tf", "KAP206")]
    trees = Path(os.environ["KAPSULINT_CACHE_DIR"]) / "since"
    assert not [p for p in trees.iterdir() if p.name.startswith("run-")]


def test_links_and_large_files_of_the_revision_are_refused_as_in_the_working_tree(repository, monkeypatch):
    """A link out of the repository (KAP014) and a file over max-file-size (KAP005), committed, are
    the same findings in REF's tree: not new."""
    (repository / "leak.tf").symlink_to("/etc/hostname")
    (repository / "pools-again.tf").symlink_to("pools.tf")
    (repository / "big.tf").write_text("# " + "x" * 2048 + "\n")
    (repository / ".kapsulint.toml").write_text("max-file-size = 1024\n")
    git(repository, "add", ".")
    git(repository, "commit", "-q", "-m", "links")
    code, findings, stderr = lint(repository, TODAY, monkeypatch)
    assert {"KAP005", "KAP014"} <= {f["rule"] for f in findings}, stderr
    code, findings, stderr = lint(repository, [*TODAY, "--since", "HEAD"], monkeypatch)
    assert findings == [] and code == 0, stderr
