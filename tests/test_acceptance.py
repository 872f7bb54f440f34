"""The foundation's acceptance: a production project of the product card's shape, and each footgun
introduced into it reported at the place the rule catalogue names."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest
from fixture_support import lint

PROJECT = Path(__file__).parent / "projects" / "production"
FOUNDATION_RULES = "KAP101,KAP102,KAP103,KAP201,KAP202,KAP301,KAP302,KAP401"


def write_project(tmp_path: Path, edits: list[tuple[str, str]] = (), extra: dict[str, str] | None = None) -> Path:
    target = tmp_path / "prod"
    shutil.copytree(PROJECT, target)
    main = target / "main.tf"
    text = main.read_text()
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    main.write_text(text)
    for name, content in (extra or {}).items():
        (target / name).write_text(content)
    return target


def line_of(path: Path, needle: str, occurrence: int = 1) -> tuple[int, int]:
    """(line, column) of the n-th occurrence of ``needle`` in a file."""
    seen = 0
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        column = line.find(needle)
        if column >= 0:
            seen += 1
            if seen == occurrence:
                return number, column + 1
    raise AssertionError(f"{needle!r} not in {path}")


def findings_of(project: Path, monkeypatch, *args: str) -> list[dict]:
    code, findings, stderr = lint(project, ["--select", FOUNDATION_RULES, *args], monkeypatch)
    assert code in (0, 1), stderr
    return findings


def located(findings: list[dict]) -> set[tuple[str, str, int, int]]:
    return {(f["rule"], f["path"], f["line"], f["column"]) for f in findings}


def test_production_project_reports_exactly_the_expected_findings(tmp_path, monkeypatch):
    project = write_project(tmp_path)
    main = project / "main.tf"
    findings = findings_of(project, monkeypatch)
    apps_header = line_of(main, 'resource "scaleway_k8s_pool" "apps"')
    name_line, _ = line_of(main, 'name        = "system"')
    system_name = (name_line, main.read_text().splitlines()[name_line - 1].index('"system"') + 1)
    terraform_anchor = line_of(main, 'resource "scaleway_k8s_cluster" "main"')
    assert located(findings) == {
        ("KAP201", "main.tf", *apps_header),
        ("KAP202", "main.tf", *system_name),
        ("KAP401", "main.tf", *terraform_anchor),
    }


FOOTGUNS = [
    pytest.param([("delete_additional_resources = false", "delete_additional_resources = true")],
                 "KAP101", "delete_additional_resources = true", "true", id="delete-additional-resources"),
    pytest.param([('version                     = "1.31"', 'version                     = "1.31.2"')],
                 "KAP102", '"1.31.2"', '"1.31.2"', id="patch-version-with-auto-upgrade"),
    pytest.param([("enable                        = true", "enable                        = false")],
                 "KAP103", 'version                     = "1.31"', '"1.31"', id="minor-version-without-auto-upgrade"),
    pytest.param([('node_type   = "POP2-2C-8G"', 'node_type   = "PRO2-S"')],
                 "KAP301", '"k8s.scaleway.com/pool-name" = "system"', '"k8s.scaleway.com/pool-name"',
                 id="ingress-pool-switched-to-shared"),
    pytest.param([('"k8s.scaleway.com/pool-name" = "system"', '"k8s.scaleway.com/pool-name" = "apps"')],
                 "KAP301", '"k8s.scaleway.com/pool-name" = "apps"', '"k8s.scaleway.com/pool-name"',
                 id="ingress-pointed-at-shared-pool"),
    pytest.param([('      nodeSelector = {\n        "k8s.scaleway.com/pool-name" = "system"\n      }\n', "")],
                 "KAP301", 'resource "helm_release" "haproxy"', "resource", id="ingress-selector-removed"),
    pytest.param([('"proxy-protocol" = local.nodes_subnet', '"proxy-protocol" = "0.0.0.0/0"')],
                 "KAP302", '"proxy-protocol" = "0.0.0.0/0"', '"0.0.0.0/0"', id="proxy-protocol-open-literal"),
    pytest.param([('"proxy-protocol" = local.nodes_subnet', '"proxy-protocol" = local.trusted'),
                   ('locals {\n', 'locals {\n  trusted = "10.0.0.0/8, 0.0.0.0/0"\n')],
                 "KAP302", 'trusted = "10.0.0.0/8, 0.0.0.0/0"', '"10.0.0.0/8', id="proxy-protocol-open-local"),
]


@pytest.mark.parametrize(("edits", "rule", "line_text", "token"), FOOTGUNS)
def test_each_footgun_is_reported_where_it_is_written(tmp_path, monkeypatch, edits, rule, line_text, token):
    project = write_project(tmp_path, edits)
    main = project / "main.tf"
    line, _ = line_of(main, line_text)
    column = main.read_text().splitlines()[line - 1].find(token) + 1
    findings = [f for f in findings_of(project, monkeypatch) if f["rule"] == rule]
    assert [(f["path"], f["line"], f["column"]) for f in findings] == [("main.tf", line, column)]


def test_shared_type_from_a_variable_default_is_reported_with_its_origin(tmp_path, monkeypatch):
    project = write_project(
        tmp_path,
        [('node_type   = "POP2-2C-8G"', "node_type   = var.system_node_type")],
        {"variables.tf": 'variable "system_node_type" {\n  type    = string\n  default = "DEV1-L"\n}\n'},
    )
    findings = [f for f in findings_of(project, monkeypatch) if f["rule"] == "KAP301"]
    assert len(findings) == 1
    selector = line_of(project / "main.tf", '"k8s.scaleway.com/pool-name" = "system"')
    assert (findings[0]["path"], findings[0]["line"]) == ("main.tf", selector[0])
    assert {"path": "variables.tf", "line": 3, "column": 13} in [
        {k: r[k] for k in ("path", "line", "column")} for r in findings[0]["related"]
    ]


@pytest.mark.parametrize("pool_type, fires", [("PRO2-S", True), ("POP2-4C-16G", False)])
def test_labels_written_as_noprefix_tags_work_like_labels(tmp_path, monkeypatch, pool_type, fires):
    project = write_project(tmp_path, [
        ('  labels = {\n    role = "ingress"\n  }\n', '  tags = ["noprefix=role=ingress"]\n'),
        ('node_type   = "POP2-2C-8G"', f'node_type   = "{pool_type}"'),
        ('"k8s.scaleway.com/pool-name" = "system"', 'role = "ingress"'),
    ])
    findings = [f for f in findings_of(project, monkeypatch) if f["rule"] == "KAP301"]
    assert bool(findings) is fires
    if fires:
        assert findings[0]["line"] == line_of(project / "main.tf", 'role = "ingress"')[0]


def test_the_same_project_split_over_several_files_gives_the_same_findings(tmp_path, monkeypatch):
    whole = write_project(tmp_path)
    text = (whole / "main.tf").read_text()
    split = tmp_path / "split"
    split.mkdir()
    blocks = re.split(r"\n\n(?=[a-z])", text)
    names = ["locals.tf", "network.tf", "network.tf", "cluster.tf", "pools.tf", "pools.tf", "lb.tf", "helm.tf",
             "helm.tf"]
    assert len(blocks) == len(names)
    for name, block in zip(names, blocks):
        with open(split / name, "a") as handle:
            handle.write(block.rstrip("\n") + "\n\n")

    def summary(findings):
        return sorted((f["rule"], f["message"]) for f in findings)

    assert summary(findings_of(split, monkeypatch)) == summary(findings_of(whole, monkeypatch))
    moved = {f["rule"]: f["path"] for f in findings_of(split, monkeypatch)}
    assert moved["KAP201"] == "pools.tf" and moved["KAP202"] == "pools.tf"


def test_suppressions_silence_and_are_checked(tmp_path, monkeypatch):
    project = write_project(tmp_path, [
        ('resource "scaleway_k8s_pool" "apps" {',
         '# kapsulint: ignore[KAP201] apps pool is recreated by hand\nresource "scaleway_k8s_pool" "apps" {'),
        ('  name        = "system"', '  name        = "system" # kapsulint: ignore[KAP2O2] typo in the id'),
        ("resource \"scaleway_lb_ip\" \"ingress\" {", "# kapsulint: ignore[KAP101] nothing to silence here\n"
                                                    "resource \"scaleway_lb_ip\" \"ingress\" {"),
    ])
    code, findings, _ = lint(project, ["--select", FOUNDATION_RULES + ",KAP002,KAP003"], monkeypatch)
    rules = sorted(f["rule"] for f in findings)
    assert rules == ["KAP002", "KAP003", "KAP202", "KAP401"]
    main = project / "main.tf"
    kap002 = next(f for f in findings if f["rule"] == "KAP002")
    assert (kap002["line"], kap002["column"]) == line_of(main, "# kapsulint: ignore[KAP2O2]")
    kap003 = next(f for f in findings if f["rule"] == "KAP003")
    assert (kap003["line"], kap003["column"]) == line_of(main, "# kapsulint: ignore[KAP101]")


def test_sarif_of_the_project_validates_against_the_schema(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from kapsulint.cli.command import main

    project = write_project(tmp_path, [("delete_additional_resources = false", "delete_additional_resources = true")])
    monkeypatch.chdir(project)
    result = CliRunner().invoke(main, ["--format", "sarif"])
    assert result.exit_code == 1, result.stderr
    log = json.loads(result.stdout)
    schema = json.loads((Path(__file__).parent / "schemas" / "sarif-2.1.0.json").read_text())
    jsonschema.validators.validator_for(schema)(schema).validate(log)
    assert {r["ruleId"] for r in log["runs"][0]["results"]} >= {"KAP101", "KAP201", "KAP202", "KAP401"}
