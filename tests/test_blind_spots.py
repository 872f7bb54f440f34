"""Places kapsulint could not judge (the blind-spot notes, registry.BLIND_SPOTS) are findings like
any other: selected, ignored, suppressed and baselined; they never fail a run at the default
--fail-on; the text summary counts them by kind in its last line, SARIF also lists them as tool
execution notifications, --statistics counts them, GitHub annotations show them as notices."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kapsulint.cli.command import main
from kapsulint.findings import Finding, Loc, Severity
from kapsulint.lint.registry import BLIND_SPOTS, Rule, all_rules, by_id
from kapsulint.reporters.text import could_not_judge

_RELEASE = """
provider "helm" {
  kubernetes = {
    config_path = "~/.kube/config"
  }
}

resource "helm_release" "%(name)s" {
  name       = "%(name)s"
  repository = "https://traefik.github.io/charts"
  chart      = "traefik"
  version    = "%(version)s"%(comment)s
}
"""

_CLUSTER = """
resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  type                        = "kapsule"
  version                     = "1.37.1"
  cni                         = "cilium"
  private_network_id          = "fr-par/11111111-1111-1111-1111-111111111111"
  delete_additional_resources = true
}
"""


def _project(tmp_path: Path, versions: list[str], cluster: bool = False, comment: str = "") -> Path:
    folder = tmp_path / "project"
    folder.mkdir(exist_ok=True)
    text = "".join(_RELEASE % {"name": f"ingress{i}", "version": v, "comment": comment} for i, v in enumerate(versions))
    (folder / "main.tf").write_text(text + (_CLUSTER if cluster else ""), encoding="utf-8")
    return folder


def _run(folder: Path, monkeypatch, *args: str):
    monkeypatch.chdir(folder)
    return CliRunner().invoke(main, [*args, "--today", "2026-03-01", "."])


def test_blind_spot_rules_are_notes():
    rules = by_id()
    present = [rule_id for rule_id in BLIND_SPOTS if rule_id in rules]
    assert "KAP013" in present
    assert all(rules[rule_id].severity is Severity.NOTE for rule_id in present)
    assert {rule.id for rule in all_rules() if rule.blind_spot} == set(present)


def test_only_blind_spots_exit_zero_and_say_what_was_not_judged(tmp_path, monkeypatch):
    result = _run(_project(tmp_path, ["30.0.0"]), monkeypatch)
    assert result.exit_code == 0, result.output
    lines = result.stdout.rstrip("\n").splitlines()
    assert lines[-1] == "No findings. kapsulint could not judge 1 place: 1 chart version older than its facts."
    assert "main.tf:12:16: KAP013 missing-fact" in result.stdout
    assert _run(_project(tmp_path, ["30.0.0"]), monkeypatch, "--fail-on", "note").exit_code == 1


def test_summary_counts_kinds_in_its_last_line(tmp_path, monkeypatch):
    """Other findings first; then one line, kinds by count, in the singular or the plural."""
    folder = _project(tmp_path, ["30.0.0", "~30.1", "latest"], cluster=True)
    result = _run(folder, monkeypatch, "--select", "KAP013,KAP101")
    lines = result.stdout.rstrip("\n").splitlines()
    assert "Found 1 finding (1 warning)." in lines
    assert lines[-1] == ("kapsulint could not judge 4 places: 2 chart versions older than their facts, "
                         "1 version kapsulint cannot order, 1 Kubernetes version the facts do not cover.")
    assert result.exit_code == 1  # KAP101, a warning


def test_no_findings_at_all(tmp_path, monkeypatch):
    result = _run(_project(tmp_path, ["41.3.0"]), monkeypatch)
    assert result.stdout.rstrip("\n").splitlines()[-1] == "No findings."


def test_selected_ignored_suppressed_and_baselined(tmp_path, monkeypatch):
    folder = _project(tmp_path, ["30.0.0"])
    assert "KAP013" not in _run(folder, monkeypatch, "--ignore", "missing-fact").stdout
    assert "KAP013" in _run(folder, monkeypatch, "--select", "KAP013").stdout
    baseline = tmp_path / "baseline.json"
    assert _run(folder, monkeypatch, "--write-baseline", str(baseline)).exit_code == 0
    assert _run(folder, monkeypatch, "--baseline", str(baseline)).stdout.splitlines() == [
        "No findings.", f"1 finding in the baseline {baseline} not reported."]
    suppressed = _project(tmp_path, ["30.0.0"], comment=" # kapsulint: ignore[KAP013] old chart, judged by hand")
    result = _run(suppressed, monkeypatch)
    assert result.stdout.strip() == "No findings.", result.stdout  # and no KAP003: the comment is used


def test_sarif_result_and_tool_execution_notification(tmp_path, monkeypatch):
    result = _run(_project(tmp_path, ["30.0.0"]), monkeypatch, "--format", "sarif")
    run = json.loads(result.stdout)["runs"][0]
    [found] = [r for r in run["results"] if r["ruleId"] == "KAP013"]
    assert found["level"] == "note"
    invocation = run["invocations"][0]
    assert invocation["executionSuccessful"] is True
    [note] = invocation["toolExecutionNotifications"]
    assert note["level"] == "note"
    assert note["associatedRule"]["id"] == "KAP013"
    assert note["message"]["text"].startswith('chart traefik version "30.0.0" is older than')
    location = note["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "main.tf"
    assert (location["region"]["startLine"], location["region"]["startColumn"]) == (12, 16)


def test_suppressed_blind_spot_is_no_notification(tmp_path, monkeypatch):
    folder = _project(tmp_path, ["30.0.0"], comment=" # kapsulint: ignore[KAP013] judged by hand")
    result = _run(folder, monkeypatch, "--format", "sarif", "--sarif-include-suppressed")
    run = json.loads(result.stdout)["runs"][0]
    assert [r["ruleId"] for r in run["results"]] == ["KAP013"]
    assert "toolExecutionNotifications" not in run["invocations"][0]


def test_statistics_count_them(tmp_path, monkeypatch):
    folder = _project(tmp_path, ["30.0.0", "~30.1"], cluster=True)
    text = _run(folder, monkeypatch, "--statistics", "--select", "KAP013,KAP101").stdout.splitlines()
    assert text[-2:] == ["    4  total", "    3  could not judge: 2 chart versions older than their facts, "
                         "1 Kubernetes version the facts do not cover"]
    rows = json.loads(_run(folder, monkeypatch, "--statistics", "--select", "KAP013,KAP101", "--format", "json").stdout)
    assert {(row["rule"], row["count"], row["blind_spot"]) for row in rows} == {("KAP013", 3, True), ("KAP101", 1, False)}


def test_github_shows_them_as_notices(tmp_path, monkeypatch):
    result = _run(_project(tmp_path, ["30.0.0"]), monkeypatch, "--format", "github")
    assert result.stdout.startswith("::notice file=main.tf,line=12,col=16,")
    assert "title=KAP013 missing-fact::" in result.stdout


@pytest.mark.parametrize(
    ("findings", "line"),
    [
        ([("KAP099", None)], "kapsulint could not judge 1 place: 1 KAP099 example-not-read."),
        ([("KAP098", None)] * 2 + [("KAP099", ("thing not read", "things not read"))],
         "kapsulint could not judge 3 places: 2 modules kept out, 1 thing not read."),
    ],
)
def test_kinds_are_worded_by_the_finding_else_the_rule(findings, line):
    """A finding's own words first, then its rule's COUNTED_AS, then the rule's id and name."""
    rules = {
        "KAP098": Rule("KAP098", "example-kept-out", Severity.NOTE, False, "", None, "x",
                       counted_as=("module kept out", "modules kept out")),
        "KAP099": Rule("KAP099", "example-not-read", Severity.NOTE, False, "", None, "x"),
    }
    made = [Finding(Loc("main.tf", 1, 1, 1, 2), "m", rule=rule, name=rules[rule].name, counted_as=words)
            for rule, words in findings]
    assert could_not_judge(made, rules) == line


def test_every_blind_spot_rule_words_its_kind():
    """The summary words each registered blind-spot rule by its COUNTED_AS, not its id."""
    for rule_id in BLIND_SPOTS:
        rule = by_id().get(rule_id)
        if rule is not None:
            assert rule.counted_as is not None, rule_id
