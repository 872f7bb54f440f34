"""The generic fixture test: each case, linted with its folder's rule, gives exactly its markers."""

from __future__ import annotations

import pytest
from fixture_support import FILE_RULES, case_config, cases, copy_case, expected, lint, observed


@pytest.mark.parametrize("case", cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fixture_case(case, tmp_path, monkeypatch):
    rule = case.parent.name
    config = case_config(case)
    project = copy_case(case, tmp_path)
    from kapsulint.lint.registry import by_id

    engine = [r for r in FILE_RULES if r != rule and r in by_id()]
    selection = ",".join([rule, *engine])
    code, findings, stderr = lint(project, ["--select", selection, *config.get("args", [])], monkeypatch,
                                  config.get("env"))
    assert code in ((config["exit"],) if "exit" in config else (0, 1)), stderr
    want = expected(case)
    assert observed(findings, want) == want, stderr


def test_every_rule_has_firing_and_silent_cases():
    from kapsulint.lint.registry import all_rules

    by_rule: dict[str, list] = {}
    for case in cases():
        by_rule.setdefault(case.parent.name, []).append(bool(expected(case)))
    for rule in all_rules():
        if rule.id in ("KAP002", "KAP003", "KAP004", "KAP005", "KAP008") and rule.id not in by_rule:
            continue
        assert rule.id in by_rule, f"{rule.id} has no fixtures"
        assert any(by_rule[rule.id]), f"{rule.id} has no firing case"
        if rule.id not in FILE_RULES:
            assert not all(by_rule[rule.id]), f"{rule.id} has no silent case"
