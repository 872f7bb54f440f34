"""Engine behaviour behind issue 12's classes: internal errors as located findings (KAP008)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from kapsulint.cli.command import main
from kapsulint.lint import registry

CLUSTER = """\
resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  version                     = "1.35.2"
  cni                         = "cilium"
  delete_additional_resources = true
}
"""


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("KAPSULINT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def write(directory: Path, files: dict[str, str]) -> Path:
    for name, content in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(content), encoding="utf-8")
    return directory


def invoke(directory: Path, args: list[str], monkeypatch):
    monkeypatch.chdir(directory)
    return CliRunner().invoke(main, args, catch_exceptions=False)


def _rule_failing_on_the_cluster(monkeypatch) -> None:
    """KAP104 raises while it holds the cluster's resource instance, as a real bug would."""

    def check(project):
        for instance in project.resources("scaleway_k8s_cluster"):
            raise ValueError(f"bug on {instance.resource.name}")
        yield  # pragma: no cover

    rules = tuple(r._replace(check=check) if r.id == "KAP104" else r for r in registry.all_rules())
    monkeypatch.setattr(registry, "all_rules", lambda: rules)


def test_a_failing_rule_is_a_finding_at_the_block_it_judged_in_every_format(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": "# a comment\n" + CLUSTER})
    _rule_failing_on_the_cluster(monkeypatch)
    args = ["--select", "KAP101,KAP104"]
    result = invoke(tmp_path, ["--format", "json", *args], monkeypatch)
    assert result.exit_code == 2
    findings = json.loads(result.stdout)
    (failure,) = [f for f in findings if f["rule"] == "KAP008"]
    assert (failure["path"], failure["line"], failure["column"]) == ("main.tf", 2, 1)
    assert failure["name"] == "internal-error" and failure["severity"] == "error"
    assert "rule KAP104 (missing-private-network) failed: ValueError: bug on main" in failure["message"]
    assert any(f["rule"] == "KAP101" for f in findings)  # the other rules still report
    assert f"at {tmp_path / 'main.tf'}:2" in result.stderr
    for output_format, needle in (("text", "main.tf:2:1"), ("github", "KAP008"), ("gitlab", "KAP008")):
        shown = invoke(tmp_path, ["--format", output_format, *args], monkeypatch)
        assert shown.exit_code == 2 and needle in shown.stdout and "internal error" in shown.stdout
    log = json.loads(invoke(tmp_path, ["--format", "sarif", *args], monkeypatch).stdout)
    results = [r for r in log["runs"][0]["results"] if r["ruleId"] == "KAP008"]
    assert results[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 2


def test_an_internal_error_is_reported_whatever_the_selection_ignores_or_suppresses(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": "# kapsulint: ignore-file[KAP008] not allowed to hide a bug\n" + CLUSTER})
    _rule_failing_on_the_cluster(monkeypatch)
    result = invoke(tmp_path, ["--format", "json", "--select", "KAP104", "--ignore", "KAP008", "--exit-zero"],
                    monkeypatch)
    assert result.exit_code == 2
    assert [f["rule"] for f in json.loads(result.stdout) if f["rule"] == "KAP008"] == ["KAP008"]


def test_show_files_does_not_say_ok_for_a_file_with_an_internal_error(tmp_path, monkeypatch):
    from kapsulint.parsing import hcl

    real = hcl.parse_hcl

    def buggy(text):
        if "trigger" in text:
            raise KeyError("adapter bug")
        return real(text)

    monkeypatch.setattr(hcl, "parse_hcl", buggy)
    write(tmp_path, {"a.tf": "locals { trigger = 1 }\n", "b.tf": CLUSTER})
    lines = invoke(tmp_path, ["--show-files", "--no-cache"], monkeypatch).stdout.splitlines()
    states = {line.split("\t")[0]: line.split("\t")[2] for line in lines if "\t" in line}
    assert states == {"a.tf": "internal-error", "b.tf": "ok"}


def test_a_bug_while_reading_suppressions_is_an_internal_error_at_that_file(tmp_path, monkeypatch):
    from kapsulint.lint import runner

    real = runner.parse_suppressions

    def buggy(source):
        if source.path.endswith("a.tf"):
            raise IndexError("comment bug")
        return real(source)

    monkeypatch.setattr(runner, "parse_suppressions", buggy)
    write(tmp_path, {"a.tf": "# kapsulint: ignore[KAP101] reason\n" + CLUSTER, "b/main.tf": CLUSTER})
    result = invoke(tmp_path, ["--format", "json", "--select", "KAP101"], monkeypatch)
    assert result.exit_code == 2
    where = sorted((f["rule"], f["path"], f["line"]) for f in json.loads(result.stdout))
    assert where == [("KAP008", "a.tf", 1), ("KAP101", "a.tf", 6), ("KAP101", "b/main.tf", 5)]
    assert "reading suppressions failed: IndexError: comment bug" in result.stderr


def test_a_bug_while_linking_the_modules_is_an_internal_error_of_the_project(tmp_path, monkeypatch):
    from kapsulint.model import project as project_module

    def _link_calls(self):
        raise RuntimeError("link bug")

    monkeypatch.setattr(project_module.Project, "_link_calls", _link_calls)
    write(tmp_path, {"main.tf": CLUSTER})
    result = invoke(tmp_path, ["--format", "json", "--select", "KAP101"], monkeypatch)
    assert result.exit_code == 2
    where = sorted((f["rule"], f["path"], f["line"]) for f in json.loads(result.stdout))
    assert where == [("KAP008", ".", 1), ("KAP101", "main.tf", 5)]  # the files are still linted
    assert f"internal error in {tmp_path}: link calls failed: RuntimeError: link bug" in result.stderr
