"""Cases where a rule reports its finding but must not offer a fix (``fixtures/KAP*/no-fix-*``):
the value is shared with other readers, computed, or the fix would be the author's choice."""

from __future__ import annotations

import pytest
from fixture_support import FIXTURES, case_config, copy_case, expected, lint


def no_fix_cases():
    return sorted(p for p in FIXTURES.glob("KAP*/no-fix-*") if p.is_dir())


@pytest.mark.parametrize("case", no_fix_cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_finding_kept_without_a_fix(case, tmp_path, monkeypatch):
    rule = case.parent.name
    project = copy_case(case, tmp_path)
    code, findings, stderr = lint(project, ["--select", rule, *case_config(case).get("args", [])], monkeypatch)
    assert code in (0, 1), stderr
    own = [f for f in findings if f["rule"] == rule]
    assert len(own) == sum(n for (_, _, r, _), n in expected(case).items() if r == rule), own
    assert own and all(f.get("fixable") is None and not f.get("edits") for f in own), own
