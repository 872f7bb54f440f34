"""The command line through click's CliRunner, plus the installed entry points."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from fixture_support import lint
from kapsulint import __version__
from kapsulint.cli.command import main

ANSI = re.compile(r"\x1b\[")
JSON_FIELDS = {"rule", "name", "severity", "message", "path", "line", "column", "end_line", "end_column",
               "fixable", "edits"}
JSON_OPTIONAL = {"related", "instances", "fix"}

CLUSTER = """\
resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  version                     = "1.35.2"
  cni                         = "cilium"
  delete_additional_resources = true
}
"""
CLEAN = CLUSTER.replace("= true", "= false")


def write(directory: Path, files: dict[str, str | bytes]) -> Path:
    for name, content in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content), encoding="utf-8")
    return directory


def invoke(directory: Path, args: list[str], monkeypatch, env: dict | None = None):
    monkeypatch.chdir(directory)
    return CliRunner().invoke(main, args, env=env, catch_exceptions=False)


def where(findings: list[dict]) -> list[tuple[str, str, int]]:
    return sorted((f["rule"], f["path"], f["line"]) for f in findings)


# -- information options ---------------------------------------------------------------------


def test_version(tmp_path, monkeypatch):
    result = invoke(tmp_path, ["--version"], monkeypatch)
    assert result.exit_code == 0
    assert __version__ in result.stdout and "kapsulint" in result.stdout


def test_list_rules_text(tmp_path, monkeypatch):
    result = invoke(tmp_path, ["--list-rules"], monkeypatch)
    assert result.exit_code == 0
    line = next(l for l in result.stdout.splitlines() if l.startswith("KAP101"))
    assert "delete-additional-resources" in line and "warning" in line
    assert "KAP001" in result.stdout and "parse-error" in result.stdout


def test_list_rules_json(tmp_path, monkeypatch):
    result = invoke(tmp_path, ["--list-rules", "--format", "json"], monkeypatch)
    assert result.exit_code == 0
    rows = json.loads(result.stdout)
    assert all(set(row) == {"id", "name", "severity", "summary", "fixable"} for row in rows)
    by_id = {row["id"]: row for row in rows}
    assert by_id["KAP101"]["name"] == "delete-additional-resources"
    assert by_id["KAP101"]["severity"] == "warning"
    assert by_id["KAP101"]["summary"].startswith("Reports a cluster")
    assert by_id["KAP001"]["severity"] == "error"
    assert [row["id"] for row in rows] == sorted(by_id)


@pytest.mark.parametrize("selector", ["KAP101", "kap101", "delete-additional-resources"])
def test_explain(tmp_path, monkeypatch, selector):
    result = invoke(tmp_path, ["--explain", selector], monkeypatch)
    assert result.exit_code == 0
    assert "KAP101" in result.stdout and "delete-additional-resources" in result.stdout
    for heading in ("What it does", "Why is this bad", "Example", "Use instead", "References"):
        assert heading in result.stdout


def test_explain_unknown_rule_exits_2(tmp_path, monkeypatch):
    result = invoke(tmp_path, ["--explain", "NOPE"], monkeypatch)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "NOPE" in result.stderr


# -- usage errors ------------------------------------------------------------------------------


@pytest.mark.parametrize("option", ["--select", "--extend-select", "--ignore"])
def test_unknown_selector_exits_2(tmp_path, monkeypatch, option):
    write(tmp_path, {"main.tf": CLUSTER})
    result = invoke(tmp_path, [option, "KAP101,NOPE"], monkeypatch)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "NOPE" in result.stderr


def test_nonexistent_path_exits_2(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER})
    result = invoke(tmp_path, ["missing-dir"], monkeypatch)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "missing-dir" in result.stderr


def test_bad_var_exits_2(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER})
    result = invoke(tmp_path, ["--var", "novalue"], monkeypatch)
    assert result.exit_code == 2
    assert "novalue" in result.stderr


# -- exit codes --------------------------------------------------------------------------------


def test_exit_0_without_findings(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLEAN})
    code, findings, stderr = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert (code, findings) == (0, []), stderr


def test_exit_1_with_findings(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER})
    code, findings, _ = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert code == 1
    assert where(findings) == [("KAP101", "main.tf", 5)]


def test_fail_on_error_with_only_warnings_exits_0(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER})
    code, findings, _ = lint(tmp_path, ["--select", "KAP101", "--fail-on", "error"], monkeypatch)
    assert code == 0
    assert [f["severity"] for f in findings] == ["warning"]  # still reported
    code, _, _ = lint(tmp_path, ["--select", "KAP101", "--fail-on", "note"], monkeypatch)
    assert code == 1


def test_fail_on_error_with_an_error_exits_1(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER, "broken.tf": 'resource "a" "b" {\n'})
    code, findings, _ = lint(tmp_path, ["--select", "KAP101", "--fail-on", "error"], monkeypatch)
    assert code == 1
    assert where(findings) == [("KAP001", "broken.tf", 1), ("KAP101", "main.tf", 5)]


def test_exit_zero(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER})
    code, findings, _ = lint(tmp_path, ["--select", "KAP101", "--exit-zero"], monkeypatch)
    assert code == 0
    assert where(findings) == [("KAP101", "main.tf", 5)]


def test_internal_error_in_a_rule_exits_2_after_the_report(tmp_path, monkeypatch):
    from kapsulint.lint import registry

    real = registry.all_rules()

    def broken(project):
        raise RuntimeError("boom")
        yield  # pragma: no cover

    rules = tuple(r._replace(check=broken) if r.id == "KAP102" else r for r in real)
    monkeypatch.setattr(registry, "all_rules", lambda: rules)
    write(tmp_path, {"main.tf": CLUSTER})
    for extra in ([], ["--exit-zero"]):
        code, findings, stderr = lint(tmp_path, ["--select", "KAP101,KAP102", *extra], monkeypatch)
        assert code == 2
        assert where(findings) == [("KAP008", ".", 1), ("KAP101", "main.tf", 5)]  # the others still report
        assert "KAP102" in stderr and "boom" in stderr


def test_broken_file_does_not_hide_findings_in_good_files(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER, "broken.tf": 'resource "scaleway_k8s_pool" "apps" {\n  size = 1 ]\n}\n'})
    code, findings, stderr = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert code == 1, stderr
    assert where(findings) == [("KAP001", "broken.tf", 2), ("KAP101", "main.tf", 5)]


# -- output ------------------------------------------------------------------------------------


def test_output_file(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER})
    result = invoke(tmp_path, ["--select", "KAP101", "--format", "json", "--output", "report.json"], monkeypatch)
    assert result.exit_code == 1
    assert result.stdout == ""
    findings = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert where(findings) == [("KAP101", "main.tf", 5)]
    result = invoke(tmp_path, ["--select", "KAP101", "--output", "report.txt"], monkeypatch)
    assert result.stdout == ""
    assert "main.tf:5:33:" in (tmp_path / "report.txt").read_text(encoding="utf-8")


def test_output_file_that_cannot_be_written_exits_2(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER})
    result = invoke(tmp_path, ["--output", str(tmp_path / "main.tf" / "dir" / "r.txt")], monkeypatch)
    assert result.exit_code == 2  # a missing directory is created, one under a file cannot be
    assert result.stdout == "" and "cannot create its directory" in result.stderr


def test_text_format(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER})
    result = invoke(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("main.tf:5:33: KAP101 delete-additional-resources ")
    source = next(l for l in lines if "delete_additional_resources = true" in l and "|" in l)
    marker = lines[lines.index(source) + 1]
    # The marker sits under `true`.
    assert marker.index("^") == source.index("true")
    assert marker.count("^") == len("true")
    assert re.fullmatch(r"Found 1 finding \(1 warning\)\.", lines[-3])
    assert lines[-2].startswith(("[*] ", "No fixes available"))  # what --fix would fix, as Ruff says
    assert lines[-1].startswith("Run `kapsulint --explain ID`") and lines[-1].endswith("--explain KAP101`.")
    assert not ANSI.search(result.stdout)  # CliRunner's stdout is not a TTY
    assert result.stderr == ""


def test_text_format_without_findings(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLEAN})
    result = invoke(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert result.exit_code == 0
    assert result.stdout.strip() == "No findings."


def test_no_color_when_no_color_is_set(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER})
    result = invoke(tmp_path, ["--select", "KAP101"], monkeypatch, env={"NO_COLOR": "1"})
    assert result.exit_code == 1
    assert "KAP101" in result.stdout and not ANSI.search(result.stdout)


def test_json_format(tmp_path, monkeypatch):
    module = CLUSTER.replace("= true", "= var.cleanup ? true : false")
    write(tmp_path, {
        "main.tf": 'module "cluster" {\n  source  = "./modules/cluster"\n  cleanup = true\n}\n',
        "modules/cluster/main.tf": 'variable "cleanup" {\n  type = bool\n}\n\n' + module,
    })
    result = invoke(tmp_path, ["--select", "KAP101", "--format", "json"], monkeypatch)
    assert result.exit_code == 1
    findings = json.loads(result.stdout)
    assert len(findings) == 1
    finding = findings[0]
    assert JSON_FIELDS <= set(finding) <= JSON_FIELDS | JSON_OPTIONAL
    assert finding["rule"] == "KAP101"
    assert finding["name"] == "delete-additional-resources"
    assert finding["severity"] == "warning"
    assert finding["path"] == os.path.join("modules", "cluster", "main.tf")
    assert (finding["line"], finding["column"], finding["end_line"], finding["end_column"]) == (9, 47, 9, 51)
    assert finding["instances"] == ["module.cluster.scaleway_k8s_cluster.main"]
    assert isinstance(finding["fix"], str) and finding["fix"]
    assert isinstance(finding["message"], str) and finding["message"]


def test_json_paths_are_relative_to_the_working_directory(tmp_path, monkeypatch):
    write(tmp_path, {".kapsulint.toml": 'select = ["KAP101"]\n', "main.tf": CLUSTER, "sub/other.tf": CLUSTER})
    result = invoke(tmp_path / "sub", ["--format", "json", str(tmp_path)], monkeypatch)
    assert result.exit_code == 1
    paths = sorted(f["path"] for f in json.loads(result.stdout))
    assert paths == sorted([os.path.join("..", "main.tf"), "other.tf"])


def test_empty_project_gives_an_empty_json_array(tmp_path, monkeypatch):
    result = invoke(tmp_path, ["--format", "json"], monkeypatch)
    assert result.exit_code == 0
    assert json.loads(result.stdout) == []


# -- paths filter the report -------------------------------------------------------------------


def _module_project(tmp_path: Path) -> Path:
    """A git repository (its top level is the project root) with a root calling a module."""
    (tmp_path / ".git").mkdir()
    module = CLUSTER.replace("= true", "= var.cleanup ? true : false")
    return write(tmp_path, {
        "main.tf": 'module "cluster" {\n  source  = "./modules/cluster"\n  cleanup = true\n}\n\n'
                   + CLUSTER.replace('"main"', '"legacy"'),
        "modules/cluster/main.tf": 'variable "cleanup" {\n  type = bool\n}\n\n' + module,
        "modules/other/main.tf": CLUSTER.replace('"main"', '"other"'),
    })


def test_path_filters_the_report_but_discovery_covers_the_root(tmp_path, monkeypatch):
    _module_project(tmp_path)
    everything = [("KAP101", "main.tf", 10), ("KAP101", "modules/cluster/main.tf", 9),
                  ("KAP101", "modules/other/main.tf", 5)]
    code, findings, _ = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert where(findings) == everything
    # The module alone would not fire (var.cleanup has no value): its caller in the root is read.
    code, findings, _ = lint(tmp_path, ["--select", "KAP101", "modules/cluster"], monkeypatch)
    assert code == 1
    assert where(findings) == [("KAP101", "modules/cluster/main.tf", 9)]
    code, findings, _ = lint(tmp_path, ["--select", "KAP101", "modules/cluster", "modules/other"], monkeypatch)
    assert where(findings) == everything[1:]


def test_file_path_filters_to_its_module(tmp_path, monkeypatch):
    _module_project(tmp_path)
    write(tmp_path, {"modules/cluster/variables.tf": 'variable "unused" {}\n'})
    code, findings, _ = lint(tmp_path, ["--select", "KAP101", "main.tf"], monkeypatch)
    assert where(findings) == [("KAP101", "main.tf", 10)]
    code, findings, _ = lint(tmp_path, ["--select", "KAP101", "modules/cluster/variables.tf"], monkeypatch)
    assert where(findings) == [("KAP101", "modules/cluster/main.tf", 9)]


def test_path_with_no_findings_exits_0(tmp_path, monkeypatch):
    _module_project(tmp_path)
    write(tmp_path, {"docs/values.yaml": "replicaCount: 1\n"})
    code, findings, _ = lint(tmp_path, ["--select", "KAP101", "docs"], monkeypatch)
    assert (code, findings) == (0, [])


# -- configuration -----------------------------------------------------------------------------


def test_kapsulint_toml_ignore(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER, ".kapsulint.toml": 'ignore = ["KAP101"]\n'})
    code, findings, stderr = lint(tmp_path, ["--select", "KAP1"], monkeypatch)
    assert all(f["rule"] != "KAP101" for f in findings), stderr


def test_pyproject_ignore(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER,
                     "pyproject.toml": '[project]\nname = "x"\n\n[tool.kapsulint]\nignore = ["delete-additional-resources"]\n'})
    code, findings, stderr = lint(tmp_path, ["--select", "KAP1"], monkeypatch)
    assert all(f["rule"] != "KAP101" for f in findings), stderr


def test_pyproject_without_section_is_not_a_configuration(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER, "pyproject.toml": '[project]\nname = "x"\nunknown = 1\n'})
    code, findings, stderr = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert code == 1, stderr
    assert where(findings) == [("KAP101", "main.tf", 5)]


def test_kapsulint_toml_wins_over_pyproject(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER, ".kapsulint.toml": 'select = ["KAP101"]\n',
                     "pyproject.toml": '[tool.kapsulint]\nignore = ["KAP101"]\n'})
    code, findings, _ = lint(tmp_path, [], monkeypatch)
    assert where(findings) == [("KAP101", "main.tf", 5)]


def test_configuration_found_upward_from_the_first_path(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER, "infra/main.tf": CLUSTER, "infra/.kapsulint.toml": 'ignore = ["KAP101"]\n'})
    code, findings, _ = lint(tmp_path, ["--select", "KAP101,KAP001", "infra"], monkeypatch)
    assert (code, findings) == (0, [])


def test_explicit_config_file(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER, "ci/lint.toml": 'ignore = ["KAP101"]\n'})
    code, findings, _ = lint(tmp_path, ["--select", "KAP101,KAP001", "--config", "ci/lint.toml"], monkeypatch)
    assert (code, findings) == (0, [])


@pytest.mark.parametrize("name, text", [
    (".kapsulint.toml", 'ignore = ["KAP101"]\nmax-file-sise = 10\n'),
    ("pyproject.toml", '[tool.kapsulint]\nmax-file-sise = 10\n'),
])
def test_unknown_configuration_key_exits_2_naming_it(tmp_path, monkeypatch, name, text):
    write(tmp_path, {"main.tf": CLUSTER, name: text})
    result = invoke(tmp_path, ["--format", "json"], monkeypatch)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "max-file-sise" in result.stderr


def test_invalid_configuration_exits_2(tmp_path, monkeypatch):
    for text in ('ignore = "KAP101"\n', 'ignore = [\n', 'ignore = ["NOPE"]\n', 'fail-on = "fatal"\n'):
        write(tmp_path, {"main.tf": CLUSTER, ".kapsulint.toml": text})
        result = invoke(tmp_path, [], monkeypatch)
        assert result.exit_code == 2, text
        assert result.stdout == "", text
        assert ".kapsulint.toml" in result.stderr or "NOPE" in result.stderr, text


def test_exclude_drops_a_directory(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER, "legacy/main.tf": CLUSTER, "legacy/broken.tf": "resource {\n",
                     ".kapsulint.toml": 'exclude = ["legacy"]\n'})
    code, findings, stderr = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert code == 1, stderr
    assert where(findings) == [("KAP101", "main.tf", 5)]


def test_fail_on_from_configuration_and_command_line_wins(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER, ".kapsulint.toml": 'fail-on = "error"\n'})
    code, findings, _ = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert code == 0 and findings
    code, _, _ = lint(tmp_path, ["--select", "KAP101", "--fail-on", "warning"], monkeypatch)
    assert code == 1


# -- installed entry points --------------------------------------------------------------------


def _console_script() -> list[str]:
    found = shutil.which("kapsulint")
    if found is None:
        sibling = Path(sys.executable).with_name("kapsulint")
        found = str(sibling) if sibling.exists() else None
    return [found] if found else [sys.executable, "-m", "kapsulint"]


def test_console_script(tmp_path):
    write(tmp_path, {"main.tf": CLUSTER})
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    result = subprocess.run([*_console_script(), "--select", "KAP101", "."], cwd=tmp_path, capture_output=True,
                            text=True, env=env, timeout=60)
    assert result.returncode == 1, result.stderr
    assert "main.tf:5:33: KAP101 delete-additional-resources" in result.stdout
    assert not ANSI.search(result.stdout)  # a pipe is not a TTY


def test_python_dash_m_version(tmp_path):
    result = subprocess.run([sys.executable, "-m", "kapsulint", "--version"], cwd=tmp_path, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert __version__ in result.stdout


@pytest.mark.parametrize("no_color", [False, True])
def test_color_only_on_a_tty_without_no_color(tmp_path, no_color):
    write(tmp_path, {"main.tf": CLUSTER})
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    if no_color:
        env["NO_COLOR"] = "1"
    master, slave = os.openpty()
    try:
        process = subprocess.Popen([*_console_script(), "--select", "KAP101"], cwd=tmp_path, stdout=slave,
                                   stderr=subprocess.PIPE, env=env)
    finally:
        os.close(slave)
    output = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO once the child has closed the terminal
            break
        if not chunk:
            break
        output += chunk
    os.close(master)
    assert process.wait(timeout=60) == 1
    text = output.decode("utf-8")
    assert "KAP101" in text
    assert bool(ANSI.search(text)) is not no_color


def test_a_path_outside_the_working_directory_is_its_own_root(tmp_path, monkeypatch):
    project = tmp_path / "elsewhere"
    project.mkdir()
    write(project, {"main.tf": CLUSTER})
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    code, findings, _ = lint(cwd, ["--select", "KAP101", str(project)], monkeypatch)
    assert code == 1
    assert [(f["rule"], f["path"]) for f in findings] == [("KAP101", "../elsewhere/main.tf")]


# -- typos that say nothing ------------------------------------------------------------------


def test_missing_var_file_on_the_command_line_exits_2_naming_it(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER})
    result = invoke(tmp_path, ["--var-file", "missing.tfvars"], monkeypatch)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "missing.tfvars" in result.stderr and "--var-file" in result.stderr


def test_missing_var_file_in_the_configuration_exits_2_naming_it(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER, ".kapsulint.toml": 'var-files = ["nope.tfvars"]\n'})
    result = invoke(tmp_path, [], monkeypatch)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "nope.tfvars" in result.stderr and "var-files" in result.stderr


def test_every_unknown_configuration_key_with_did_you_mean_and_the_valid_keys(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER, ".kapsulint.toml": 'fail_on = "error"\nexlude = ["x"]\nzzz = 1\n'})
    result = invoke(tmp_path, [], monkeypatch)
    assert result.exit_code == 2
    assert "`fail_on` (did you mean `fail-on`?)" in result.stderr
    assert "`exlude` (did you mean `exclude`?)" in result.stderr
    assert "`zzz`\n" in result.stderr
    assert "valid keys: engine, exclude, extend-safe-fixes, extend-select, extend-unsafe-fixes, extra-node-types, fail-on," in result.stderr


def test_unknown_selector_suggests_the_closest_ids_and_names(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER})
    result = invoke(tmp_path, ["--select", "KPA201"], monkeypatch)
    assert result.exit_code == 2
    assert "KPA201 (did you mean KAP201" in result.stderr
    result = invoke(tmp_path, ["--ignore", "autohealing-disable"], monkeypatch)
    assert "did you mean autohealing-disabled?" in result.stderr


def test_statistics_as_json(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER, "b/main.tf": CLUSTER})
    result = invoke(tmp_path, ["--select", "KAP101", "--statistics", "--format", "json"], monkeypatch)
    assert result.exit_code == 1
    assert json.loads(result.stdout) == [
        {"rule": "KAP101", "name": "delete-additional-resources", "severity": "warning", "count": 2,
         "fixable": False, "blind_spot": False}]


def test_write_baseline_exits_0_and_says_what_it_recorded(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER})
    result = invoke(tmp_path, ["--select", "KAP101", "--write-baseline", "base.json"], monkeypatch)
    assert result.exit_code == 0
    assert result.stdout == ""
    assert "recorded 1 finding in baseline base.json" in result.stderr
    assert len(json.loads((tmp_path / "base.json").read_text())["findings"]) == 1
    code, findings, _ = lint(tmp_path, ["--select", "KAP101", "--baseline", "base.json"], monkeypatch)
    assert (code, findings) == (0, [])


def test_file_too_large_says_how_to_lint_it_anyway(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER, ".kapsulint.toml": "max-file-size = 50\n"})
    code, findings, _ = lint(tmp_path, ["--select", "KAP101,KAP005"], monkeypatch)
    (skipped,) = findings
    size = len(CLUSTER.encode())
    assert skipped["rule"] == "KAP005"
    assert f"raise `max-file-size` in .kapsulint.toml (for instance max-file-size = {size})" in skipped["message"]
    (tmp_path / ".kapsulint.toml").write_text(f"max-file-size = {size}\n")  # the hint, followed
    code, findings, _ = lint(tmp_path, ["--select", "KAP101,KAP005"], monkeypatch)
    assert [f["rule"] for f in findings] == ["KAP101"]


def test_the_command_passes_its_options_as_one_record_of_named_fields():
    """Every option of the command is a field of the record _lint receives, by its own name."""
    from kapsulint.cli.command import Invocation

    assert [p.name for p in main.params if p.expose_value] == list(Invocation._fields)
