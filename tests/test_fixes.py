"""Fixes: every fix case fixed byte for byte, the fix engine, and its surface (flags, reports, hook).

A fix case is a fixture folder whose ``case.toml`` says ``fix = "safe"`` or ``"unsafe"``, with
``FILE.fixed`` beside each file the fix changes (like Ruff's fix snapshots). Each case is fixed in
a copy; the files must equal their ``.fixed`` versions, a re-lint must show the fixed findings
gone and no new one, a second ``--fix`` must change nothing, and Terraform's recorded ``terraform
fmt -check`` verdict on every ``.fixed`` file (``tests/oracle/fixes.json``, written by
``tests/oracle/record_fixes.py``) must pass wherever the original passed.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from fixture_support import FILE_RULES, FIXTURES, ROOT, case_config, copy_case, lint
from kapsulint.cli.command import main
from kapsulint.findings import Edit
from kapsulint.lint.fixes import FileText, apply_edits
from kapsulint.lint.registry import all_rules, by_id

VERDICTS = json.loads((ROOT / "tests" / "oracle" / "fixes.json").read_text(encoding="utf-8"))["files"]


def fix_cases() -> list[Path]:
    return sorted(c.parent for c in FIXTURES.glob("KAP*/*/case.toml") if "fix" in case_config(c.parent))


def _selection(case: Path) -> list[str]:
    rule = case.parent.name
    engine = [r for r in FILE_RULES if r != rule and r in by_id()]
    return ["--select", ",".join([rule, *engine]), *case_config(case).get("args", [])]


def _files(directory: Path) -> dict[str, bytes]:
    return {p.relative_to(directory).as_posix(): p.read_bytes()
            for p in sorted(directory.rglob("*")) if p.is_file() and not p.name.endswith(".fixed")}


def _kinds(findings: list[dict]) -> Counter:
    return Counter((f["rule"], f["path"]) for f in findings)


@pytest.mark.parametrize("case", fix_cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fix_case(case, tmp_path, monkeypatch):
    config = case_config(case)
    assert config["fix"] in ("safe", "unsafe"), case
    flags = ["--fix"] + (["--unsafe-fixes"] if config["fix"] == "unsafe" else [])
    project = copy_case(case, tmp_path)
    before = _files(project)
    _, found, _ = lint(project, _selection(case), monkeypatch)
    assert any(f["fixable"] == config["fix"] for f in found), "the case shows no fix of its kind"
    code, left, stderr = lint(project, [*_selection(case), *flags], monkeypatch)
    assert code in (0, 1), stderr
    after = _files(project)
    fixed = {p.relative_to(case).as_posix().removesuffix(".fixed"): p.read_bytes() for p in case.rglob("*.fixed")}
    assert fixed, "a fix case has .fixed files"
    for relative, content in after.items():
        assert content == fixed.get(relative, before[relative]), relative
    # the fixed findings are gone, and no new one came
    _, again, _ = lint(project, _selection(case), monkeypatch)
    assert not [f for f in again if f["fixable"] in ("safe", config["fix"])], again
    grown = _kinds(again) - _kinds(found)
    assert not grown, grown
    # idempotent
    lint(project, [*_selection(case), *flags], monkeypatch)
    assert _files(project) == after
    # terraform fmt -check, as Terraform recorded it
    for path in case.rglob("*.fixed"):
        relative = path.relative_to(FIXTURES).as_posix()
        original = relative.removesuffix(".fixed")
        if not original.endswith((".tf", ".tfvars", ".tofu")):
            continue
        for name in (relative, original):
            recorded = VERDICTS.get(name)
            assert recorded is not None, f"no terraform fmt verdict for {name}: run tests/oracle/record_fixes.py"
            digest = hashlib.sha256((FIXTURES / name).read_bytes()).hexdigest()
            assert recorded["sha256"] == digest, f"{name} changed since its verdict: run tests/oracle/record_fixes.py"
        if VERDICTS[original]["formatted"]:
            assert VERDICTS[relative]["formatted"], f"{relative} no longer passes terraform fmt -check"


def test_every_rule_with_fix_has_a_fix_case_and_docs():
    with_cases = {c.parent.name for c in fix_cases()}
    for rule in all_rules():
        if rule.fix is not None:
            assert "Fix" in rule.sections, rule.id
            assert rule.id in with_cases, f"{rule.id} sets FIX but has no fix case"


# --- the edits ------------------------------------------------------------------------------------

POOL = '''resource "scaleway_k8s_pool" "apps" {
  cluster_id = "fr-par/11111111-1111-1111-1111-111111111111"
  node_type  = "POP2-4C-16G"
  size       = 3
}
'''


def _fixed(tmp_path, monkeypatch, text: str | bytes, *args: str, name: str = "main.tf") -> tuple[int, bytes, str]:
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["--select", "KAP206,KAP201,KAP003", "--fix", "--unsafe-fixes", *args, "."],
                                catch_exceptions=False)
    return result.exit_code, path.read_bytes(), result.stderr


def test_crlf_bom_and_mode_are_kept(tmp_path, monkeypatch):
    original = b"\xef\xbb\xbf" + POOL.replace("\n", "\r\n").encode()
    (tmp_path / "main.tf").write_bytes(original)
    os.chmod(tmp_path / "main.tf", 0o640)
    _, after, _ = _fixed(tmp_path, monkeypatch, original)
    assert after.startswith(b"\xef\xbb\xbf")
    assert b"autohealing = true\r\n" in after and b"\n" not in after.replace(b"\r\n", b"")
    assert stat.S_IMODE(os.stat(tmp_path / "main.tf").st_mode) == 0o640


def test_a_file_with_a_syntax_error_is_never_written(tmp_path, monkeypatch):
    broken = POOL + "resource \"x\" {\n"
    code, after, _ = _fixed(tmp_path, monkeypatch, broken)
    assert after == broken.encode()


def test_json_syntax_is_not_fixed(tmp_path, monkeypatch):
    text = json.dumps({"resource": {"scaleway_k8s_pool": {"apps": {"cluster_id": "x", "node_type": "POP2-4C-16G",
                                                                     "size": 3}}}})
    _, after, _ = _fixed(tmp_path, monkeypatch, text, name="main.tf.json")
    assert after == text.encode()


def test_fixes_of_one_block_are_applied_in_rounds(tmp_path, monkeypatch):
    """KAP201 and KAP206 both edit the pool's body: the second is recomputed in a second round."""
    code, after, stderr = _fixed(tmp_path, monkeypatch, POOL)
    text = after.decode()
    assert "  autohealing = true\n" in text and "create_before_destroy = true" in text, text
    assert "  cluster_id  = " in text  # re-aligned with the new attribute
    assert code == 0 and "Fixed 2 findings." in stderr


