"""The language server's parts that an editor session cannot reach on purpose: a lint that fails
inside kapsulint, which arguments start the server rather than a lint of a path named server, and
what a compaction (the collection after a large lint) rebuilds."""

from __future__ import annotations

import os

from click.testing import CliRunner

from kapsulint.cli.command import main, server_requested
from kapsulint.cli.server import folders
from kapsulint.cli.server.protocol import judge

POOL = """\
resource "scaleway_k8s_pool" "apps" {
  cluster_id  = "fr-par/11111111-1111-1111-1111-111111111111"
  node_type   = "PRO2-M"
  size        = 3
  autohealing = true
}
"""


def test_a_lint_that_fails_is_kap008_on_the_open_buffers_and_a_log_message(tmp_path, monkeypatch):
    (tmp_path / "pools.tf").write_text(POOL, encoding="utf-8")
    path = os.path.realpath(tmp_path / "pools.tf")

    def broken_run(settings, reads=None, by_parts=None):
        raise RuntimeError("a bug met while linting")

    monkeypatch.setattr("kapsulint.lint.runner.run", broken_run)
    judgement, message, shown = judge(folders.Folder(str(tmp_path)), {path: POOL})
    [finding] = judgement.findings[path]
    assert (finding.rule, finding.loc.line, finding.loc.column) == ("KAP008", 1, 1)
    assert "a bug met while linting" in finding.message
    assert "internal error" in message and "a bug met while linting" in message and not shown


def test_settings_that_cannot_be_used_are_a_message_shown_and_no_judgement(tmp_path):
    folder = folders.Folder(str(tmp_path), settings={"select": "KAP9999"})
    judgement, message, shown = judge(folder, {})
    assert judgement is None and shown
    assert "KAP9999" in message


def test_unsaved_buffers_are_read_in_place_of_the_files_only_during_the_lint(tmp_path):
    (tmp_path / "pools.tf").write_text(POOL, encoding="utf-8")
    path = os.path.realpath(tmp_path / "pools.tf")
    folder = folders.Folder(str(tmp_path))
    assert [f.rule for f in folder.lint({}).findings[path]] == ["KAP201"]
    fixed = POOL.replace("autohealing = true\n", "autohealing = true\n\n  lifecycle {\n    create_before_destroy = true\n  }\n")
    assert path not in folder.lint({path: fixed}).findings
    assert [f.rule for f in folder.lint({}).findings[path]] == ["KAP201"]  # the overlay ended with the lint


def test_client_settings_take_camel_case_and_name_unknown_keys():
    settings, unknown = folders.client_settings({"settings": {"unsafeFixes": True, "extendSelect": ["KAP2"],
                                                              "colour": "red"}})
    assert settings == {"unsafe-fixes": True, "extend-select": ["KAP2"]}
    assert unknown == ["colour"]


