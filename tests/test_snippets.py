"""The README's pre-commit and GitHub Action snippets agree with what this repository defines
(.pre-commit-hooks.yaml, action.yml, pyproject.toml) and name one release tag, ``v<version>``,
the tag SARIF's helpUri links; the local hook snippet runs as written under the real pre-commit."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from ruamel.yaml import YAML

import kapsulint
from kapsulint.lint import registry

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
REPOSITORY = PYPROJECT["project"]["urls"]["Repository"]
TAG = f"v{kapsulint.__version__}"
HOOKS = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
ACTION = YAML(typ="safe").load((ROOT / "action.yml").read_text(encoding="utf-8"))


def _section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end if end >= 0 else len(README)]


def _yaml_blocks(title: str) -> list:
    blocks = re.findall(r"^```yaml\n(.*?)^```$", _section(title), re.S | re.M)
    assert blocks, f"no yaml block in the README's {title} section"
    return [YAML(typ="safe").load(block) for block in blocks]


def _repos(repo: str) -> list[dict]:
    found = [r for block in _yaml_blocks("pre-commit") for r in block.get("repos", []) if r["repo"] == repo]
    assert found, f"the README's pre-commit section has no repo {repo!r}"
    return found


def _verbose_regex(pattern: str) -> str:
    """A ``(?x)`` pattern without the blanks verbose mode ignores (none of these escape a blank)."""
    assert pattern.startswith("(?x)"), pattern
    return re.sub(r"\s+", "", pattern)


def test_the_local_hook_is_the_hook_this_repository_defines():
    defined = next(h for h in HOOKS if h["id"] == "kapsulint")
    (repo,) = _repos("local")
    (hook,) = repo["hooks"]
    for key in ("id", "name", "entry", "language", "pass_filenames", "require_serial"):
        assert hook[key] == defined[key], key
    assert _verbose_regex(hook["files"]) == _verbose_regex(defined["files"])
    assert set(hook) == set(defined) - {"description"} | {"additional_dependencies"}
    assert hook["entry"] in PYPROJECT["project"]["scripts"]
    assert len(hook["additional_dependencies"]) == 1


def test_the_fix_hook_is_the_lint_hook_with_fix():
    """``kapsulint-fix`` runs ``kapsulint --fix`` on the same files, as Ruff's hook with ``--fix``."""
    lint, fix = (next(h for h in HOOKS if h["id"] == name) for name in ("kapsulint", "kapsulint-fix"))
    assert fix["args"] == ["--fix"]
    for key in ("entry", "language", "pass_filenames", "require_serial", "files"):
        assert fix[key] == lint[key], key
    assert "kapsulint-fix" in _section("pre-commit")


def test_the_remote_hook_pins_the_release_tag():
    for repo in _repos(REPOSITORY):
        assert repo["rev"] == TAG
        assert {h["id"] for h in repo["hooks"]} <= {h["id"] for h in HOOKS}
    assert f"`{TAG}`" in _section("pre-commit")


def test_the_recipes_for_an_existing_repository():
    """pre-commit on a repository with findings: only what the commit adds, or a baseline."""
    args = [h.get("args") for repo in _repos(REPOSITORY) for h in repo["hooks"]]
    assert ["--since", "HEAD"] in args and ["--baseline", "kapsulint-baseline.json"] in args


def test_the_workflow_uses_the_action_at_the_release_tag_with_its_inputs():
    (workflow,) = [b for b in _yaml_blocks("GitHub code scanning") if "jobs" in b]
    (job,) = workflow["jobs"].values()
    (step,) = [s for s in job["steps"] if s.get("uses", "").startswith(("kapsulint/", "./"))]
    action, ref = step["uses"].split("@")
    assert f"https://github.com/{action}" == REPOSITORY
    assert ref == TAG == job["env"]["KAPSULINT_REF"]
    assert set(step.get("with", {})) <= set(ACTION["inputs"])
    outputs = re.findall(rf"steps\.{step['id']}\.outputs\.([\w-]+)", _section("GitHub code scanning"))
    assert outputs and set(outputs) <= set(ACTION["outputs"])
    assert workflow["permissions"]["security-events"] == "write"


def test_sarif_help_links_the_readme_at_the_release_tag():
    assert registry.REPOSITORY == REPOSITORY
    assert registry.docs_uri(kapsulint.__version__) == f"{REPOSITORY}/blob/{TAG}/README.md"


def _pre_commit() -> str:
    found = shutil.which("pre-commit", path=str(Path(sys.executable).parent)) or shutil.which("pre-commit")
    assert found, "pre-commit is part of the test extra"
    return found


def _git(directory: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=directory, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"})


def test_the_local_hook_snippet_runs_as_written(tmp_path):
    """The README's block, with its clone path pointing at a copy of this checkout, blocks a
    footgun under pre-commit, which installs kapsulint from that path."""
    clone = tmp_path / "kapsulint"
    shutil.copytree(ROOT, clone, symlinks=True, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis"))
    block = re.search(r"^```yaml\n(repos:\n  - repo: local\n.*?)^```$", _section("pre-commit"), re.S | re.M)
    assert block, "the README's local hook block"
    assert block.group(1).count("/path/to/kapsulint") == 1
    repo = tmp_path / "infra"
    repo.mkdir()
    (repo / ".pre-commit-config.yaml").write_text(block.group(1).replace("/path/to/kapsulint", str(clone)))
    (repo / "cluster.tf").write_text('resource "scaleway_k8s_cluster" "main" {\n'
                                     '  delete_additional_resources = true\n}\n')
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
           "KAPSULINT_CACHE_DIR": str(tmp_path / "cache"), "NO_COLOR": "1"}
    env.pop("VIRTUAL_ENV", None)
    result = subprocess.run([_pre_commit(), "run", "kapsulint", "--all-files"], cwd=repo, env=env,
                            capture_output=True, text=True, timeout=900)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "cluster.tf:2:33: KAP101 delete-additional-resources" in output, output


def test_the_readme_lists_every_action_input_and_its_snippets_use_only_them():
    section = _section("GitHub code scanning")
    table = set(re.findall(r"^\| `([\w-]+)` \|", section, re.M))
    assert table == set(ACTION["inputs"])
    steps = []
    for block in _yaml_blocks("GitHub code scanning"):
        if isinstance(block, dict):
            steps.extend(s for job in block.get("jobs", {}).values() for s in job["steps"])
        else:
            steps.extend(block)
    uses = [s for s in steps if s.get("uses", "").startswith("kapsulint/")]
    assert len(uses) >= 2
    for step in uses:
        assert set(step.get("with", {})) <= set(ACTION["inputs"]), step
    assert any("plan" in step.get("with", {}) for step in uses)
    assert "show -json tfplan" in section and "terraform plan -out tfplan && terraform show -json tfplan > plan.json" in README
