"""The language server's parts that an editor session cannot reach on purpose: a lint that fails
inside kapsulint, and which arguments start the server rather than a lint of a path named server."""

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

    def broken_run(settings, reads=None):
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