def test_a_second_fix_changes_nothing(tmp_path, monkeypatch):
    _, first, _ = _fixed(tmp_path, monkeypatch, POOL)
    _, second, stderr = _fixed(tmp_path, monkeypatch, first)
    assert second == first and "Fixed 0 findings." in stderr


def test_an_edit_that_breaks_the_file_writes_nothing(tmp_path, monkeypatch):
    from kapsulint.lint import fixes

    original = fixes._new_texts

    def breaking(by_file, files, reads):
        return original({p: [Edit(p, 1, 1, 1, 1, "{")] for p in by_file}, files, reads)

    monkeypatch.setattr(fixes, "_new_texts", breaking)
    code, after, stderr = _fixed(tmp_path, monkeypatch, POOL)
    assert after == POOL.encode()
    assert "would not parse" in stderr and "nothing written" in stderr


def test_a_fix_that_leaves_its_finding_is_undone(tmp_path, monkeypatch):
    """The file parses after the edit but the finding is still there: the file is put back."""
    from kapsulint.lint import fixes

    original = fixes._new_texts

    def useless(by_file, files, reads):
        return original({p: [Edit(p, 1, 1, 1, 1, "# touched\n")] for p in by_file}, files, reads)

    monkeypatch.setattr(fixes, "_new_texts", useless)
    code, after, stderr = _fixed(tmp_path, monkeypatch, POOL)
    assert after == POOL.encode()
    assert "the finding is still reported after the fix" in stderr and "Fixed 0 findings." in stderr


def test_apply_edits_counts_code_points_and_inserts():
    text = "é = 1\nb = 2\n"
    assert apply_edits(text, [Edit("f", 1, 5, 1, 6, "9"), Edit("f", 2, 1, 2, 1, "# c\n")]) == "é = 9\n# c\nb = 2\n"


def test_mixed_line_ends_are_refused():
    with pytest.raises(ValueError):
        FileText("f", b"a\r\nb\n")


