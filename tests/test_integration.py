"""Where users run kapsulint: SARIF tracked by GitHub, annotations, several reports, baselines,
configuration with origins, exclusions and .gitignore, terminal niceties (issue: integration)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from click.testing import CliRunner

from kapsulint.cli.command import main

SCHEMA = json.loads((Path(__file__).parent / "schemas" / "sarif-2.1.0.json").read_text())

CLUSTER = """\
resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  version                     = "1.31"
  cni                         = "cilium"
  delete_additional_resources = true
}

resource "scaleway_k8s_pool" "apps" {
  cluster_id  = scaleway_k8s_cluster.main.id
  name        = "apps"
  node_type   = "PRO2-S"
  size        = 2
  autohealing = true
}
"""
SELECT = ["--select", "KAP101,KAP201"]


def run(directory: Path, monkeypatch, *args: str):
    monkeypatch.chdir(directory)
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def project(tmp_path: Path, text: str = CLUSTER, name: str = "main.tf") -> Path:
    root = tmp_path / "repo"
    root.mkdir(exist_ok=True)
    (root / name).write_text(text)
    return root


def sarif(directory: Path, monkeypatch, *args: str) -> dict:
    result = run(directory, monkeypatch, "--format", "sarif", *SELECT, *args)
    log = json.loads(result.stdout)
    jsonschema.validators.validator_for(SCHEMA)(SCHEMA).validate(log)
    return log


def fingerprints(log: dict) -> dict[str, str]:
    return {r["ruleId"]: r["partialFingerprints"]["kapsulint/v1"] for r in log["runs"][0]["results"]}


def test_sarif_fingerprints_survive_value_changes_and_moved_code(tmp_path, monkeypatch):
    root = project(tmp_path)
    before = fingerprints(sarif(root, monkeypatch))
    changed = CLUSTER.replace('name        = "apps"', 'name        = "applications"').replace("PRO2-S", "DEV1-L")
    (root / "main.tf").write_text("# moved\n\n\n" + changed)
    after = fingerprints(sarif(root, monkeypatch))
    assert set(before) == {"KAP101", "KAP201"}
    assert before == after


def test_sarif_twins_never_share_a_fingerprint(tmp_path, monkeypatch):
    text = "".join(f'# kapsulint test {i}\n{{ bad\n' for i in range(1))
    root = project(tmp_path, "x = [\n")
    (root / "other.tf").write_text(text)
    log = sarif(root, monkeypatch, "--select", "KAP001")
    prints = [r["partialFingerprints"]["kapsulint/v1"] for r in log["runs"][0]["results"]]
    assert len(prints) == len(set(prints)) == 2


def test_sarif_rules_results_and_uris(tmp_path, monkeypatch):
    root = tmp_path / "my repo"
    root.mkdir()
    (root / ".git").mkdir()
    module = root / "clüster"
    module.mkdir()
    (module / "main.tf").write_text(CLUSTER)
    log = sarif(module, monkeypatch)
    run_ = log["runs"][0]
    driver = run_["tool"]["driver"]
    assert driver["name"] == "kapsulint" and driver["semanticVersion"] and driver["informationUri"].startswith("https")
    ids = [rule["id"] for rule in driver["rules"]]
    for result in run_["results"]:
        assert ids[result["ruleIndex"]] == result["ruleId"]
        assert result["level"] in ("error", "warning", "note")
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"] == {"uri": "cl%C3%BCster/main.tf", "uriBaseId": "%SRCROOT%"}
        assert location["region"]["startLine"] == location["region"]["endLine"]
    assert run_["originalUriBaseIds"]["%SRCROOT%"]["uri"].endswith("/my%20repo/")
    assert run_["columnKind"] == "unicodeCodePoints"
    security = {rule["id"]: rule.get("properties", {}).get("security-severity") for rule in driver["rules"]}
    assert security["KAP401"] == "8.0" and security["KAP302"] == "5.5" and security["KAP101"] is None
    assert all(rule["helpUri"].endswith("#" + rule["id"].lower()) for rule in driver["rules"])
    assert run_["invocations"][0]["executionSuccessful"] is True


def test_suppressed_findings_are_left_out_unless_asked(tmp_path, monkeypatch):
    text = CLUSTER.replace("delete_additional_resources = true",
                           "delete_additional_resources = true # kapsulint: ignore[KAP101] throwaway cluster")
    root = project(tmp_path, text)
    default = sarif(root, monkeypatch)
    assert [r["ruleId"] for r in default["runs"][0]["results"]] == ["KAP201"]
    kept = sarif(root, monkeypatch, "--sarif-include-suppressed")
    results = {r["ruleId"]: r for r in kept["runs"][0]["results"]}
    assert results["KAP101"]["suppressions"] == [{"kind": "inSource", "justification": "throwaway cluster"}]
    assert results["KAP201"]["suppressions"] == []
    for format_name in ("json", "github", "gitlab", "text"):
        output = run(root, monkeypatch, "--format", format_name, *SELECT).stdout
        assert "KAP101" not in output


def test_github_annotations_are_escaped_and_most_severe_first(tmp_path, monkeypatch):
    root = project(tmp_path, CLUSTER, name="a,b: c.tf")
    result = run(root, monkeypatch, "--format", "github", "--select", "KAP101,KAP103,KAP201")
    lines = result.stdout.splitlines()
    assert lines[0].startswith("::error file=a%2Cb%3A c.tf,line=3,col=33,endLine=3,endColumn=39,title=KAP103 ")
    assert lines[1].startswith("::warning file=a%2Cb%3A c.tf,line=5,col=33,")
    assert result.exit_code == 1


def test_github_format_shows_ten_per_kind_and_counts_the_rest(tmp_path, monkeypatch):
    pools = "".join(CLUSTER.split("\n\n")[1].replace('"apps"', f'"apps{i}"') + "\n" for i in range(13))
    root = project(tmp_path, CLUSTER.split("\n\n")[0] + "\n\n" + pools)
    lines = run(root, monkeypatch, "--format", "github", "--select", "KAP201").stdout.splitlines()
    assert len([l for l in lines if l.startswith("::warning")]) == 10
    assert lines[-1].startswith("::notice title=kapsulint::3 more findings") and "3 warnings" in lines[-1]


def test_github_escaping():
    from kapsulint.reporters.github import escape_data, escape_property

    assert escape_data("50% done\nnext") == "50%25 done%0Anext"
    assert escape_property("a:b,c") == "a%3Ab%2Cc"


def test_gitlab_code_quality_has_unique_fingerprints(tmp_path, monkeypatch):
    root = project(tmp_path)
    issues = json.loads(run(root, monkeypatch, "--format", "gitlab", *SELECT).stdout)
    assert {i["check_name"] for i in issues} == {"KAP101", "KAP201"}
    assert len({i["fingerprint"] for i in issues}) == len(issues)
    assert all(i["location"]["path"] == "main.tf" and i["severity"] in ("minor", "major") for i in issues)


def test_several_reports_in_one_run(tmp_path, monkeypatch):
    root = project(tmp_path)
    result = run(root, monkeypatch, *SELECT, "--report", f"sarif={tmp_path / 'out.sarif'}",
                 "--report", f"json={tmp_path / 'out.json'}")
    assert "KAP101" in result.stdout
    assert json.loads((tmp_path / "out.sarif").read_text())["version"] == "2.1.0"
    assert {f["rule"] for f in json.loads((tmp_path / "out.json").read_text())} == {"KAP101", "KAP201"}
    bad = run(root, monkeypatch, "--report", "xml=out.xml")
    assert bad.exit_code == 2 and "FORMAT=PATH" in bad.stderr


def test_baseline_round_trip_reports_only_new_findings(tmp_path, monkeypatch):
    root = project(tmp_path)
    baseline = tmp_path / "baseline.json"
    first = run(root, monkeypatch, *SELECT, "--write-baseline", str(baseline))
    assert first.exit_code == 0 and "recorded 2 findings" in first.stderr
    assert run(root, monkeypatch, *SELECT, "--baseline", str(baseline)).exit_code == 0
    (root / "more.tf").write_text(CLUSTER.split("\n\n")[1].replace('"apps"', '"batch"').replace("pool\" \"apps",
                                                                                                "pool\" \"batch"))
    result = run(root, monkeypatch, *SELECT, "--baseline", str(baseline), "--format", "json")
    assert [(f["rule"], f["path"]) for f in json.loads(result.stdout)] == [("KAP201", "more.tf")]


def test_configuration_in_either_file_with_origins(tmp_path, monkeypatch):
    root = project(tmp_path)
    (root / "pyproject.toml").write_text('[tool.kapsulint]\nignore = ["KAP201"]\n')
    assert {f["rule"] for f in json.loads(run(root, monkeypatch, *SELECT, "--format", "json").stdout)} == {"KAP101"}
    (root / ".kapsulint.toml").write_text('ignore = ["KAP101"]\nfail-on = "error"\n')
    assert {f["rule"] for f in json.loads(run(root, monkeypatch, *SELECT, "--format", "json").stdout)} == {"KAP201"}
    shown = run(root, monkeypatch, "--show-settings", "--fail-on", "warning").stdout
    assert 'fail-on' in shown and '"warning"  (command line)' in shown
    assert '"KAP101"' in shown and ".kapsulint.toml" in shown
    (root / ".kapsulint.toml").write_text('ignored = ["KAP101"]\n')
    typo = run(root, monkeypatch)
    assert typo.exit_code == 2 and "`ignored`" in typo.stderr


def test_exclude_and_force_exclude(tmp_path, monkeypatch):
    root = project(tmp_path)
    (root / "legacy").mkdir()
    (root / "legacy" / "old.tf").write_text(CLUSTER)
    (root / ".kapsulint.toml").write_text('exclude = ["legacy"]\n')
    everything = json.loads(run(root, monkeypatch, *SELECT, "--format", "json").stdout)
    assert {f["path"] for f in everything} == {"main.tf"}
    named = json.loads(run(root, monkeypatch, *SELECT, "--format", "json", "legacy/old.tf").stdout)
    assert {f["path"] for f in named} == {"legacy/old.tf"}
    forced = run(root, monkeypatch, *SELECT, "--format", "json", "--force-exclude", "legacy/old.tf")
    assert json.loads(forced.stdout) == [] and forced.exit_code == 0



def test_a_named_directory_is_read_even_when_exclude_matches_it_or_a_directory_above(tmp_path, monkeypatch):
    """As with Ruff: `kapsulint .` inside an excluded folder lints that folder; the patterns still
    judge what lies below the named directory, and --force-exclude applies them to it too."""
    root = project(tmp_path)
    case = root / "fixtures" / "case"
    (case / "generated").mkdir(parents=True)
    (case / "main.tf").write_text(CLUSTER)
    (case / "generated" / "copy.tf").write_text(CLUSTER)
    (root / "fixtures" / "other").mkdir()
    (root / "fixtures" / "other" / "main.tf").write_text(CLUSTER)
    (root / ".kapsulint.toml").write_text('exclude = ["fixtures", "generated"]\n')
    for named in ("fixtures/case", "fixtures"):
        found = json.loads(run(root, monkeypatch, *SELECT, "--format", "json", named).stdout)
        expected = {"fixtures/case/main.tf"} | ({"fixtures/other/main.tf"} if named == "fixtures" else set())
        assert {f["path"] for f in found} == expected, named
    inside = run(case, monkeypatch, *SELECT, "--format", "json", ".")
    assert {f["path"] for f in json.loads(inside.stdout)} == {"main.tf"}
    forced = run(root, monkeypatch, *SELECT, "--format", "json", "--force-exclude", "fixtures/case")
    assert json.loads(forced.stdout) == [] and forced.exit_code == 0

def test_gitignore_decides_what_is_reported_not_what_is_read(tmp_path, monkeypatch):
    root = project(tmp_path, CLUSTER.replace("delete_additional_resources = true",
                                             "delete_additional_resources = var.wipe"))
    (root / "variables.tf").write_text('variable "wipe" {\n  type = bool\n}\n')
    (root / "provider.tf").write_text('provider "scaleway" {}\n')
    (root / "secret.auto.tfvars").write_text("wipe = true\n")
    (root / "generated").mkdir()
    (root / "generated" / "main.tf").write_text(CLUSTER)
    (root / ".gitignore").write_text("*.auto.tfvars\ngenerated/\n")
    findings = json.loads(run(root, monkeypatch, "--select", "KAP101", "--format", "json").stdout)
    assert findings == []  # the KAP101 value sits in an ignored tfvars file; generated/ is ignored
    (root / ".gitignore").write_text("generated/\n")
    findings = json.loads(run(root, monkeypatch, "--select", "KAP101", "--format", "json").stdout)
    assert [(f["path"], f["line"]) for f in findings] == [("secret.auto.tfvars", 1)]


def test_statistics_quiet_and_show_files(tmp_path, monkeypatch):
    root = project(tmp_path)
    (root / "values.yaml").write_text("controller: {}\n")
    stats = run(root, monkeypatch, *SELECT, "--statistics").stdout
    assert "1  KAP101  delete-additional-resources" in stats and stats.strip().endswith("2  total")
    quiet = run(root, monkeypatch, *SELECT, "--quiet").stdout
    assert "KAP101" in quiet and "Found" not in quiet
    files = run(root, monkeypatch, "--show-files").stdout.splitlines()
    assert files[1:] == ["main.tf\tconfig\tok\tmodule", "values.yaml\tvalues\tok\tnamed values*.yaml",
                         "# engine: Terraform for every module (auto: no .tofu file, no OpenTofu lock file "
                         "or state encryption)"]
    assert files[0].startswith("# project root: . (")


def test_a_hardcoded_secret_is_never_echoed_by_any_report(tmp_path, monkeypatch):
    secret = "3f9a1c2e-8b7d-4e6f-a5c4-1d2e3f4a5b6c"
    root = project(tmp_path, f'provider "scaleway" {{\n  access_key = "SCWK3J9Q2M8N4P7R5T1V"\n  secret_key = "{secret}"\n}}\n')
    for format_name in ("text", "json", "sarif", "github", "gitlab"):
        output = run(root, monkeypatch, "--format", format_name, "--select", "KAP404").stdout
        assert "KAP404" in output
        assert secret not in output and "SCWK3J9Q2M8N4P7R5T1V" not in output, format_name
