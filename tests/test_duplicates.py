"""A block defined twice in a module (KAP006) is judged on its own: every definition gets its own
instances, findings at its own positions and fingerprints of its own; references still resolve to
the first definition."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from fixture_support import lint

PROJECT = Path(__file__).parent / "projects" / "duplicate-definitions"
RULES = ["--select", "KAP006,KAP101,KAP104,KAP107"]


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "project"
    shutil.copytree(PROJECT, target)
    return target


def test_the_second_definition_is_judged_at_its_own_positions(tmp_path, monkeypatch):
    """The second ``scaleway_k8s_cluster.main`` deletes its resources, has an unsupported CNI and
    no private network; the first is correct. Before, the second block shared the first's
    instances (cached by address) and only KAP006 was reported."""
    project = _copy(tmp_path)
    code, findings, stderr = lint(project, RULES, monkeypatch)
    assert code == 1, stderr
    got = sorted((f["rule"], f["line"], f["column"]) for f in findings)
    assert got == [("KAP006", 20, 1), ("KAP101", 25, 33), ("KAP104", 20, 1), ("KAP107", 24, 33)]


def test_references_resolve_to_the_first_definition(tmp_path, monkeypatch):
    """``scaleway_k8s_cluster.main`` (the pool's ``cluster_id``, ``--eval``) is the first block."""
    from click.testing import CliRunner

    from kapsulint.cli.command import main

    monkeypatch.chdir(_copy(tmp_path))
    out = CliRunner().invoke(main, ["--eval", "scaleway_k8s_cluster.main.cni", "."]).stdout
    assert json.loads(out.splitlines()[0])["value"] == "cilium"


def _both_bad(project: Path, first: bool, second: bool) -> None:
    text = (PROJECT / "main.tf").read_text(encoding="utf-8")
    head, tail = text.split("# The same address again", 1)
    head = head.replace("delete_additional_resources = false", f"delete_additional_resources = {str(first).lower()}")
    tail = tail.replace("delete_additional_resources = true", f"delete_additional_resources = {str(second).lower()}")
    (project / "main.tf").write_text(head + "# The same address again" + tail, encoding="utf-8")


def test_two_definitions_never_share_a_fingerprint(tmp_path, monkeypatch):
    """A baseline that recorded the second block's KAP101 does not hide the first block's once
    the second is fixed and the first broken: each block's finding has its own identity, not an
    ordinal among twins."""
    project = _copy(tmp_path)
    _both_bad(project, first=False, second=True)
    baseline = tmp_path / "baseline.json"
    code, _, stderr = lint(project, ["--select", "KAP101", "--write-baseline", str(baseline)], monkeypatch)
    assert code == 0, stderr
    _both_bad(project, first=True, second=False)
    _, findings, _ = lint(project, ["--select", "KAP101", "--baseline", str(baseline)], monkeypatch)
    assert [(f["rule"], f["line"]) for f in findings] == [("KAP101", 16)]
    _both_bad(project, first=True, second=True)
    _, both, _ = lint(project, ["--select", "KAP101"], monkeypatch)
    assert sorted(f["line"] for f in both) == [16, 25]
    _, new, _ = lint(project, ["--select", "KAP101", "--baseline", str(baseline)], monkeypatch)
    assert [f["line"] for f in new] == [16]


def test_sarif_fingerprints_of_the_two_blocks_differ(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from kapsulint.cli.command import main

    project = _copy(tmp_path)
    _both_bad(project, first=True, second=True)
    monkeypatch.chdir(project)
    out = CliRunner().invoke(main, ["--format", "sarif", "--select", "KAP101", "."]).stdout
    results = json.loads(out)["runs"][0]["results"]
    prints = [r["partialFingerprints"]["kapsulint/v1"] for r in results]
    assert len(prints) == 2 and len(set(prints)) == 2 and not any(":" in p for p in prints)
