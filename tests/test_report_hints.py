"""What the text report and GitHub annotations tell a user besides the finding itself."""

from __future__ import annotations

from kapsulint.findings import Finding, Loc, Related, Severity
from kapsulint.reporters import ReportContext, render


def _finding(tmp_path, **kwargs) -> Finding:
    return Finding(Loc(str(tmp_path / "main.tf"), 3, 5, 3, 9), "pool replaced destroy-first", rule="KAP201",
                   name="pool-without-create-before-destroy", severity=Severity.WARNING, logical="p", **kwargs)


def _context(tmp_path) -> ReportContext:
    return ReportContext(rules=[], cwd=str(tmp_path), repo_root=str(tmp_path), version="0.1.0")


def test_text_summary_points_to_explain(tmp_path):
    text = render("text", [_finding(tmp_path)], _context(tmp_path))
    assert text.endswith("Found 1 finding (1 warning).\n"
                         "Run `kapsulint --explain ID` for a rule's documentation, as in `kapsulint --explain KAP201`.\n")
    assert render("text", [], _context(tmp_path)) == "No findings.\n"


def test_github_annotation_carries_the_fix(tmp_path):
    finding = _finding(tmp_path, fix="add lifecycle { create_before_destroy = true }",
                       related=(Related(Loc(str(tmp_path / "v.tf"), 1, 1, 1, 2), "set here"),))
    (line,) = render("github", [finding], _context(tmp_path)).splitlines()
    assert line.endswith("::pool replaced destroy-first%0A%0AFix: add lifecycle { create_before_destroy = true }")
    assert render("github", [_finding(tmp_path)], _context(tmp_path)).endswith("::pool replaced destroy-first\n")
