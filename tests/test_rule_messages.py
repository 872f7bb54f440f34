"""Rule messages and hints true to the facts: KAP201, KAP202, KAP402, KAP301, KAP312."""

from __future__ import annotations

from fixture_support import FIXTURES, copy_case, lint


def test_kap201_hint_is_the_safe_edit_when_the_name_follows_the_replacement(tmp_path, monkeypatch):
    project = copy_case(FIXTURES / "KAP201" / "fix-name-follows-node-type", tmp_path)
    _, findings, _ = lint(project, ["--select", "KAP201"], monkeypatch)
    assert [f["fix"] for f in findings] == ["add lifecycle { create_before_destroy = true }"]


def test_kap201_hint_drops_the_name_only_where_the_fix_does(tmp_path, monkeypatch):
    project = copy_case(FIXTURES / "KAP201" / "fix-named-pool-drops-name", tmp_path)
    _, findings, _ = lint(project, ["--select", "KAP201"], monkeypatch)
    assert findings and all("drop the fixed name" in f["fix"] for f in findings)


def test_kap202_names_the_replacing_arguments_the_name_misses(tmp_path, monkeypatch):
    project = copy_case(FIXTURES / "KAP202" / "fires-name-from-zone-with-literal-node-type", tmp_path)
    _, findings, _ = lint(project, ["--select", "KAP202"], monkeypatch)
    messages = sorted(f["message"] for f in findings)
    assert len(messages) == 2
    assert "does not change with node_type," in messages[0]
    assert "does not change with root_volume_size_in_gb," in messages[1]


def test_kap402_says_who_can_read_the_file_from_its_mode(tmp_path, monkeypatch):
    owner = copy_case(FIXTURES / "KAP402" / "fires-sensitive-file-owner-only", tmp_path / "owner")
    _, findings, _ = lint(owner, ["--select", "KAP402"], monkeypatch)
    messages = sorted(f["message"] for f in findings)
    assert len(messages) == 2
    assert "readable only by its owner (file_permission 0600)" in messages[0]
    assert "readable only by its owner (its default file_permission 0700)" in messages[1]
    assert not any("other users" in m for m in messages)
    shared = copy_case(FIXTURES / "KAP402" / "fires-sensitive-file-owner-only", tmp_path / "shared")
    text = (shared / "main.tf").read_text(encoding="utf-8")
    text = text.replace('file_permission = "0600"', 'file_permission = "0644"').replace(
        'resource "local_sensitive_file"', 'resource "local_file"')
    (shared / "main.tf").write_text(text, encoding="utf-8")
    _, findings, _ = lint(shared, ["--select", "KAP402"], monkeypatch)
    messages = sorted(f["message"] for f in findings)
    assert "its default file_permission 0777 lets other users of the machine read it" in messages[0]
    assert "where file_permission 0644 lets other users of the machine read it" in messages[1]


def test_kap312_names_a_constraint_written_in_several_modules_once(tmp_path, monkeypatch):
    project = copy_case(FIXTURES / "KAP312" / "set-block-in-child-module", tmp_path)
    for lock in project.rglob(".terraform.lock.hcl"):
        lock.unlink()
    root = (project / "main.tf").read_text(encoding="utf-8").replace('version = ">= 2.12"', 'version = "~> 3.0"')
    (project / "main.tf").write_text(root, encoding="utf-8")
    for child in ("a", "b"):
        folder = project / "modules" / child
        folder.mkdir(parents=True)
        (folder / "versions.tf").write_text(
            'terraform {\n  required_providers {\n    helm = {\n      source  = "hashicorp/helm"\n'
            '      version = "~> 3.0"\n    }\n  }\n}\n', encoding="utf-8")
        with (project / "main.tf").open("a", encoding="utf-8") as handle:
            handle.write(f'\nmodule "{child}" {{\n  source = "./modules/{child}"\n}}\n')
    _, findings, _ = lint(project, ["--select", "KAP312"], monkeypatch)
    assert findings
    for found in findings:
        assert found["message"].count('"~> 3.0"') == 1, found["message"]