def test_server_is_the_language_server_unless_a_path_of_that_name_exists(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert server_requested(["server"])
    assert server_requested(["server", "--stdio"])
    assert not server_requested(["server", "--format", "json"])  # a lint option: a lint of PATH server
    assert not server_requested(["./server"])
    (tmp_path / "server").mkdir()
    assert not server_requested(["server"])
    assert server_requested(["server", "--stdio"])


def test_kapsulint_server_lints_a_directory_named_server(tmp_path, monkeypatch):
    (tmp_path / "server").mkdir()
    (tmp_path / "server" / "pools.tf").write_text(POOL, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["server"], catch_exceptions=False)
    assert result.exit_code == 1
    assert "server/pools.tf:1:1: KAP201" in result.output


def test_server_help_names_stdio(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["server", "--help"], catch_exceptions=False)
    assert result.exit_code == 0
    assert "--stdio" in result.output and "language server" in result.output


KAP201_APPS = ("scaleway_k8s_pool.apps has no lifecycle { create_before_destroy = true }: a change to node_type, "
               "zone or another replacing argument deletes its nodes before the new pool exists")


def two_roots(top) -> tuple[str, str]:
    """Two root modules that share nothing, each with a pool KAP201 reports: the real paths."""
    for name in ("blue", "green"):
        (top / name).mkdir()
        (top / name / "pools.tf").write_text(POOL, encoding="utf-8")
    return os.path.realpath(top / "blue" / "pools.tf"), os.path.realpath(top / "green" / "pools.tf")


def findings_of(judgement) -> dict[str, list[tuple]]:
    return {path: [(f.rule, f.loc.line, f.loc.column, f.loc.end_line, f.loc.end_column, f.message) for f in found]
            for path, found in judgement.findings.items()}


def test_a_compaction_rebuilds_the_judgement_and_the_partition_the_next_lint_of_parts_reads(tmp_path):
    from kapsulint.cli.server.protocol import compact

    blue, green = two_roots(tmp_path)
    folder = folders.Folder(str(tmp_path))
    folder.judgement = folder.lint({})
    before, kept_basis = findings_of(folder.judgement), folder.basis
    assert before[blue] == [("KAP201", 1, 1, 1, 38, KAP201_APPS)] and set(before) == {blue, green}
    compact([folder])
    assert folder.judgement is not None and folder.basis is not None and folder.basis is not kept_basis
    assert findings_of(folder.judgement) == before
    assert folder.basis.judgement is folder.judgement  # one object still, as before the compaction
    assert folder.basis.partition.part_of_top == kept_basis.partition.part_of_top
    fixed = POOL.replace("autohealing = true\n", "autohealing = true\n\n  lifecycle {\n    create_before_destroy = true\n  }\n")
    judged = folder.lint({blue: fixed})  # judged from the rebuilt partition: the blue tree only
    assert 0 < folder.share < 1
    assert findings_of(judged) == {green: before[green]}
    assert findings_of(judged) == findings_of(folders.Folder(str(tmp_path)).lint({blue: fixed}))


def test_a_compaction_does_not_bring_back_a_partition_forgotten_meanwhile(tmp_path, monkeypatch):
    from kapsulint.cli.server import protocol

    two_roots(tmp_path)
    folder = folders.Folder(str(tmp_path))
    folder.judgement = folder.lint({})
    before = findings_of(folder.judgement)
    # files changed on disk while the collection runs: the next lint must judge the whole project
    monkeypatch.setattr(protocol, "collect_and_trim", folder.forget_parts)
    protocol.compact([folder])
    assert folder.basis is None and findings_of(folder.judgement) == before


def test_a_judgement_that_does_not_copy_is_kept_as_it_is(tmp_path):
    from kapsulint.cli.server.protocol import compact

    two_roots(tmp_path)
    folder = folders.Folder(str(tmp_path))
    judgement = folder.judgement = folder.lint({})
    judgement.kinds["unpicklable"] = lambda: None  # type: ignore[assignment]
    compact([folder])
    assert folder.judgement is judgement and folder.basis is not None


def test_the_server_restarts_once_with_the_c_librarys_allocator_unless_one_was_chosen(monkeypatch):
    import sys

    from kapsulint.cli import server

    restarts: list[tuple[str, list[str], dict]] = []
    monkeypatch.setattr(os, "execve", lambda program, arguments, environment: restarts.append(
        (program, arguments, environment)))
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(os, "confstr", lambda name: "glibc 2.36")
    monkeypatch.setattr(sys, "orig_argv", ["python", "-m", "kapsulint", "server", "--stdio"])
    monkeypatch.delenv("PYTHONMALLOC", raising=False)
    monkeypatch.delenv(server.RESTARTED, raising=False)
    monkeypatch.setenv("KEPT", "yes")
    server.with_system_allocator()
    [(program, arguments, environment)] = restarts
    assert (program, arguments) == (sys.executable, [sys.executable, "-m", "kapsulint", "server", "--stdio"])
    assert environment["PYTHONMALLOC"] == "malloc" and environment[server.RESTARTED] == "1"
    assert environment["KEPT"] == "yes" and "PYTHONMALLOC" not in os.environ

    # the restarted server: no second restart, and what it starts sees the environment it was given
    monkeypatch.setenv("PYTHONMALLOC", "malloc")
    monkeypatch.setenv(server.RESTARTED, "1")
    server.with_system_allocator()
    assert len(restarts) == 1 and "PYTHONMALLOC" not in os.environ and server.RESTARTED not in os.environ

    monkeypatch.setenv("PYTHONMALLOC", "pymalloc_debug")  # the user's choice stays
    server.with_system_allocator()
    assert len(restarts) == 1 and os.environ["PYTHONMALLOC"] == "pymalloc_debug"

    monkeypatch.delenv("PYTHONMALLOC")
    monkeypatch.setattr(os, "confstr", lambda name: None)  # another C library: no malloc_trim to give pages back
    server.with_system_allocator()
    monkeypatch.setattr(sys, "platform", "darwin")
    server.with_system_allocator()
    assert len(restarts) == 1
