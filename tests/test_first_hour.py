"""The frictions of a first hour with kapsulint: diffs that apply, counts that agree, suppressions
that fail closed, configuration errors all at once, baselines that say what they hid."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from kapsulint.cli.command import main

POOL = """\
resource "scaleway_k8s_pool" "apps" {
  cluster_id = "fr-par/11111111-1111-1111-1111-111111111111"
  node_type  = "POP2-4C-16G"
  size       = 3
}
"""


def invoke(directory: Path, *arguments: str, env: dict | None = None):
    cwd = os.getcwd()
    os.chdir(directory)
    try:
        return CliRunner().invoke(main, ["--today", "2026-06-01", *arguments], catch_exceptions=False, env=env)
    finally:
        os.chdir(cwd)


def git(directory: Path, *arguments: str, stdin: str | None = None) -> str:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    environment.update(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t",
                       GIT_COMMITTER_EMAIL="t@example.com", GIT_CONFIG_NOSYSTEM="1", HOME=str(directory))
    return subprocess.run(["git", "-C", str(directory), *arguments], check=True, capture_output=True, text=True,
                          env=environment, input=stdin).stdout


def headers(diff: str) -> list[str]:
    return [line for line in diff.splitlines() if line.startswith(("--- ", "+++ "))]


@pytest.mark.parametrize("name", ["prod terraform/main.tf", "caf\u00e9/main.tf", 'say "hi"/main.tf',
                                  "back\\slash/main.tf", "plain/main.tf"])
def test_the_diff_applies_with_patch_and_git_apply_and_has_gits_headers(tmp_path, name):
    project = tmp_path / "project"
    (project / name).parent.mkdir(parents=True)
    (project / name).write_text(POOL)
    (project / ".kapsulint.toml").write_text("")
    arguments = ("--select", "KAP206", "--unsafe-fixes")
    diff = invoke(project, *arguments, "--diff")
    assert diff.exit_code == 1, diff.stderr
    fixed = tmp_path / "fixed"
    shutil.copytree(project, fixed)
    assert invoke(fixed, *arguments, "--fix").exit_code == 0
    expected = (fixed / name).read_text()
    assert expected != POOL
    with_patch = tmp_path / "with-patch"
    shutil.copytree(project, with_patch)
    subprocess.run(["patch", "-p1", "--quiet"], input=diff.stdout, text=True, cwd=with_patch, check=True)
    assert (with_patch / name).read_text() == expected
    with_git = tmp_path / "with-git"
    shutil.copytree(project, with_git)
    git(with_git, "init", "-q")
    git(with_git, "add", ".")
    git(with_git, "commit", "-q", "-m", "before")
    git(with_git, "apply", "-p1", "-", stdin=diff.stdout)
    assert (with_git / name).read_text() == expected
    assert headers(diff.stdout) == headers(git(with_git, "diff"))


HELM_V2_ON_V3 = """\
terraform {
  required_providers {
    helm = { source = "hashicorp/helm", version = "~> 3.0" }
  }
}

