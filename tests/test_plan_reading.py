"""--plan: reading ``terraform show -json`` (the recordings of tests/plans/recorded/), refusing what
is not a plan, binding each change to the block of its address, and KAP018 where the plan does not
match the code."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from fixture_support import lint

from kapsulint.model.plan import (
    PlanError,
    check_document,
    key_text,
    parse_address,
    read_plan,
)
from kapsulint.terraform.values import UNKNOWN

RECORDED = Path(__file__).resolve().parent / "plans" / "recorded"


def recording(name: str) -> dict:
    return json.loads((RECORDED / f"{name}.json").read_text(encoding="utf-8"))


def write(directory: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return directory


# -- reading ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, actions, reason", [
    ("create", [("create",)], [None]),
    ("update", [("update",)], [None]),
    ("no-op", [("no-op",)], [None]),
    ("destroy", [("delete",)], [None]),
    ("replace-delete-then-create", [("delete", "create")], ["replace_because_cannot_update"]),
    ("replace-create-then-delete", [("create", "delete")], ["replace_because_cannot_update"]),
    ("replace-because-tainted", [("delete", "create")], ["replace_because_tainted"]),
    ("replace-by-request", [("delete", "create")], ["replace_by_request"]),
    ("forget", [("forget",)], ["delete_because_no_resource_config"]),
    ("read-because-config-unknown", [("read",), ("create",)], ["read_because_config_unknown", None]),
])
def test_actions_and_reasons_as_recorded(name, actions, reason):
    plan = read_plan(str(RECORDED / f"{name}.json"))
    assert [c.actions for c in plan.changes] == actions
    assert [c.reason for c in plan.changes] == reason
    assert plan.format_version == "1.2" and plan.terraform_version == "1.11.4"
    assert plan.timestamp is not None and plan.timestamp.tzinfo is not None


def test_replacements_say_which_object_comes_first_and_what_forces_them():
    first = read_plan(str(RECORDED / "replace-delete-then-create.json")).changes[0]
    second = read_plan(str(RECORDED / "replace-create-then-delete.json")).changes[0]
    assert first.is_replacement and first.create_before_destroy is False and first.deletes and first.creates
    assert second.is_replacement and second.create_before_destroy is True
    assert first.replace_paths == (("triggers_replace",),) and first.replacing_arguments == ("triggers_replace",)
    tainted = read_plan(str(RECORDED / "replace-because-tainted.json")).changes[0]
    assert tainted.is_replacement and tainted.replace_paths == ()


def test_after_unknown_is_unknown_and_sensitive_values_are_marked():
    create = read_plan(str(RECORDED / "create.json")).changes[0]
    assert create.before.is_null
    assert create.after.get("id").raw is UNKNOWN and create.after.get("input").raw == "apps"
    change = read_plan(str(RECORDED / "sensitive.json")).changes[0]
    assert change.before.path("input", "token").sensitive and change.after.path("input", "token").sensitive
    assert not change.after.path("input", "host").sensitive
    assert change.after.get("output").raw is UNKNOWN


def test_deposed_moved_and_module_keys():
    deposed = read_plan(str(RECORDED / "deposed.json")).changes
    assert [c.deposed is not None for c in deposed] == [False, True]
    moved = read_plan(str(RECORDED / "moved.json")).changes[0]
    assert moved.previous_address is not None and moved.previous_address.text == "terraform_data.old"
    keyed = read_plan(str(RECORDED / "module-keys.json")).changes[0]
    assert keyed.address.modules[0].name == "pools" and keyed.address.modules[0].key == "a"
    assert keyed.address.key == 0 and keyed.address.block == "terraform_data.this"
    assert keyed.address.text == keyed.text == 'module.pools["a"].terraform_data.this[0]'


def test_prior_state_and_configuration_are_read():
    plan = read_plan(str(RECORDED / "delete-because-no-module.json"))
    gone = next(c for c in plan.changes if c.reason == "delete_because_no_module")
    assert plan.prior(gone.address).get("input").raw == "b"
    assert plan.configuration_blocks == {(("pools",), "terraform_data.this")}
    assert plan.configuration_modules == {(), ("pools",)}


def test_each_change_is_located_at_its_address_in_the_plan_file(tmp_path):
    for name in ("delete-because-no-module", "read-because-check-nested"):
        text = (RECORDED / f"{name}.json").read_text(encoding="utf-8")
        plan = read_plan(str(RECORDED / f"{name}.json"))
        lines = text.splitlines()
        for change in plan.changes:
            loc = change.loc
            assert lines[loc.line - 1][loc.column - 1:loc.end_column - 1] == json.dumps(change.text)
    minified = tmp_path / "plan.json"
    minified.write_text(json.dumps(recording("delete-because-each-key"), separators=(",", ":")))
    plan = read_plan(str(minified))
    text = minified.read_text()
    for change in plan.changes:
        assert change.loc.line == 1
        assert text[change.loc.column - 1:change.loc.end_column - 1] == json.dumps(change.text)


@pytest.mark.parametrize("text", [
    'aws_instance.web',
    'data.scaleway_k8s_version.latest',
    'scaleway_k8s_pool.this[3]',
    'module.pools["a"].scaleway_k8s_pool.this[0]',
    'module.a[0].module.b["x y"].helm_release.ingress',
    'module.a["quote\\"back\\\\slash"].x.y["tab\\there"]',
    'module.a["$${literal}"].x.y',
    'module.a["\\u00e9t\\u00e9"].x.y',
])
def test_addresses_round_trip(text):
    address = parse_address(text)
    assert address is not None
    if "\\u" not in text:
        assert address.text == text
    assert parse_address(address.text) == address


def test_keys_are_quoted_as_terraform_quotes_them():
    assert key_text("a\"b\\c\n") == '["a\\"b\\\\c\\n"]'
    assert key_text("${x}") == '["$${x}"]'
    assert key_text("été") == '["été"]'
    assert key_text(2) == "[2]" and key_text(None) == ""


@pytest.mark.parametrize("text", ["", "module.x", "x", "module..y.z", 'x.y["unterminated]', "x.y[-1]",
                                  'x.y["\\q"]', "data.x", "module.a[0]x.y"])
def test_not_addresses(text):
    assert parse_address(text) is None


# -- what is not a plan ---------------------------------------------------------------------------


def _state_json() -> dict:
    prior = recording("update")["prior_state"]
    return {"format_version": prior["format_version"], "terraform_version": "1.11.4", "values": prior["values"]}


@pytest.mark.parametrize("content, says", [
    (b"not json at all", "is not JSON"),
    (b"\xff\xfe\x00", "is not UTF-8"),
    (b"[1, 2]", "is not an object"),
    (b'{"version": 4, "serial": 3, "lineage": "x", "resources": []}', "a state file"),
    (json.dumps(_state_json()).encode(), "the JSON of a state"),
    (b'{"format_version": "1.2"}', "not the JSON of a plan"),
    (b'{"resource_changes": []}', "without format_version"),
    (b"[" * 100_000 + b"]" * 100_000, "is not JSON"),
    (b'{"format_version": "1.2", "resource_changes": {}}', "resource_changes is not a list"),
])
def test_what_is_not_a_plan_is_refused_by_name(tmp_path, content, says):
    path = tmp_path / "mystery.json"
    path.write_bytes(content)
    with pytest.raises(PlanError) as raised:
        read_plan(str(path), "mystery.json")
    assert '"mystery.json"' in str(raised.value) and says in str(raised.value)


@pytest.mark.parametrize("version, says", [
    ("2.0", "plan format 2.0 is not supported"),
    ("0.1", "plan format 0.1 (Terraform 1.0 and older) is not supported"),
    ("one", "is not a version of the plan format"),
])
def test_a_format_it_does_not_know_is_refused_naming_the_version(version, says):
    with pytest.raises(PlanError) as raised:
        check_document({**recording("create"), "format_version": version}, '"plan.json"')
    assert says in str(raised.value)


def test_a_newer_minor_is_read():
    check_document({**recording("create"), "format_version": "1.9"}, '"plan.json"')


def test_hostile_numbers_and_depth_stay_values(tmp_path):
    plan = recording("create")
    plan["resource_changes"][0]["change"]["after"]["input"] = {"big": 1e308, "deep": []}
    text = json.dumps(plan).replace("1e+308", "1e999999").replace('"deep": []', '"deep": ' + "[" * 200 + "]" * 200)
    path = tmp_path / "plan.json"
    path.write_text(text)
    change = read_plan(str(path)).changes[0]
    assert change.after.path("input", "big").raw == float("inf")
    deep = change.after.path("input", "deep")
    for _ in range(70):
        if not deep.known:
            break
        deep = deep.raw[0]
    assert not deep.known


def test_a_fifo_is_not_read(tmp_path):
    fifo = tmp_path / "plan.json"
    os.mkfifo(fifo)
    with pytest.raises(PlanError) as raised:
        read_plan(str(fifo))
    assert "cannot read plan" in str(raised.value)


# -- the command line -------------------------------------------------------------------------------

MODULE_KEYS = {
    "main.tf": 'module "pools" {\n  source   = "./pools"\n  for_each = toset(["a"])\n  name     = each.key\n}\n',
    "pools/main.tf": 'variable "name" {}\n\nresource "terraform_data" "this" {\n  count            = 1\n'
                     '  triggers_replace = "${var.name}-PRO2-M"\n}\n',
}


def test_cli_refuses_what_is_not_a_plan_with_exit_2(tmp_path, monkeypatch):
    project = write(tmp_path, {**MODULE_KEYS, "notes.json": '{"hello": "world"}'})
    code, findings, stderr = lint(project, ["--plan", "notes.json"], monkeypatch)
    assert code == 2 and findings == []
    assert '"notes.json" is not a plan' in stderr


def test_cli_refuses_an_unknown_major_naming_it(tmp_path, monkeypatch):
    project = write(tmp_path, MODULE_KEYS)
    (project / "plan.json").write_text(json.dumps({**recording("module-keys"), "format_version": "3.1"}))
    code, _, stderr = lint(project, ["--plan", "plan.json"], monkeypatch)
    assert code == 2 and "plan format 3.1 is not supported" in stderr


def test_cli_refuses_a_missing_plan(tmp_path, monkeypatch):
    project = write(tmp_path, MODULE_KEYS)
    code, _, stderr = lint(project, ["--plan", "absent.json"], monkeypatch)
    assert code == 2 and 'cannot read plan "absent.json"' in stderr


def test_a_plan_that_matches_binds_every_change(tmp_path, monkeypatch):
    project = write(tmp_path, MODULE_KEYS)
    (project / "plan.json").write_text(json.dumps(recording("module-keys")))
    code, findings, stderr = lint(project, ["--plan", "plan.json", "--select", "KAP018"], monkeypatch)
    assert (code, findings) == (0, []), stderr


def test_a_plan_of_another_configuration_exits_2(tmp_path, monkeypatch):
    project = write(tmp_path, {"main.tf": 'resource "terraform_data" "other" {\n  input = 1\n}\n'})
    (project / "plan.json").write_text(json.dumps(recording("module-keys")))
    code, findings, stderr = lint(project, ["--plan", "plan.json"], monkeypatch)
    assert code == 2 and findings == []
    assert "plan.json does not match the configuration at .:" in stderr
    assert 'module.pools["a"].terraform_data.this[0]' in stderr


def test_a_plan_partly_of_other_code_gives_kap018_at_each_side(tmp_path, monkeypatch):
    files = dict(MODULE_KEYS)
    files["main.tf"] += 'resource "terraform_data" "added" {\n  input = 1\n}\n'
    files["pools/main.tf"] += 'resource "terraform_data" "also_added" {\n  input = 2\n}\n'
    project = write(tmp_path, files)
    plan = recording("module-keys")
    extra = json.loads(json.dumps(plan["resource_changes"][0]))
    extra["address"] = 'module.pools["a"].terraform_data.renamed[0]'
    extra["name"] = "renamed"
    plan["resource_changes"].append(extra)
    (project / "plan.json").write_text(json.dumps(plan, indent=2))
    code, findings, stderr = lint(project, ["--plan", "plan.json", "--select", "KAP018"], monkeypatch)
    assert code == 1, stderr
    got = sorted((f["path"], f["line"], f["subject"] if "subject" in f else f["message"][:40]) for f in findings)
    places = sorted((f["path"], f["line"]) for f in findings)
    text = (project / "plan.json").read_text().splitlines()
    renamed_line = next(i for i, line in enumerate(text, 1) if '"address": "module.pools[\\"a\\"].terraform_data.renamed[0]"' in line)
    assert places == sorted([("main.tf", 6), ("plan.json", renamed_line), ("pools/main.tf", 7)]), got
    renamed = next(f for f in findings if f["path"] == "plan.json")
    assert "defines no terraform_data.renamed" in renamed["message"]
    assert renamed["related"][0]["path"] == "main.tf" and renamed["related"][0]["line"] == 1


def test_a_deleted_block_is_not_a_mismatch(tmp_path, monkeypatch):
    project = write(tmp_path, {"main.tf": 'resource "terraform_data" "kept" {\n  input = "x"\n}\n'})
    (project / "plan.json").write_text(json.dumps(recording("delete")))
    code, findings, stderr = lint(project, ["--plan", "plan.json", "--select", "KAP018"], monkeypatch)
    assert (code, findings) == (0, []), stderr


def test_path_selects_the_root_module_the_plan_was_made_in(tmp_path, monkeypatch):
    project = write(tmp_path, {
        **{f"prod/{name}": text for name, text in MODULE_KEYS.items()},
        "prod/providers.tf": "terraform {\n  required_version = \">= 1.5\"\n}\n",
        "staging/main.tf": 'resource "terraform_data" "staging" {\n  input = 1\n}\n',
    })
    (project / "plan.json").write_text(json.dumps(recording("module-keys")))
    assert lint(project, ["--plan", "plan.json", "--select", "KAP018", "prod"], monkeypatch)[:2] == (0, [])
    code, _, stderr = lint(project, ["--plan", "plan.json", "--select", "KAP018", "staging"], monkeypatch)
    assert code == 2 and "does not match the configuration at staging" in stderr
    # The repository's root holds no module: the one root module the plan names is chosen.
    assert lint(project, ["--plan", "plan.json", "--select", "KAP018"], monkeypatch)[:2] == (0, [])


def test_findings_in_a_plan_outside_the_repository_and_gitignored_are_reported_without_source(tmp_path, monkeypatch):
    files = dict(MODULE_KEYS)
    files[".gitignore"] = "*.json\n"
    project = write(tmp_path / "repo", files)
    (project / ".git").mkdir()
    plan = recording("module-keys")
    plan["resource_changes"][0]["address"] = 'module.pools["a"].terraform_data.gone[0]'
    plan["resource_changes"][0]["name"] = "gone"
    plan["resource_changes"].append(json.loads(json.dumps(plan["resource_changes"][0])))
    plan["resource_changes"][1]["address"] = 'module.pools["a"].terraform_data.this[0]'
    plan["resource_changes"][1]["name"] = "this"
    plan["resource_changes"][0]["change"]["after"]["input"] = "secret-value-in-clear"
    outside = tmp_path / "elsewhere" / "plan.json"
    outside.parent.mkdir()
    outside.write_text(json.dumps(plan, indent=2))
    inside = project / "plan.json"
    inside.write_text(json.dumps(plan, indent=2))
    for given in (str(outside), "plan.json"):
        code, findings, stderr = lint(project, ["--plan", given, "--select", "KAP018"], monkeypatch)
        assert code == 1, stderr
        assert [f["rule"] for f in findings] == ["KAP018"]
        monkeypatch.chdir(project)
        from click.testing import CliRunner

        from kapsulint.cli.command import main

        text = CliRunner().invoke(main, ["--plan", given, "--select", "KAP018"]).stdout
        assert "KAP018" in text and "secret-value-in-clear" not in text and '"address"' not in text


def test_the_configuration_key_plan(tmp_path, monkeypatch):
    project = write(tmp_path, {**MODULE_KEYS, ".kapsulint.toml": 'plan = "plans/plan.json"\n'})
    (project / "plans").mkdir()
    (project / "plans" / "plan.json").write_text(json.dumps(recording("module-keys")))
    (project / "main.tf").write_text(MODULE_KEYS["main.tf"] + 'resource "terraform_data" "added" {\n}\n')
    code, findings, stderr = lint(project, ["--select", "KAP018"], monkeypatch)
    assert code == 1 and [(f["path"], f["line"]) for f in findings] == [("main.tf", 6)], stderr
    (project / ".kapsulint.toml").write_text('plan = "../outside.json"\n')
    code, _, stderr = lint(project, [], monkeypatch)
    assert code == 2 and "`plan` '../outside.json'" in stderr


def _scenarios():
    import sys

    sys.path.insert(0, str(RECORDED.parent))
    try:
        import record
    finally:
        sys.path.pop(0)
    return record.SCENARIOS


@pytest.mark.parametrize("scenario", _scenarios(), ids=lambda s: s.name)
def test_every_recording_binds_to_the_code_it_was_made_of(tmp_path, monkeypatch, scenario):
    """Each recorded plan, linted with the configuration Terraform planned it from, matches: every
    change is bound (or gone from the code, as the plan says) and no block is missing from it."""
    from kapsulint.model.plan_binding import ABSENT, UNREAD, bind_plan
    from kapsulint.model.options import ScanOptions
    from kapsulint.model.project import Project

    project_dir = write(tmp_path / "project", dict(scenario.after))
    code, findings, stderr = lint(project_dir, ["--plan", str(RECORDED / f"{scenario.name}.json"),
                                                "--select", "KAP018"], monkeypatch)
    assert (code, findings) == (0, []), stderr
    plan = read_plan(str(RECORDED / f"{scenario.name}.json"))
    loaded = Project(ScanOptions(project_dir, cache=False)).load()
    binding = bind_plan(loaded, plan, project_dir)
    assert all(b.status not in (ABSENT, UNREAD) for b in binding.changes)
    for bound in binding.changes:
        if not bound.change.configuration_gone and bound.change.deposed is None:
            assert bound.block is not None, bound


def _hostile_plans() -> list[tuple[str, dict]]:
    base = json.loads((RECORDED.parents[1].parent / "fixtures" / "KAP603" / "fires-cni-change" / "plan.json").read_text())

    def edited(edit) -> dict:
        document = json.loads(json.dumps(base))
        edit(document)
        return document

    def each_change(edit):
        return lambda d: [edit(c) for c in d["resource_changes"]]

    return [
        ("before a string", edited(each_change(lambda c: c["change"].update(before="a string")))),
        ("after a list", edited(each_change(lambda c: c["change"].update(after=[1, 2, 3])))),
        ("masks of the wrong shape", edited(each_change(lambda c: c["change"].update(
            after_unknown="yes", before_sensitive=[True], after_sensitive={"name": {"deep": [True]}})))),
        ("replace paths of anything", edited(each_change(lambda c: c["change"].update(
            replace_paths=[[0], [], "x", [{"a": 1}], [True], ["cni", 99, "x"]])))),
        ("unknown actions and reasons", edited(each_change(lambda c: (c["change"].update(actions=["delete", "delete"]),
                                                                      c.update(action_reason="because")))),),
        ("indexes and keys of every kind", edited(each_change(lambda c: c.update(index=True, deposed=7,
                                                                                 previous_address="not an address")))),
        ("values of every type", edited(each_change(lambda c: c["change"].update(before={
            "name": ["x"], "version": {"a": 1}, "type": 12, "created_at": "yesterday", "cni": None,
            "delete_additional_resources": "maybe", "id": 3.5, "cluster_id": False, "node_type": {"x": None}})))),
        ("a timestamp that is not one", {**base, "timestamp": "soon"}),
        ("prior state and configuration of the wrong shape", {**base, "prior_state": {"values": {"root_module": {
            "resources": ["x", {"address": 5}], "child_modules": "no"}}}, "configuration": {"root_module": {
            "resources": [1, {"address": None}], "module_calls": {"m": "n", "k": {"module": []}}}}}),
        ("deep module addresses", edited(lambda d: d["resource_changes"].append(
            {**d["resource_changes"][0], "address": "module.a." * 500 + "scaleway_k8s_pool.x"}))),
        ("entries that are not changes", {**base, "resource_changes": [1, "x", None, {"address": "x.y"},
                                                                       {"address": "x.y", "change": {"actions": [1]}}]}),
    ]


@pytest.mark.parametrize("what, document", _hostile_plans(), ids=lambda x: x if isinstance(x, str) else "")
def test_hostile_plans_never_crash(tmp_path, monkeypatch, what, document):
    import shutil

    project_dir = shutil.copytree(RECORDED.parents[1].parent / "fixtures" / "KAP603" / "fires-cni-change",
                                  tmp_path / "case")
    (project_dir / "plan.json").write_text(json.dumps(document))
    code, findings, stderr = lint(project_dir, ["--plan", "plan.json"], monkeypatch)
    assert code in (0, 1, 2), stderr
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr
    if code == 2:
        assert stderr.startswith("kapsulint: error:"), stderr