def _unloaded(root: Path):
    """A project not loaded: the edits read its files as its run would."""
    from kapsulint.model.options import ScanOptions
    from kapsulint.model.project import Project

    return Project(ScanOptions(root=root, cache=False))


def test_remove_attribute_realigns_the_run(tmp_path):
    from kapsulint.model.edits import remove_attribute
    from kapsulint.model.modules import block_from
    from kapsulint.parsing.hcl import parse_hcl

    text = 'resource "a" "b" {\n  x          = 1\n  long_name  = 2 # note\n  yy         = 3\n}\n'
    path = tmp_path / "main.tf"
    path.write_text(text)
    block = block_from(parse_hcl(text)["body"]["blocks"][0], str(path))
    edit = remove_attribute(_unloaded(tmp_path), block.attr("long_name"))
    assert apply_edits(text, [edit]) == 'resource "a" "b" {\n  x  = 1\n  yy = 3\n}\n'


def test_set_attribute_opens_an_empty_one_line_body(tmp_path):
    from kapsulint.model.edits import set_attribute
    from kapsulint.model.modules import block_from
    from kapsulint.parsing.hcl import parse_hcl

    text = 'resource "a" "b" {}\n'
    path = tmp_path / "main.tf"
    path.write_text(text)
    block = block_from(parse_hcl(text)["body"]["blocks"][0], str(path))
    (edit,) = set_attribute(_unloaded(tmp_path), block, "autohealing", "true")
    assert apply_edits(text, [edit]) == 'resource "a" "b" {\n  autohealing = true\n}\n'


def test_heredoc_lines_do_not_join_a_run(tmp_path):
    from kapsulint.model.edits import scan_lines

    infos = scan_lines(["  a = <<EOT", "  b = 2", "EOT", '  c = "${x}=" # d', "  e = [", "  ]"])
    assert [i.equals for i in infos] == [4, None, None, 4, None, None]
    assert infos[3].comment == 14


# --- the surface ----------------------------------------------------------------------------------


def test_diff_changes_nothing_exits_1_and_applies_with_patch(tmp_path, monkeypatch):
    (tmp_path / "infra").mkdir()
    (tmp_path / "infra" / "main.tf").write_text(POOL)
    (tmp_path / ".kapsulint.toml").write_text("")
    monkeypatch.chdir(tmp_path / "infra")
    result = CliRunner().invoke(main, ["--select", "KAP206", "--diff", "--unsafe-fixes"], catch_exceptions=False)
    assert result.exit_code == 1
    assert (tmp_path / "infra" / "main.tf").read_text() == POOL
    assert result.stdout.startswith("--- a/infra/main.tf\n+++ b/infra/main.tf\n")
    if shutil.which("patch"):
        subprocess.run(["patch", "-p1", "--quiet"], input=result.stdout, text=True, cwd=tmp_path, check=True)
        assert "  autohealing = true\n" in (tmp_path / "infra" / "main.tf").read_text()
        again = CliRunner().invoke(main, ["--select", "KAP206", "--diff", "--unsafe-fixes"], catch_exceptions=False)
        assert again.exit_code == 0 and again.stdout == ""


def test_diff_runs_the_rounds_in_memory(tmp_path, monkeypatch):
    """Two fixes of one block overlap: --diff shows both, as --fix applies them, and writes nothing."""
    (tmp_path / "main.tf").write_text(POOL)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["--select", "KAP201,KAP206", "--diff", "--unsafe-fixes", "."],
                                catch_exceptions=False)
    assert (tmp_path / "main.tf").read_text() == POOL
    assert "+  autohealing = true\n" in result.stdout and "+    create_before_destroy = true\n" in result.stdout
    assert "Would fix 2 findings." in result.stderr
    fixed = CliRunner().invoke(main, ["--select", "KAP201,KAP206", "--fix-only", "--unsafe-fixes", "."],
                               catch_exceptions=False)
    assert fixed.exit_code == 0
    if shutil.which("patch"):
        (tmp_path / "copy").mkdir()
        (tmp_path / "copy" / "main.tf").write_text(POOL)
        subprocess.run(["patch", "-p1", "--quiet"], input=result.stdout, text=True, cwd=tmp_path / "copy", check=True)
        assert (tmp_path / "copy" / "main.tf").read_text() == (tmp_path / "main.tf").read_text()