resource "helm_release" "ingress" {
  name       = "ingress"
  repository = "https://kubernetes.github.io/ingress-nginx"
  chart      = "ingress-nginx"
  version    = "4.15.1"

  set {
    name  = "controller.service.type"
    value = "LoadBalancer"
  }
  set {
    name  = "controller.replicaCount"
    value = "2"
  }
}
"""


def count_in(text: str, pattern: str) -> int:
    import re

    found = re.search(pattern, text)
    assert found, text
    return int(found.group(1))


def test_fix_counts_are_findings_in_the_report_the_diff_and_the_fix(tmp_path):
    """One fix rewrites both `set` blocks as one list, taking two findings away: every count says 2,
    and as many findings are gone."""
    (tmp_path / "main.tf").write_text(HELM_V2_ON_V3 + POOL)
    (tmp_path / ".kapsulint.toml").write_text('select = ["KAP312", "KAP206"]\n')
    import json

    before = json.loads(invoke(tmp_path, "--format", "json").stdout)
    report = invoke(tmp_path, "--unsafe-fixes").stdout
    fixable = count_in(report, r"\[\*\] (\d+) fixable")
    assert fixable == 3 == len(before)
    diff = invoke(tmp_path, "--unsafe-fixes", "--diff")
    assert count_in(diff.stderr, r"Would fix (\d+) findings") == fixable
    fixed = invoke(tmp_path, "--unsafe-fixes", "--fix")
    assert count_in(fixed.stderr, r"Fixed (\d+) findings") == fixable
    after = json.loads(invoke(tmp_path, "--format", "json").stdout)
    assert len(before) - len(after) == fixable


def test_every_configuration_problem_is_reported_in_one_run_with_its_file_and_key(tmp_path):
    (tmp_path / "main.tf").write_text(POOL)
    config = tmp_path / ".kapsulint.toml"
    config.write_text('select = ["KAP201", "KAP2O1"]\nfail-on = "warn"\nexclud = ["x"]\nignor = ["KAP1"]\n'
                      'max-file-size = "big"\n')
    result = invoke(tmp_path)
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    problems = [line for line in lines if str(config) in line]
    assert len(problems) == 5, result.stderr
    for key, words in (("`select`", "KAP2O1 (did you mean"), ("`fail-on`", "'warn'"),
                       ("`exclud`", "did you mean `exclude`"), ("`ignor`", "did you mean `ignore`"),
                       ("`max-file-size`", "must be an integer, got 'big'")):
        assert any(key in line and words in line for line in problems), (key, result.stderr)
    assert lines[-1].startswith("valid keys: ")


def test_a_tool_table_in_the_dedicated_file_is_explained(tmp_path):
    (tmp_path / "main.tf").write_text(POOL)
    config = tmp_path / ".kapsulint.toml"
    config.write_text('[tool.kapsulint]\nselect = ["KAP206"]\n')
    result = invoke(tmp_path)
    assert result.exit_code == 2
    assert f"{config}: `[tool.kapsulint]` is the table pyproject.toml holds" in result.stderr
    assert "remove the `[tool.kapsulint]` line" in result.stderr and "unknown configuration key" not in result.stderr
    config.write_text('select = ["KAP206"]\n')
    assert invoke(tmp_path).exit_code == 1


def test_a_baseline_records_what_it_accepts_and_says_what_it_hid(tmp_path):
    import datetime as dt
    import json

    (tmp_path / "main.tf").write_text(POOL)
    (tmp_path / ".kapsulint.toml").write_text('select = ["KAP201", "KAP206"]\n')
    findings = json.loads(invoke(tmp_path, "--format", "json").stdout)
    before = dt.datetime.now(dt.timezone.utc).date().isoformat()
    assert invoke(tmp_path, "--write-baseline", "baseline.json").exit_code == 0
    after = dt.datetime.now(dt.timezone.utc).date().isoformat()
    data = json.loads((tmp_path / "baseline.json").read_text())
    entries = data["findings"]
    assert [(e["rule"], e["path"], e["line"], e["message"]) for e in entries] == [
        (f["rule"], f["path"], f["line"], f["message"]) for f in findings]
    assert all(e["recorded"] in (before, after) and len(e["fingerprint"]) == 64 for e in entries)
    text = invoke(tmp_path, "--baseline", "baseline.json")
    assert text.exit_code == 0
    assert text.stdout.splitlines()[-2:] == ["No findings.", "2 findings in the baseline baseline.json not reported."]
    as_json = invoke(tmp_path, "--baseline", "baseline.json", "--format", "json")
    assert json.loads(as_json.stdout) == []
    assert "kapsulint: 2 findings in the baseline baseline.json not reported" in as_json.stderr
    # An entry already recorded keeps its date; a baseline of fingerprints and rules only still loads.
    for entry in data["findings"]:
        entry["recorded"] = "2025-01-01"
    (tmp_path / "baseline.json").write_text(json.dumps(data))
    assert invoke(tmp_path, "--write-baseline", "baseline.json").exit_code == 0
    assert {e["recorded"] for e in json.loads((tmp_path / "baseline.json").read_text())["findings"]} == {"2025-01-01"}
    old = {"kapsulint-baseline": 1, "findings": [{"fingerprint": e["fingerprint"], "rule": e["rule"]}
                                                 for e in data["findings"][:1]]}
    (tmp_path / "old.json").write_text(json.dumps(old))
    kept = json.loads(invoke(tmp_path, "--baseline", "old.json", "--format", "json").stdout)
    assert len(kept) == 1 and kept[0]["rule"] != data["findings"][0]["rule"]


def test_reports_into_missing_directories_are_written_but_never_through_a_link_out(tmp_path):
    import json

    project = tmp_path / "project"
    project.mkdir()
    (project / ".git").mkdir()
    (project / "main.tf").write_text(POOL)
    result = invoke(project, "--select", "KAP206", "--output", "out/deep/report.txt",
                    "--report", "sarif=reports/kapsulint.sarif", "--report", f"json={tmp_path / 'elsewhere' / 'r.json'}")
    assert result.exit_code == 1, result.stderr
    assert "KAP206" in (project / "out" / "deep" / "report.txt").read_text()
    assert json.loads((project / "reports" / "kapsulint.sarif").read_text())["runs"][0]["results"]
    assert json.loads((tmp_path / "elsewhere" / "r.json").read_text())[0]["rule"] == "KAP206"
    outside = tmp_path / "outside"
    outside.mkdir()
    (project / "planted").symlink_to(outside)
    result = invoke(project, "--select", "KAP206", "--output", "planted/new/report.txt")
    assert result.exit_code == 2 and "resolves outside the repository" in result.stderr
    assert list(outside.iterdir()) == []


def test_list_rules_marks_safe_and_unsafe_fixes_apart(tmp_path):
    from kapsulint.lint.registry import all_rules

    lines = invoke(tmp_path, "--list-rules").stdout.splitlines()
    marks = {"safe": "[*]", "unsafe": "[!]", "sometimes": "[~]", None: "   "}
    rows = {line.split()[0]: line for line in lines if line.startswith("KAP")}
    for rule in all_rules():
        assert rows[rule.id].startswith(f"{rule.id}  {marks[rule.fix]} {rule.name} "), rows[rule.id]
    assert {rule.fix for rule in all_rules()} >= {"safe", "unsafe", "sometimes", None}
    assert lines[-1] == "[*] safe fix (--fix); [!] unsafe fix (--fix --unsafe-fixes); [~] safe or unsafe, by case"
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    for rule in all_rules():
        assert f"| `{rule.name}` | {rule.severity.value}" in readme
        row = next(line for line in readme.splitlines() if f"| `{rule.name}` |" in line)
        assert row.split(" | ")[3] == (rule.fix or ""), row


@pytest.mark.parametrize(("given", "suggested"), [("KAP999", "KAP309"), ("KAP2O6", "KAP206"),
                                                   ("autohealing-disable", "autohealing-disabled")])
def test_explain_suggests_the_closest_rules(tmp_path, given, suggested):
    result = invoke(tmp_path, "--explain", given)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"kapsulint: error: unknown rule: {given} (did you mean ")
    assert suggested in result.stderr


def _help_options() -> dict[str, str]:
    """--help's options: each long option (and -h, -j, -q) with its help text."""
    import re

    text = CliRunner().invoke(main, ["--help"], terminal_width=200).stdout
    options: dict[str, str] = {}
    current = None
    for line in text.split("Options:", 1)[1].splitlines():
        head = re.match(r"^  (-\S.*?)(?:  +(.*))?$", line)
        if head:
            names = re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", head.group(1).split(" [")[0])
            current = " ".join(names)
            options[current] = head.group(2) or ""
        elif current is not None:
            options[current] += " " + line.strip()
    return options


def _readme_options() -> dict[str, str]:
    """The README's Usage table: each row's options with its meaning."""
    import re

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    table = readme.split("| option | meaning |", 1)[1].split("\n\n", 1)[0]
    rows = {}
    for line in table.splitlines()[2:]:
        cell, meaning = line.strip("| ").split(" | ", 1)
        rows[cell] = meaning
    return rows


def test_the_readme_usage_table_and_help_give_the_same_options():
    import re

    helped = _help_options()
    rows = _readme_options()
    documented = {name: meaning for cell, meaning in rows.items()
                  for name in re.findall(r"`(--?[a-z][a-z-]*)", cell.replace("`, `", "` `"))}
    listed = {name for names in helped for name in names.split() if name.startswith("--") or len(name) == 2}
    assert set(documented) == listed
    for names, text in helped.items():
        long = next(n for n in names.split() if n.startswith("--"))
        # The rules an option speaks of are the same in both (--no-inline-ignores: KAP003 and KAP009).
        assert set(re.findall(r"KAP\d{3}", text)) <= set(re.findall(r"KAP\d{3}", documented[long])), long
    from kapsulint.cli.command import FORMATS

    fmt = next(cell for cell in rows if cell.startswith("`--format"))
    assert fmt.split(" ", 1)[1].rstrip("`").split("\\|") == list(FORMATS)


def test_a_yaml_file_that_is_no_values_file_goes_unsaid(tmp_path):
    """pre-commit passes every changed YAML file: its own configuration is no news on stderr."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "infra").mkdir()
    (tmp_path / "infra" / "main.tf").write_text(POOL)
    (tmp_path / ".pre-commit-config.yaml").write_text("repos: []\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "notes.txt").write_text("notes\n")
    result = invoke(tmp_path, "--select", "KAP206", ".pre-commit-config.yaml")
    assert result.exit_code == 0 and result.stderr == "" and result.stdout == "No findings.\n"
    result = invoke(tmp_path, "--select", "KAP206", ".pre-commit-config.yaml", "infra/main.tf", "docs")
    assert result.exit_code == 1
    assert result.stderr == "kapsulint: no Terraform or values file found under docs\n"
