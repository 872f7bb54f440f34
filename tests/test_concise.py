"""--format concise, and the severity word of the text report."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from kapsulint.cli.command import main
from kapsulint.findings import Finding, Loc, Severity
from kapsulint.lint.registry import all_rules
from kapsulint.reporters import ReportContext, render

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
CONCISE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<column>\d+): (?P<severity>error|warning|note) "
                     r"(?P<rule>KAP\d{3}) (?P<name>[a-z0-9-]+): (?P<message>.+)$")


def invoke(*arguments: str, env: dict | None = None):
    return CliRunner().invoke(main, ["--today", "2026-06-01", *arguments], catch_exceptions=False, env=env)


def test_concise_prints_one_line_per_finding_then_the_summary(monkeypatch):
    monkeypatch.chdir(EXAMPLES.parent)
    findings = json.loads(invoke("--format", "json", "examples").stdout)
    result = invoke("--format", "concise", "examples")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    parsed = [CONCISE.match(line) for line in lines[:len(findings)]]
    assert all(parsed), lines
    assert [(m["path"], int(m["line"]), int(m["column"]), m["severity"], m["rule"], m["name"], m["message"])
            for m in parsed] == [(f["path"], f["line"], f["column"], f["severity"], f["rule"], f["name"],
                                  f["message"]) for f in findings]
    rest = lines[len(findings):]
    assert rest[0].startswith(f"Found {sum(f['rule'] != 'KAP013' for f in findings)} findings (")
    assert not any(CONCISE.match(line) for line in rest)
    quiet = invoke("--format", "concise", "--quiet", "examples").stdout.splitlines()
    assert quiet == lines[:len(findings)]


def test_concise_reports_and_statistics(tmp_path, monkeypatch):
    monkeypatch.chdir(EXAMPLES.parent)
    result = invoke("--format", "json", "--report", f"concise={tmp_path / 'out.txt'}", "examples")
    written = (tmp_path / "out.txt").read_text().splitlines()
    assert len([line for line in written if CONCISE.match(line)]) == len(json.loads(result.stdout))
    statistics = invoke("--format", "concise", "--statistics", "examples").stdout
    assert statistics == invoke("--statistics", "examples").stdout
    assert "concise" in CliRunner().invoke(main, ["--help"]).stdout


def test_the_text_report_names_the_severity_of_every_finding_without_colour(monkeypatch):
    monkeypatch.chdir(EXAMPLES.parent)
    findings = json.loads(invoke("--format", "json", "examples").stdout)
    text = invoke("examples", env={"NO_COLOR": "1"}).stdout
    headers = [line for line in text.splitlines() if re.match(r"^\S+:\d+:\d+: KAP\d{3} ", line)]
    assert len(headers) == len(findings)
    for header, finding in zip(headers, findings):
        assert header.startswith(f"{finding['path']}:{finding['line']}:{finding['column']}: {finding['rule']} "
                                 f"{finding['name']} ({finding['severity']}) "), header
    assert "\x1b[" not in text


def test_the_severity_word_is_there_with_colour_too(tmp_path):
    path = tmp_path / "main.tf"
    path.write_text('resource "x" "y" {}\n')
    findings = []
    for severity in Severity:
        finding = Finding(Loc(str(path), 1, 1, 1, 9), f"a {severity.value}", rule="KAP101",
                          name="delete-additional-resources")
        finding.severity = severity
        findings.append(finding)
    context = ReportContext(rules=list(all_rules()), cwd=str(tmp_path), repo_root=str(tmp_path), version="0",
                            color=True)
    text = render("text", findings, context)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
    for severity in Severity:
        assert f"main.tf:1:1: KAP101 delete-additional-resources ({severity.value}) a {severity.value}" in plain
    concise = render("concise", findings, context)
    assert "\x1b[" not in concise.splitlines()[0]
    assert concise.splitlines()[:3] == [f"main.tf:1:1: {s.value} KAP101 delete-additional-resources: a {s.value}"
                                        for s in Severity]


def test_each_finding_links_its_rule_documentation_at_the_version_run(tmp_path):
    path = tmp_path / "main.tf"
    path.write_text('resource "x" "y" {}\n')
    findings = []
    for rule in ("KAP101", "KAP206"):
        finding = Finding(Loc(str(path), 1, 1, 1, 9), "a message", rule=rule, name="n", fix="do this")
        finding.severity = Severity.WARNING
        findings.append(finding)
    context = ReportContext(rules=list(all_rules()), cwd=str(tmp_path), repo_root=str(tmp_path), version="1.2.3")
    base = "https://github.com/kapsulint/kapsulint/blob/v1.2.3/README.md"
    blocks = render("text", findings, context).split("\n\n")
    for rule, block in zip(("KAP101", "KAP206"), blocks):
        assert block.splitlines()[-1] == f"      = docs: {base}#{rule.lower()}", block
    annotations = render("github", findings, context).splitlines()
    assert [a.rsplit("%0A%0A", 1)[1] for a in annotations] == [f"Docs: {base}#kap101", f"Docs: {base}#kap206"]
    sarif = json.loads(render("sarif", findings, context))
    uris = {r["id"]: r["helpUri"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]}
    assert uris["KAP101"] == f"{base}#kap101" and uris["KAP206"] == f"{base}#kap206"
