"""Nothing of one run is left for the next in the same process: the texts read in place of the
files (``--diff``, ``--fix``) and the lines the edits see belong to the run's ``FileReads``."""

from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner

from kapsulint.cli.command import main

# Two texts of one size: the pool moves down a line, a comment moves up.
BEFORE = '''resource "scaleway_k8s_pool" "apps" {
  cluster_id = "fr-par/11111111-1111-1111-1111-111111111111"
  node_type  = "POP2-4C-16G"
  size       = 3
}
# ops
'''
AFTER = '''# ops
resource "scaleway_k8s_pool" "apps" {
  cluster_id = "fr-par/11111111-1111-1111-1111-111111111111"
  node_type  = "POP2-4C-16G"
  size       = 3
}
'''


def _lint(directory: Path, monkeypatch, *args: str) -> tuple[int, str]:
    monkeypatch.chdir(directory)
    result = CliRunner().invoke(main, ["--select", "KAP201", "--format", "json", "--unsafe-fixes", *args, "."],
                                catch_exceptions=False)
    return result.exit_code, result.stdout


def test_a_second_run_reads_the_file_as_it_is_not_as_the_first_run_saw_it(tmp_path, monkeypatch):
    """The same size and modification time, other lines: the second run's edits are made on the
    lines it parsed, as a run in a new process makes them."""
    assert len(BEFORE) == len(AFTER)
    first = tmp_path / "first"
    first.mkdir()
    path = first / "main.tf"
    path.write_text(BEFORE)
    stamp = os.stat(path).st_mtime_ns
    assert _lint(first, monkeypatch)[0] == 1
    path.write_text(AFTER)
    os.utime(path, ns=(stamp, stamp))
    second = _lint(first, monkeypatch)
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    (fresh / "main.tf").write_text(AFTER)
    assert second == _lint(fresh, monkeypatch)
    (found,) = json.loads(second[1])
    assert found["line"] == 2 and found["edits"], found


def test_a_diff_leaves_nothing_for_the_next_run(tmp_path, monkeypatch):
    """--diff lints the fixed texts in memory; the run after it reads the files."""
    (tmp_path / "main.tf").write_text(AFTER)
    monkeypatch.chdir(tmp_path)
    diff = CliRunner().invoke(main, ["--select", "KAP201", "--diff", "--unsafe-fixes", "."])
    assert diff.exit_code == 1 and "+  lifecycle {" in diff.stdout
    assert (tmp_path / "main.tf").read_text() == AFTER
    code, out = _lint(tmp_path, monkeypatch)
    assert code == 1 and [f["rule"] for f in json.loads(out)] == ["KAP201"]


def test_the_reading_modules_hold_no_state_of_a_run():
    from kapsulint.model import edits
    from kapsulint.parsing import sources

    for module in (sources, edits):
        held = [name for name, value in vars(module).items()
                if not name.startswith("__") and isinstance(value, (dict, list, set, bytearray))]
        assert held == [], f"{module.__name__} holds {held}"