def test_diff_without_unsafe_fixes_shows_only_safe_ones(tmp_path, monkeypatch):
    (tmp_path / "main.tf").write_text(POOL)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["--select", "KAP206", "--diff", "."], catch_exceptions=False)
    assert result.exit_code == 0 and result.stdout == ""


def test_exit_codes_after_fix_follow_what_is_left(tmp_path, monkeypatch):
    (tmp_path / "main.tf").write_text(POOL)
    monkeypatch.chdir(tmp_path)
    safe_only = CliRunner().invoke(main, ["--select", "KAP201,KAP206", "--fix", "."], catch_exceptions=False)
    assert safe_only.exit_code == 1  # KAP206's fix is unsafe: its finding is left
    assert "KAP206" in safe_only.stdout and "KAP201" not in safe_only.stdout
    fix_only = CliRunner().invoke(main, ["--select", "KAP201,KAP206", "--fix-only", "."], catch_exceptions=False)
    assert fix_only.exit_code == 0 and fix_only.stdout == ""


def test_reports_say_what_is_fixable(tmp_path, monkeypatch):
    (tmp_path / "main.tf").write_text(POOL)
    code, findings, _ = lint(tmp_path, ["--select", "KAP201,KAP206", "."], monkeypatch)
    by_rule = {f["rule"]: f for f in findings}
    assert by_rule["KAP201"]["fixable"] == "safe" and by_rule["KAP206"]["fixable"] == "unsafe"
    (edit,) = by_rule["KAP206"]["edits"]
    assert edit["path"] == "main.tf" and edit["content"].endswith("  autohealing = true\n")
    text = CliRunner().invoke(main, ["--select", "KAP201,KAP206", "."], catch_exceptions=False).stdout
    assert "KAP201 pool-without-create-before-destroy (warning) [*] " in text
    assert "[*] 1 fixable with `kapsulint --fix` (1 more with `--unsafe-fixes`)." in text


def test_sarif_results_carry_fixes(tmp_path, monkeypatch):
    import jsonschema

    (tmp_path / "main.tf").write_text(POOL)
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(main, ["--select", "KAP206", "--format", "sarif", "."], catch_exceptions=False).stdout
    log = json.loads(out)
    schema = json.loads((ROOT / "tests" / "schemas" / "sarif-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.validators.validator_for(schema)(schema).validate(log)
    (result,) = log["runs"][0]["results"]
    (change,) = result["fixes"][0]["artifactChanges"]
    assert change["artifactLocation"]["uri"] == "main.tf"
    assert change["replacements"][0]["insertedContent"]["text"].endswith("  autohealing = true\n")


def test_configuration_keys_choose_and_reclassify_fixes(tmp_path, monkeypatch):
    (tmp_path / "main.tf").write_text(POOL)
    (tmp_path / ".kapsulint.toml").write_text('unfixable = ["KAP201"]\nextend-safe-fixes = ["autohealing-disabled"]\n')
    code, findings, _ = lint(tmp_path, ["--select", "KAP201,KAP206", "."], monkeypatch)
    assert {f["rule"]: f["fixable"] for f in findings} == {"KAP201": None, "KAP206": "safe"}
    (tmp_path / ".kapsulint.toml").write_text('fixable = ["KAP2"]\nextend-unsafe-fixes = ["KAP201"]\n')
    code, findings, _ = lint(tmp_path, ["--select", "KAP201,KAP206", "."], monkeypatch)
    assert {f["rule"]: f["fixable"] for f in findings} == {"KAP201": "unsafe", "KAP206": "unsafe"}
    shown = CliRunner().invoke(main, ["--show-settings", "."], catch_exceptions=False).stdout
    assert "fixable" in shown and "extend-unsafe-fixes" in shown


def test_list_rules_json_says_which_rules_fix():
    rows = json.loads(CliRunner().invoke(main, ["--list-rules", "--format", "json"]).stdout)
    kinds = {row["id"]: row["fixable"] for row in rows}
    assert kinds["KAP201"] == "sometimes" and kinds["KAP003"] == "safe" and kinds["KAP206"] == "unsafe"


def test_pre_commit_fix_hook_is_declared():
    import yaml

    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    fix = hooks["kapsulint-fix"]
    assert "--fix" in fix["args"] and fix["entry"] == hooks["kapsulint"]["entry"]
