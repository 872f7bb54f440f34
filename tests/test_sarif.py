"""The SARIF reporter: schema-valid SARIF 2.1.0 with what GitHub code scanning needs."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from kapsulint.findings import Finding, Loc, Related, Severity
from kapsulint.lint.registry import Rule
from kapsulint.reporters import ReportContext, render, sarif

SCHEMA_PATH = Path(__file__).parent / "schemas" / "sarif-2.1.0.json"


def _doc(what: str) -> str:
    return (
        f"## What it does\n{what}\n\n## Why is this bad\nBecause.\n\n## Example\n```hcl\nx = 1\n```\n\n"
        "## Use instead\n```hcl\nx = 2\n```\n\n## References\n- https://www.scaleway.com/en/docs/kubernetes/\n"
    )


RULES = [
    Rule("KAP001", "parse-error", Severity.ERROR, False, _doc("Reports files that cannot be parsed. More."), None, "t"),
    Rule("KAP106", "shared-control-plane", Severity.NOTE, False, _doc("Flags shared control planes."), None, "t"),
    Rule("KAP201", "pool-without-create-before-destroy", Severity.WARNING, False,
         "Pool replaced destroy-first.\n\n" + _doc("Flags pools replaced destroy-first. Second sentence."), None, "t"),
    Rule("KAP302", "proxy-protocol-trusts-any-source", Severity.WARNING, True, _doc("Flags PROXY from anywhere."), None, "t"),
    Rule("KAP401", "kubeconfig-in-local-state", Severity.ERROR, True, _doc("Flags local state."), None, "t"),
    Rule("KAP502", "cidr-overlap", Severity.WARNING, False, _doc("Flags overlapping CIDRs."), None, "t"),
]


@pytest.fixture(scope="module")
def validator():
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)  # the schema's own $schema dialect
    cls.check_schema(schema)
    return cls(schema)


def _context(root: Path, **kwargs) -> ReportContext:
    return ReportContext(rules=list(RULES), cwd=str(root), repo_root=str(root), version="0.1.0", **kwargs)


def _finding(root: Path, rule: str, severity: Severity, rel: str = "main.tf", line: int = 3,
             logical: str = "scaleway_k8s_pool.apps", message: str = "a message", **kwargs) -> Finding:
    name = next(r.name for r in RULES if r.id == rule)
    return Finding(Loc(str(root / rel), line, 5, line, 12), message, rule=rule, name=name,
                   severity=severity, logical=logical, **kwargs)


def _run(findings, context, validator) -> dict:
    text = render("sarif", findings, context)
    assert text.endswith("}\n")
    log = json.loads(text)
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors]
    assert log["$schema"] and log["version"] == "2.1.0" and len(log["runs"]) == 1
    return log["runs"][0]


def _fp(result: dict) -> str:
    return result["partialFingerprints"]["kapsulint/v1"]


def test_driver_and_rules(tmp_path, validator):
    run = _run([], _context(tmp_path), validator)
    driver = run["tool"]["driver"]
    assert driver["name"] == "kapsulint"
    assert driver["version"] == driver["semanticVersion"] == "0.1.0"
    assert driver["informationUri"] == "https://github.com/kapsulint/kapsulint"
    assert [r["id"] for r in driver["rules"]] == [r.id for r in RULES]
    assert run["results"] == []
    assert run["columnKind"] == "unicodeCodePoints"
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.resolve().as_uri() + "/"
    assert run["invocations"][0]["executionSuccessful"] is True
    assert "toolExecutionNotifications" not in run["invocations"][0]

    by_id = {r["id"]: r for r in driver["rules"]}
    kap201 = by_id["KAP201"]
    source = RULES[2]
    assert kap201["name"] == "pool-without-create-before-destroy"
    assert kap201["shortDescription"]["text"] == "Pool replaced destroy-first"  # the docstring's title
    assert kap201["fullDescription"]["text"] == "Flags pools replaced destroy-first. Second sentence."
    assert kap201["help"]["text"] == kap201["help"]["markdown"] == source.doc.strip()
    # The README of the release's tag, not of a branch that moves on.
    assert kap201["helpUri"] == "https://github.com/kapsulint/kapsulint/blob/v0.1.0/README.md#kap201"
    assert by_id["KAP106"]["shortDescription"]["text"] == "Flags shared control planes."  # no title: the summary
    # The default level is written even when it equals SARIF's default ("warning").
    assert {r["id"]: r["defaultConfiguration"]["level"] for r in driver["rules"]} == {
        r.id: r.severity.value for r in RULES
    }
    assert kap201["properties"]["tags"] == ["kapsulint", "pools"]
    assert by_id["KAP001"]["properties"]["tags"] == ["kapsulint", "engine"]
    assert by_id["KAP106"]["properties"]["tags"] == ["kapsulint", "cluster"]
    assert by_id["KAP302"]["properties"]["tags"] == ["kapsulint", "security", "ingress"]
    assert by_id["KAP401"]["properties"]["tags"] == ["kapsulint", "security", "state-and-access"]
    assert by_id["KAP502"]["properties"]["tags"] == ["kapsulint", "network"]


def test_security_severity_only_on_security_rules(tmp_path, validator):
    rules = {r["id"]: r for r in _run([], _context(tmp_path), validator)["tool"]["driver"]["rules"]}
    assert rules["KAP401"]["properties"]["security-severity"] == "8.0"
    assert rules["KAP302"]["properties"]["security-severity"] == "5.5"
    for rule_id in ("KAP001", "KAP106", "KAP201", "KAP502"):
        assert "security-severity" not in rules[rule_id]["properties"]


def test_results_carry_rule_index_level_location(tmp_path, validator):
    findings = [
        _finding(tmp_path, "KAP201", Severity.WARNING, instances=['scaleway_k8s_pool.this["apps"]'],
                 related=(Related(Loc(str(tmp_path / "vars.tf"), 7, 3, 9, 4), "node_type set here"),)),
        _finding(tmp_path, "KAP106", Severity.NOTE, logical="scaleway_k8s_cluster.main"),
        _finding(tmp_path, "KAP401", Severity.ERROR, logical="module.root"),
    ]
    findings[0] = Finding(Loc(findings[0].loc.path, 3, 5, 6, 2), **{
        k: getattr(findings[0], k) for k in ("message", "rule", "name", "severity", "logical", "instances", "related")
    })
    run = _run(findings, _context(tmp_path), validator)
    rules = run["tool"]["driver"]["rules"]
    results = run["results"]
    assert [r["ruleId"] for r in results] == ["KAP401", "KAP201", "KAP106"]  # most severe first
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in ("error", "warning", "note")
        assert "suppressions" not in result
    assert [r["level"] for r in results] == ["error", "warning", "note"]

    pool = results[1]
    assert pool["message"]["text"] == "a message\n\nSee: [node_type set here](1)"  # GitHub shows linked ones
    physical = pool["locations"][0]["physicalLocation"]
    assert physical["artifactLocation"] == {"uri": "main.tf", "uriBaseId": "%SRCROOT%"}
    assert physical["region"] == {"startLine": 3, "startColumn": 5, "endLine": 3, "endColumn": 6}
    related = pool["relatedLocations"]
    assert len(related) == 1 and isinstance(related[0]["id"], int)
    assert related[0]["message"]["text"] == "node_type set here"
    assert related[0]["physicalLocation"]["artifactLocation"]["uri"] == "vars.tf"
    assert related[0]["physicalLocation"]["region"]["endLine"] == 7
    assert pool["properties"]["instances"] == ['scaleway_k8s_pool.this["apps"]']
    assert "properties" not in results[0]

    expected = hashlib.sha256(b"KAP201\0main.tf\0scaleway_k8s_pool.apps").hexdigest()
    assert _fp(pool) == expected


def test_fingerprints_stable_and_twins_distinct(tmp_path, validator):
    context = _context(tmp_path)
    before = _run([_finding(tmp_path, "KAP201", Severity.WARNING, line=3, message="old")], context, validator)
    after = _run([_finding(tmp_path, "KAP201", Severity.WARNING, line=40, message="new text")], context, validator)
    assert _fp(before["results"][0]) == _fp(after["results"][0])

    other = _run([_finding(tmp_path, "KAP201", Severity.WARNING, logical="scaleway_k8s_pool.db")], context, validator)
    assert _fp(other["results"][0]) != _fp(before["results"][0])

    twins = [
        _finding(tmp_path, "KAP201", Severity.WARNING, line=20),
        _finding(tmp_path, "KAP201", Severity.WARNING, line=10),
        _finding(tmp_path, "KAP201", Severity.WARNING, line=30),
    ]
    results = _run(twins, context, validator)["results"]
    by_line = {r["locations"][0]["physicalLocation"]["region"]["startLine"]: _fp(r) for r in results}
    base = _fp(before["results"][0])
    assert by_line == {10: base, 20: base + ":2", 30: base + ":3"}
    assert len(set(by_line.values())) == 3


def test_uri_percent_encoded_relative_to_repo_root(tmp_path, validator):
    root = tmp_path / "my repo"
    root.mkdir()
    cwd = root / "infra"
    context = ReportContext(rules=list(RULES), cwd=str(cwd), repo_root=str(root), version="0.1.0")
    findings = [
        _finding(root, "KAP302", Severity.WARNING, rel="helm values/väluès.yaml"),
        Finding(Loc("prod env/main.tf", 1, 1, 1, 2), "relative to cwd", rule="KAP502",
                severity=Severity.WARNING, logical="scaleway_vpc_private_network.main"),
    ]
    run = _run(findings, context, validator)
    uris = sorted(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"])
    assert uris == ["helm%20values/v%C3%A4lu%C3%A8s.yaml", "infra/prod%20env/main.tf"]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"].endswith("/my%20repo/")
    kap502 = next(r for r in run["results"] if r["ruleId"] == "KAP502")
    expected = hashlib.sha256(b"KAP502\0infra/prod env/main.tf\0scaleway_vpc_private_network.main").hexdigest()
    assert _fp(kap502) == expected


def test_suppressed_findings(tmp_path, validator):
    findings = [
        _finding(tmp_path, "KAP201", Severity.WARNING, line=3),
        _finding(tmp_path, "KAP106", Severity.NOTE, line=8, logical="scaleway_k8s_cluster.main",
                 suppressed_by="free dev cluster"),
        _finding(tmp_path, "KAP502", Severity.WARNING, line=9, logical="x", suppressed_by=""),
    ]
    run = _run(findings, _context(tmp_path), validator)
    assert [r["ruleId"] for r in run["results"]] == ["KAP201"]
    assert "suppressions" not in run["results"][0]

    run = _run(findings, _context(tmp_path, include_suppressed=True), validator)
    by_rule = {r["ruleId"]: r for r in run["results"]}
    assert set(by_rule) == {"KAP201", "KAP106", "KAP502"}
    assert by_rule["KAP201"]["suppressions"] == []
    assert by_rule["KAP106"]["suppressions"] == [{"kind": "inSource", "justification": "free dev cluster"}]
    assert by_rule["KAP502"]["suppressions"] == [{"kind": "inSource"}]


def test_notifications_make_execution_unsuccessful(tmp_path, validator):
    context = _context(tmp_path, notifications=[
        ("internal error in rule", str(tmp_path / "main.tf"), "KAP201"),
        ("cannot read PATH", None, None),
    ])
    invocation = _run([], context, validator)["invocations"][0]
    assert invocation["executionSuccessful"] is False
    first, second = invocation["toolExecutionNotifications"]
    assert first["level"] == "error" and first["message"]["text"] == "internal error in rule"
    assert first["associatedRule"] == {"id": "KAP201"}
    assert first["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "main.tf", "uriBaseId": "%SRCROOT%"}
    assert second == {"level": "error", "message": {"text": "cannot read PATH"}}


def test_result_cap(tmp_path, validator, monkeypatch):
    monkeypatch.setattr(sarif, "MAX_RESULTS", 3)
    findings = [
        _finding(tmp_path, "KAP106", Severity.NOTE, line=1, logical="a"),
        _finding(tmp_path, "KAP201", Severity.WARNING, line=2, logical="b"),
        _finding(tmp_path, "KAP401", Severity.ERROR, line=3, logical="c"),
        _finding(tmp_path, "KAP502", Severity.WARNING, line=4, logical="d"),
        _finding(tmp_path, "KAP106", Severity.NOTE, line=5, logical="e"),
    ]
    run = _run(findings, _context(tmp_path), validator)
    assert [r["ruleId"] for r in run["results"]] == ["KAP401", "KAP201", "KAP502"]
    invocation = run["invocations"][0]
    assert invocation["executionSuccessful"] is True
    (note,) = invocation["toolExecutionNotifications"]
    assert note["level"] == "warning"
    assert "2 result" in note["message"]["text"] and "3" in note["message"]["text"]

    assert _run(findings[:3], _context(tmp_path), validator)["invocations"][0].get("toolExecutionNotifications") is None


def test_sarif_om_imported_only_by_the_sarif_reporter():
    code = "import sys, kapsulint.reporters; assert 'sarif_om' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_message_carries_the_fix_and_links_every_related_location(tmp_path, validator):
    related = (Related(Loc(str(tmp_path / "vars.tf"), 7, 3, 7, 9), "node_type [x] set here"),
               Related(Loc(str(tmp_path / "pools.tf"), 2, 1, 2, 4), ""))
    finding = _finding(tmp_path, "KAP201", Severity.WARNING, message="pool replaced destroy-first",
                       fix="add lifecycle { create_before_destroy = true }", related=related)
    (result,) = _run([finding], _context(tmp_path), validator)["results"]
    assert result["message"]["text"] == (
        "pool replaced destroy-first\n\nFix: add lifecycle { create_before_destroy = true }\n\n"
        "See: [node_type \\[x\\] set here](1); [related location](2)")
    assert [r["id"] for r in result["relatedLocations"]] == [1, 2]


def test_every_registered_rule_is_titled_as_the_problem(tmp_path, validator):
    from kapsulint.lint.registry import all_rules

    context = ReportContext(rules=list(all_rules()), cwd=str(tmp_path), repo_root=str(tmp_path), version="1.2.3")
    for rule in _run([], context, validator)["tool"]["driver"]["rules"]:
        title = rule["shortDescription"]["text"]
        assert not title.startswith(("Reports", "Flags")), (rule["id"], title)
        assert rule["helpUri"] == f"https://github.com/kapsulint/kapsulint/blob/v1.2.3/README.md#{rule['id'].lower()}"
