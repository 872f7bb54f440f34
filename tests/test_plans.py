"""The plan format as Terraform writes it: the recordings of ``tests/plans/recorded/`` (made by
``tests/plans/record.py`` from ``terraform_data`` resources) and every fixture plan validate against
the JSON Schema of ``tests/schemas/terraform-plan.json``; the recordings cover every action list and
every action reason of the format; the KAP6xx fixture plans are what ``tests/plans/fixture_plans.py``
builds."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "tests" / "schemas" / "terraform-plan.json").read_text(encoding="utf-8"))
RECORDED = sorted((ROOT / "tests" / "plans" / "recorded").glob("*.json"))
FIXTURE_PLANS = sorted((ROOT / "fixtures").glob("KAP*/*/plan.json"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def _errors(path: Path) -> list[str]:
    plan = json.loads(path.read_text(encoding="utf-8"))
    return [f"{'/'.join(str(p) for p in error.absolute_path)}: {error.message}" for error in VALIDATOR.iter_errors(plan)]


def test_the_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", RECORDED, ids=lambda p: p.stem)
def test_every_recording_validates(path):
    assert _errors(path) == []


@pytest.mark.parametrize("path", FIXTURE_PLANS, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}")
def test_every_fixture_plan_validates(path):
    assert _errors(path) == []


def test_every_plan_rule_has_fixture_plans():
    from kapsulint.lint.registry import all_rules

    with_plans = {p.parent.parent.name for p in FIXTURE_PLANS}
    plan_rules = {r.id for r in all_rules() if r.family == "plan"} | {"KAP018"}
    assert len(plan_rules) >= 10 and plan_rules <= with_plans


def test_the_fixture_plans_are_what_the_builder_builds():
    import sys

    sys.path.insert(0, str(ROOT / "tests" / "plans"))
    try:
        import fixture_plans
    finally:
        sys.path.pop(0)
    built = {case: fixture_plans.text(document) for case, document in fixture_plans.CASES.items()}
    committed = {f"{p.parent.parent.name}/{p.parent.name}": p.read_text(encoding="utf-8")
                 for p in FIXTURE_PLANS if p.parent.parent.name.startswith("KAP6")}
    assert built == committed


def test_the_recordings_cover_every_action_and_reason():
    actions = {tuple(a) for a in SCHEMA["$defs"]["actions"]["enum"]}
    reasons = set(SCHEMA["$defs"]["action_reason"]["enum"])
    seen_actions, seen_reasons = set(), set()
    for path in RECORDED:
        plan = json.loads(path.read_text(encoding="utf-8"))
        assert plan["terraform_version"] == "1.11.4" and plan["format_version"] == "1.2", path.name
        for change in plan.get("resource_changes", []):
            seen_actions.add(tuple(change["change"]["actions"]))
            if "action_reason" in change:
                seen_reasons.add(change["action_reason"])
    # ["create", "forget"] is planned by Terraform Stacks only, never by `terraform plan`.
    assert seen_actions == actions - {("create", "forget")}
    assert seen_reasons == reasons


def test_the_schema_refuses_what_kapsulint_would_misread():
    plan = json.loads((ROOT / "tests" / "plans" / "recorded" / "replace-delete-then-create.json").read_text())
    change = plan["resource_changes"][0]
    broken = [
        ("actions", {**change, "change": {**change["change"], "actions": ["replace"]}}),
        ("reason", {**change, "action_reason": "replace_because_i_said_so"}),
        ("address", {**change, "address": "terraform_data"}),
        ("paths", {**change, "change": {**change["change"], "replace_paths": [[]]}}),
        ("create with before", {**change, "change": {**change["change"], "actions": ["create"]}}),
        ("unknown key", {**change, "adress": "x.y"}),
    ]
    for what, item in broken:
        errors = list(VALIDATOR.iter_errors({**plan, "resource_changes": [item]}))
        assert errors, what
    assert list(VALIDATOR.iter_errors({**plan, "format_version": "2.0"}))
