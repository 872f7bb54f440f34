"""The generic fixture test: each case, linted with its folder's rule, gives exactly its markers,
and every finding, whole, is the one its snapshot (``findings.snap``) holds."""

from __future__ import annotations

import pytest
from fixture_support import (
    FILE_RULES,
    SNAPSHOT,
    UPDATE_COMMAND,
    case_config,
    cases,
    expected,
    observed,
    own_rule_run,
    snapshot_places,
    snapshot_text,
)


@pytest.mark.parametrize("case", cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fixture_case(case, tmp_path_factory, monkeypatch, update_snapshots):
    config = case_config(case)
    run = own_rule_run(case, tmp_path_factory, monkeypatch)
    assert run.code in ((config["exit"],) if "exit" in config else (0, 1)), run.stderr
    want = expected(case)
    assert observed(run.findings, want) == want, run.stderr
    snapshot = case / SNAPSHOT
    text = snapshot_text(case, run)
    if update_snapshots:
        if not snapshot.exists() or snapshot.read_text(encoding="utf-8") != text:
            snapshot.write_text(text, encoding="utf-8", newline="\n")
        return
    assert snapshot.exists(), f"{case.relative_to(case.parents[1])} has no {SNAPSHOT}; write it with: {UPDATE_COMMAND}"
    assert snapshot.read_text(encoding="utf-8") == text, (
        f"the findings differ from {SNAPSHOT} (the diff above); if the change is intended: {UPDATE_COMMAND}")


@pytest.mark.parametrize("case", cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_snapshot_agrees_with_markers(case):
    """The `# expect:` markers are the snapshot's readable summary: the places they give are the
    places of the findings the snapshot holds, whatever the last run was."""
    snapshot = case / SNAPSHOT
    assert snapshot.exists(), f"{case.relative_to(case.parents[1])} has no {SNAPSHOT}; write it with: {UPDATE_COMMAND}"
    want = expected(case)
    assert snapshot_places(snapshot.read_text(encoding="utf-8"), want) == want


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
