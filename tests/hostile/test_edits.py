"""--fix on hostile trees and against other writers: what it never writes, and edits that never race.

Reproducers of issue 20's "--fix writes outside the project" and "Two writers lose data", and
variants: files outside the repository, file and directory symlinks inside and outside it,
read-only files and directories, a FIFO, a file changed between the parse and the write (made
deterministic by wrapping one step of the run), two --fix runs at once, a run ended by SIGTERM,
SIGINT or kill -9, and the temporary files such runs leave. Every tree is a temporary directory.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from kapsulint.cli.command import main
from kapsulint.lint import writes
from kapsulint.parsing.sources import parse_content

CLUSTER_ID = "fr-par/11111111-1111-1111-1111-111111111111"
HANG = 120  # seconds: a generous bound on a wait that should end at once


def pool(name: str = "apps") -> str:
    return (f'resource "scaleway_k8s_pool" "{name}" {{\n  cluster_id = "{CLUSTER_ID}"\n'
            f'  node_type  = "POP2-4C-16G"\n  size       = 3\n}}\n')


FIXED_POOL = pool().replace("  size       = 3\n}",
                            "  size       = 3\n\n  lifecycle {\n    create_before_destroy = true\n  }\n}")


def pools(count: int) -> str:
    return "\n".join(pool(f"p{index}") for index in range(count))


def tree(base: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = base / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return base


def repository(base: Path, files: dict[str, str]) -> Path:
    """A repository (its top level marked by .git) holding ``files``."""
    (base / ".git").mkdir(parents=True)
    return tree(base, files)


class Run:
    def __init__(self, code: int, stdout: str, stderr: str) -> None:
        self.code = code
        self.stdout = stdout
        self.stderr = stderr

    @property
    def findings(self) -> list[dict]:
        return json.loads(self.stdout) if self.stdout.strip().startswith("[") else []


def kapsulint(directory: Path, monkeypatch, *args: str) -> Run:
    """The command in this process, in ``directory``, KAP201 only."""
    monkeypatch.chdir(directory)
    result = CliRunner().invoke(main, ["--select", "KAP201", *args], catch_exceptions=False)
    return Run(result.exit_code, result.stdout, result.stderr)


def kapsulint_process(directory: Path, *args: str, **popen) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "kapsulint", "--select", "KAP201", *args], cwd=directory,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen)


def lifecycles(path: Path) -> int:
    return path.read_text(encoding="utf-8").count("lifecycle {")


def parses(path: Path) -> bool:
    parsed = parse_content(str(path), "config", path.read_bytes())
    return parsed["error"] is None and "internal" not in parsed


def temporaries(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.rglob("*") if ".kapsulint" in p.name and p.name != ".kapsulint.toml")


def lock_files() -> list[Path]:
    cache = Path(os.environ["KAPSULINT_CACHE_DIR"]) / "locks"
    return sorted(cache.glob("*")) if cache.is_dir() else []


# -- what --fix never writes -------------------------------------------------------------------


def test_a_module_outside_the_repository_is_never_written(tmp_path, monkeypatch):
    """Issue 20: a local module ``source = "../outside/mod"`` was fixed in place, and --diff
    printed ``a/../outside/mod/main.tf``. Whether the module is read or not, it is not written."""
    outside = tree(tmp_path / "outside", {"mod/main.tf": pool()})
    repo = repository(tmp_path / "repo", {"main.tf": 'module "m" {\n  source = "../outside/mod"\n}\n',
                                          "own.tf": pool("own")})
    before = (outside / "mod" / "main.tf").read_bytes()
    diff = kapsulint(repo, monkeypatch, "--diff", ".")
    assert "../" not in diff.stdout and "+++ b/own.tf" in diff.stdout, diff.stdout
    fixed = kapsulint(repo, monkeypatch, "--format", "json", "--fix", ".")
    assert (outside / "mod" / "main.tf").read_bytes() == before
    assert lifecycles(repo / "own.tf") == 1
    outside_findings = [f for f in fixed.findings if f["rule"] == "KAP201" and "outside" in f["path"]]
    if outside_findings:  # the module was read: its finding stays, its file is refused, the run failed
        assert "not written: ../outside/mod/main.tf is outside the repository" in fixed.stderr
        assert "would not write: ../outside/mod/main.tf is outside the repository" in diff.stderr
        assert fixed.code == 2 and diff.code == 2


def test_the_writer_refuses_a_file_outside_the_repository_whatever_the_reader_read(tmp_path, monkeypatch):
    """Defence in depth: a project whose files lie outside the repository given to the rounds
    (as a module outside it would) has none of them written, and the run says so."""
    from kapsulint.cli.settings import CommandLine, resolve_settings
    from kapsulint.lint.fixes import FixPolicy, fix_rounds
    from kapsulint.lint.runner import run

    project = tree(tmp_path / "project", {"main.tf": pool(), "inner/own.tf": pool("own")})
    before = (project / "main.tf").read_bytes()
    settings = resolve_settings(CommandLine(targets=[project], select="KAP201")).settings
    outcome = fix_rounds(lambda reads: run(settings, reads), FixPolicy(), False, str(project / "inner"))
    assert (project / "main.tf").read_bytes() == before
    assert lifecycles(project / "inner" / "own.tf") == 1
    assert outcome.unwritten == {str(project / "main.tf"): "is outside the repository; kapsulint writes only inside it"}
    assert outcome.not_applied == {str(project / "main.tf"): 1} and outcome.count == 1


def test_a_file_symlink_is_never_written_through(tmp_path, monkeypatch):
    """Issue 20: a file symlink (here inside the repository) was followed and its target rewritten."""
    repo = repository(tmp_path / "repo", {"real/pool.tf": pool()})
    (repo / "link.tf").symlink_to("real/pool.tf")
    result = kapsulint(repo, monkeypatch, "--fix", ".")
    assert (repo / "link.tf").is_symlink()
    assert lifecycles(repo / "real" / "pool.tf") == 1  # fixed by its own path, once
    assert "not written: link.tf is a symlink; kapsulint never writes through one; 1 fix not applied" in result.stderr
    assert result.code == 2


def test_a_file_symlink_out_of_the_repository_is_never_written_through(tmp_path, monkeypatch):
    outside = tree(tmp_path / "outside", {"target.tf": pool()})
    repo = repository(tmp_path / "repo", {"own.tf": pool("own")})
    (repo / "link.tf").symlink_to(outside / "target.tf")
    before = (outside / "target.tf").read_bytes()
    diff = kapsulint(repo, monkeypatch, "--diff", ".")
    fixed = kapsulint(repo, monkeypatch, "--format", "json", "--fix", ".")
    assert (outside / "target.tf").read_bytes() == before and (repo / "link.tf").is_symlink()
    assert "link.tf" not in diff.stdout and "../" not in diff.stdout
    if any(f["path"] == "link.tf" for f in fixed.findings):  # read (today): refused, named, exit 2
        assert "not written: link.tf is a symlink" in fixed.stderr and fixed.code == 2
        assert "would not write: link.tf is a symlink" in diff.stderr and diff.code == 2


def test_a_path_through_a_directory_symlink_is_never_written(tmp_path, monkeypatch):
    """A directory symlink inside the repository and one out of it: nothing reached through
    either is written (a file discovery reaches only through a link is refused and named)."""
    outside = tree(tmp_path / "outside", {"pool.tf": pool("out")})
    repo = repository(tmp_path / "repo", {"real/pool.tf": pool()})
    (repo / "alias").symlink_to("real", target_is_directory=True)
    (repo / "outdir").symlink_to(outside, target_is_directory=True)
    before_outside = (outside / "pool.tf").read_bytes()
    result = kapsulint(repo, monkeypatch, "--format", "json", "--fix", ".")
    assert (outside / "pool.tf").read_bytes() == before_outside
    assert (repo / "alias").is_symlink() and (repo / "outdir").is_symlink()
    reported = {f["path"] for f in result.findings}
    for link in ("alias", "outdir"):
        if f"{link}/pool.tf" in reported:
            assert (f"not written: {link}/pool.tf is reached through a symlink ({link}); kapsulint never writes "
                    "through one") in result.stderr
            assert result.code == 2
    assert lifecycles(repo / "real" / "pool.tf") == (0 if "alias/pool.tf" in reported else 1)


def test_a_read_only_file_is_not_replaced_and_its_finding_stays(tmp_path, monkeypatch):
    """Issue 20: a 0444 file was replaced by rename."""
    repo = repository(tmp_path / "repo", {"main.tf": pool()})
    path = repo / "main.tf"
    path.chmod(0o444)
    inode, before = path.stat().st_ino, path.read_bytes()
    result = kapsulint(repo, monkeypatch, "--format", "json", "--fix", ".")
    assert path.read_bytes() == before and path.stat().st_ino == inode
    assert stat.S_IMODE(path.stat().st_mode) == 0o444
    assert [(f["path"], f["rule"]) for f in result.findings] == [("main.tf", "KAP201")]
    assert "not written: main.tf is read-only (mode 0444); 1 fix not applied" in result.stderr
    assert "Fixed 0 findings." in result.stderr and result.code == 2


def test_a_file_in_a_read_only_directory_is_not_replaced(tmp_path, monkeypatch):
    repo = repository(tmp_path / "repo", {"locked/main.tf": pool(), "open.tf": pool("open")})
    (repo / "locked").chmod(0o555)
    try:
        before = (repo / "locked" / "main.tf").read_bytes()
        result = kapsulint(repo, monkeypatch, "--fix-only", ".")
        assert (repo / "locked" / "main.tf").read_bytes() == before
        assert sorted(os.listdir(repo / "locked")) == ["main.tf"]
        assert lifecycles(repo / "open.tf") == 1
        assert "not written: locked/main.tf is in a read-only directory (mode 0555)" in result.stderr
        assert result.code == 2
    finally:
        (repo / "locked").chmod(0o755)


def test_a_file_the_user_may_not_write_is_not_replaced(tmp_path, monkeypatch):
    """What ``os.access`` says counts beside the mode (a file of another user, say)."""
    repo = repository(tmp_path / "repo", {"main.tf": pool()})
    before = (repo / "main.tf").read_bytes()
    real_access = os.access

    def access(path, mode, **kwargs):
        if mode & os.W_OK and os.path.basename(path) == "main.tf":
            return False
        return real_access(path, mode, **kwargs)

    monkeypatch.setattr(os, "access", access)
    result = kapsulint(repo, monkeypatch, "--fix", ".")
    assert (repo / "main.tf").read_bytes() == before
    assert "not written: main.tf is not writable by this user" in result.stderr and result.code == 2


def test_a_fifo_named_like_a_terraform_file_is_neither_read_nor_written(tmp_path, monkeypatch):
    repo = repository(tmp_path / "repo", {"main.tf": pool()})
    os.mkfifo(repo / "pipe.tf")
    result = kapsulint(repo, monkeypatch, "--fix", ".")
    assert stat.S_ISFIFO(os.lstat(repo / "pipe.tf").st_mode)
    assert lifecycles(repo / "main.tf") == 1 and result.code == 0
    assert writes.refusal(str(repo / "pipe.tf"), str(repo)) == "is not a regular file"


def test_a_file_replaced_by_a_fifo_after_the_parse_is_refused_without_blocking(tmp_path, monkeypatch):
    repo = repository(tmp_path / "repo", {"main.tf": pool()})
    path = repo / "main.tf"
    after_parse(monkeypatch, lambda: (path.unlink(), os.mkfifo(path)))
    result = kapsulint(repo, monkeypatch, "--format", "json", "--fix", ".")
    assert stat.S_ISFIFO(os.lstat(path).st_mode)
    assert "not written: main.tf is not a regular file" in result.stderr and result.code == 2


def test_refusals_name_the_reason(tmp_path):
    repo = repository(tmp_path / "repo", {"ok.tf": "", "real/x.tf": "", "ro.tf": ""})
    (repo / "ro.tf").chmod(0o444)
    (repo / "link.tf").symlink_to("ok.tf")
    (repo / "dir").symlink_to("real")
    (repo / "dangling.tf").symlink_to("nowhere.tf")
    boundary = str(repo)
    assert writes.refusal(str(repo / "ok.tf"), boundary) is None
    assert writes.refusal(str(repo / "real" / "x.tf"), boundary) is None
    assert writes.refusal(str(repo / "ro.tf"), boundary) == "is read-only (mode 0444)"
    assert writes.refusal(str(repo / "link.tf"), boundary) == "is a symlink; kapsulint never writes through one"
    assert writes.refusal(str(repo / "dangling.tf"), boundary) == "is a symlink; kapsulint never writes through one"
    assert writes.refusal(str(repo / "dir" / "x.tf"), boundary) == (
        "is reached through a symlink (dir); kapsulint never writes through one")
    assert writes.refusal(str(tmp_path / "elsewhere.tf"), boundary) == (
        "is outside the repository; kapsulint writes only inside it")
    assert writes.refusal(str(repo / "real" / ".." / "ok.tf"), boundary) == "is not a plain absolute path"
    assert writes.refusal(str(repo / "real"), boundary) == "is not a regular file"
    assert writes.refusal(str(repo / "gone.tf"), boundary).startswith("cannot be read")


def test_a_directory_swapped_for_a_symlink_after_the_check_is_not_followed(tmp_path):
    """The directories are opened one by one without following a symlink, so a swap between the
    check and the write makes the write fail, never land outside."""
    outside = tree(tmp_path / "outside", {"x.tf": "outside\n"})
    repo = repository(tmp_path / "repo", {"sub/x.tf": "inside\n"})
    assert writes.refusal(str(repo / "sub" / "x.tf"), str(repo)) is None
    (repo / "sub").rename(repo / "moved")
    (repo / "sub").symlink_to(outside, target_is_directory=True)
    refused = writes.replace_files({str(repo / "sub" / "x.tf"): (b"outside\n", b"written\n")}, str(repo))
    assert refused == {str(repo / "sub" / "x.tf"): "is reached through a symlink (sub); kapsulint never writes "
                                                   "through one"}
    assert (outside / "x.tf").read_text() == "outside\n" and temporaries(outside) == []


# -- --diff shows what --fix would write ------------------------------------------------------


def test_diff_leaves_out_the_files_fix_would_refuse_and_exits_2(tmp_path, monkeypatch):
    repo = repository(tmp_path / "repo", {"main.tf": pool(), "ro.tf": pool("ro")})
    (repo / "ro.tf").chmod(0o444)
    result = kapsulint(repo, monkeypatch, "--diff", ".")
    assert "+++ b/main.tf" in result.stdout and "ro.tf" not in result.stdout
    assert "would not write: ro.tf is read-only (mode 0444); 1 fix not applied" in result.stderr
    assert "Would fix 1 finding." in result.stderr and result.code == 2


def test_diff_of_a_module_beside_the_project_is_relative_to_the_repository(tmp_path, monkeypatch):
    """A project root below the repository's top (its own configuration) fixing a module of the
    repository beside it: no ``a/../`` path; the diff applies with patch -p1 from the top."""
    repo = repository(tmp_path / "repo", {
        "infra/.kapsulint.toml": "",
        "infra/main.tf": 'module "pools" {\n  source = "../modules/pools"\n}\n',
        "modules/pools/main.tf": pool(),
    })
    result = kapsulint(repo / "infra", monkeypatch, "--diff", ".")
    assert "--- a/modules/pools/main.tf\n+++ b/modules/pools/main.tf\n" in result.stdout, result.stdout
    assert "../" not in result.stdout
    assert "the diff applies from the repository root .." in result.stderr
    applied = subprocess.run(["patch", "-p1"], cwd=repo, input=result.stdout, text=True, capture_output=True,
                             timeout=HANG)
    assert applied.returncode == 0, applied.stderr
    assert lifecycles(repo / "modules" / "pools" / "main.tf") == 1


def test_a_refused_write_is_an_error_of_the_run_in_sarif(tmp_path, monkeypatch):
    repo = repository(tmp_path / "repo", {"main.tf": pool()})
    (repo / "main.tf").chmod(0o444)
    result = kapsulint(repo, monkeypatch, "--format", "sarif", "--fix", ".")
    run = json.loads(result.stdout)["runs"][0]
    invocation = run["invocations"][0]
    assert invocation["executionSuccessful"] is False
    messages = [n["message"]["text"] for n in invocation["toolExecutionNotifications"]]
    assert any("not written: the file is read-only (mode 0444)" in m for m in messages), messages
    assert [r["ruleId"] for r in run["results"]] == ["KAP201"] and result.code == 2


# -- a file that changes between the parse and the write ----------------------------------------


def after_parse(monkeypatch, change, times: int = 1) -> None:
    """Run ``change`` after the first ``times`` lints of the run (the parse the edits come from)."""
    from kapsulint.lint import runner

    real = runner.run
    calls = []

    def run(settings, reads=None):
        result = real(settings, reads)
        calls.append(1)
        if len(calls) <= times:
            change()
        return result

    monkeypatch.setattr(runner, "run", run)


def test_a_file_edited_between_the_parse_and_the_write_is_left_untouched_and_named(tmp_path, monkeypatch):
    """Issue 20: an editor saving during --fix lost the user's lines."""
    repo = repository(tmp_path / "repo", {"main.tf": pool(), "other.tf": pool("other")})
    saved = pool() + '\n# the user\'s line\n'
    after_parse(monkeypatch, lambda: (repo / "main.tf").write_text(saved))
    result = kapsulint(repo, monkeypatch, "--fix", ".")
    assert (repo / "main.tf").read_text() == saved
    assert lifecycles(repo / "other.tf") == 1  # the other file's fix stands
    assert "not written: main.tf changed since kapsulint read it; left as it is; 1 fix not applied" in result.stderr
    assert "Fixed 1 finding." in result.stderr and result.code == 2
    assert temporaries(repo) == []


def test_a_file_edited_while_its_new_text_is_written_is_left_untouched(tmp_path, monkeypatch):
    """The last comparison runs after the temporary file is written, just before the rename."""
    repo = repository(tmp_path / "repo", {"main.tf": pool()})
    saved = pool() + "# saved meanwhile\n"
    real = writes._prepare

    def prepare(path, expected, data, boundary):
        prepared = real(path, expected, data, boundary)
        Path(path).write_text(saved)  # in place: same inode
        return prepared

    monkeypatch.setattr(writes, "_prepare", prepare)
    result = kapsulint(repo, monkeypatch, "--fix", ".")
    assert (repo / "main.tf").read_text() == saved
    assert "not written: main.tf changed while kapsulint was writing it; left as it is" in result.stderr
    assert result.code == 2 and temporaries(repo) == []


def test_a_file_replaced_by_rename_while_its_new_text_is_written_is_left_untouched(tmp_path, monkeypatch):
    """An editor that saves by rename gives the name a new inode: the same bytes do not hide it."""
    repo = repository(tmp_path / "repo", {"main.tf": pool()})
    real = writes._prepare

    def prepare(path, expected, data, boundary):
        prepared = real(path, expected, data, boundary)
        Path(path + ".new").write_bytes(expected + b"# saved by rename\n")
        os.replace(path + ".new", path)
        return prepared

    monkeypatch.setattr(writes, "_prepare", prepare)
    result = kapsulint(repo, monkeypatch, "--fix", ".")
    assert (repo / "main.tf").read_text() == pool() + "# saved by rename\n"
    assert "changed while kapsulint was writing it" in result.stderr and result.code == 2


def test_a_fix_over_two_files_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    """When a file is refused before the renames, none of the round's files is written; when a
    rename is refused after others, those are put back."""
    repo = repository(tmp_path / "repo", {"a.tf": "a\n", "b.tf": "b\n"})
    a, b = str(repo / "a.tf"), str(repo / "b.tf")
    (repo / "b.tf").write_text("b changed\n")
    assert writes.replace_files({a: (b"a\n", b"A\n"), b: (b"b\n", b"B\n")}, str(repo)) == {
        b: "changed since kapsulint read it; left as it is"}
    assert (repo / "a.tf").read_text() == "a\n" and (repo / "b.tf").read_text() == "b changed\n"
    real = writes._commit

    def commit(prepared):
        if prepared.target.path == b:  # a.tf is renamed first; b.tf is edited just before its rename
            Path(b).write_text("edited meanwhile\n")
        real(prepared)

    (repo / "b.tf").write_text("b\n")
    monkeypatch.setattr(writes, "_commit", commit)
    refused = writes.replace_files({a: (b"a\n", b"A\n"), b: (b"b\n", b"B\n")}, str(repo))
    assert refused == {b: "changed while kapsulint was writing it; left as it is"}
    assert (repo / "a.tf").read_text() == "a\n"  # put back
    assert (repo / "b.tf").read_text() == "edited meanwhile\n" and temporaries(repo) == []


def test_a_revert_never_overwrites_a_change_made_after_the_fix(tmp_path, monkeypatch):
    """A fix whose finding stays is put back; if the file changed after kapsulint wrote it, the
    change is kept and the run says so."""
    from kapsulint.findings import Edit
    from kapsulint.lint import fixes

    repo = repository(tmp_path / "repo", {"main.tf": pool()})
    original = fixes._new_texts

    def useless(by_file, files, reads):
        return original({p: [Edit(p, 1, 1, 1, 1, "# touched\n")] for p in by_file}, files, reads)

    monkeypatch.setattr(fixes, "_new_texts", useless)
    later = "# touched\n" + pool() + "# the user's line\n"

    def save_after_the_fix():
        if (repo / "main.tf").read_text().startswith("# touched\n"):
            (repo / "main.tf").write_text(later)  # saved after kapsulint's write, before its revert

    after_parse(monkeypatch, save_after_the_fix, times=2)
    result = kapsulint(repo, monkeypatch, "--fix", ".")
    assert (repo / "main.tf").read_text() == later
    assert "not written: main.tf changed since kapsulint read it" in result.stderr and result.code == 2


def test_a_fix_of_a_nested_project_meanwhile_is_not_applied_twice(tmp_path, monkeypatch):
    """Two --fix runs whose repositories differ (nested project roots without git) take different
    locks; the content check still keeps the later write from applying edits to a changed file."""
    outer = tree(tmp_path / "outer", {"main.tf": pool("outer"), "inner/main.tf": pool("inner")})

    def fix_inner():
        done = subprocess.run([sys.executable, "-m", "kapsulint", "--select", "KAP201", "--fix", "."],
                              cwd=outer / "inner", capture_output=True, text=True, timeout=HANG)
        assert done.returncode == 0, done.stderr

    after_parse(monkeypatch, fix_inner)
    result = kapsulint(outer, monkeypatch, "--fix", ".")
    assert lifecycles(outer / "inner" / "main.tf") == 1 and parses(outer / "inner" / "main.tf")
    assert lifecycles(outer / "main.tf") == 1
    assert "not written: inner/main.tf changed since kapsulint read it" in result.stderr and result.code == 2


# -- one --fix at a time ------------------------------------------------------------------------


def test_two_fix_runs_at_once_leave_exactly_one_lifecycle_per_pool(tmp_path):
    """Issue 20: two --fix runs at once on 1,000 fixable pools left 1,380 to 1,500 lifecycle
    blocks. The second run waits for the first, then reads the fixed file and has nothing to do.
    Starts are staggered so that the second run's parse falls before, during and after the
    first's write."""
    single = tree(tmp_path / "single", {"main.tf": pools(1000)})
    done = kapsulint_process(single, "--fix", ".")
    assert done.wait(timeout=HANG) == 0
    expected = (single / "main.tf").read_bytes()
    assert expected.count(b"lifecycle {") == 1000
    for trial, (delay, cache) in enumerate([(0.0, []), (0.6, []), (1.2, ["--no-cache"])]):
        project = tree(tmp_path / f"trial{trial}", {"main.tf": pools(1000)})
        first = kapsulint_process(project, *cache, "--fix", ".")
        time.sleep(delay)
        second = kapsulint_process(project, *cache, "--fix", ".")
        outputs = [process.communicate(timeout=HANG) for process in (first, second)]
        assert [first.returncode, second.returncode] == [0, 0], outputs
        fixed_lines = sorted(line for _, err in outputs for line in err.splitlines() if line.startswith("Fixed"))
        assert fixed_lines == ["Fixed 0 findings.", "Fixed 1000 findings."], outputs
        path = project / "main.tf"
        assert path.read_bytes() == expected and lifecycles(path) == 1000 and parses(path)
        assert temporaries(project) == []
    assert lock_files() == []


def test_a_second_fix_waits_at_most_the_bound_then_exits_2(tmp_path, monkeypatch):
    repo = repository(tmp_path / "repo", {"main.tf": pool()})
    before = (repo / "main.tf").read_bytes()
    monkeypatch.setattr(writes, "LOCK_TIMEOUT", 0.3)
    with writes.fix_lock(str(repo)):
        result = kapsulint(repo, monkeypatch, "--fix", ".")
    assert (repo / "main.tf").read_bytes() == before
    waiting = f"kapsulint: waiting for another kapsulint --fix (process {os.getpid()}) of {repo} to finish"
    assert waiting in result.stderr
    assert "kapsulint: error: another kapsulint --fix" in result.stderr and "still holds the lock" in result.stderr
    assert result.code == 2


def test_a_waiting_fix_goes_on_when_the_first_ends(tmp_path, monkeypatch):
    repo = repository(tmp_path / "repo", {"main.tf": pool()})
    holding = threading.Event()
    release = threading.Event()

    def hold():
        with writes.fix_lock(str(repo)):
            holding.set()
            release.wait(HANG)

    try_lock = writes._try_lock

    def try_then_release(descriptor: int) -> bool:
        taken = try_lock(descriptor)
        if not taken:  # the run found the lock held: it waits, so the holder may now end
            release.set()
        return taken

    holder = threading.Thread(target=hold)
    holder.start()
    assert holding.wait(HANG)
    monkeypatch.setattr(writes, "_try_lock", try_then_release)
    result = kapsulint(repo, monkeypatch, "--fix", ".")
    holder.join(HANG)
    assert "waiting for another kapsulint --fix" in result.stderr
    assert lifecycles(repo / "main.tf") == 1 and result.code == 0


@pytest.mark.parametrize("error", [RuntimeError("a bug"), KeyboardInterrupt()])
def test_the_lock_is_released_when_the_run_fails(tmp_path, monkeypatch, error):
    from kapsulint.lint import runner

    repo = repository(tmp_path / "repo", {"main.tf": pool()})

    def run(settings, reads=None):
        raise error

    monkeypatch.setattr(runner, "run", run)
    monkeypatch.chdir(repo)
    CliRunner().invoke(main, ["--select", "KAP201", "--fix", "."])
    assert lock_files() == []
    with writes.fix_lock(str(repo), timeout=0):  # free at once
        pass


def test_the_lock_lives_beside_the_project_when_the_cache_directory_is_unavailable(tmp_path, monkeypatch):
    repo = repository(tmp_path / "repo", {"main.tf": pool()})
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("KAPSULINT_CACHE_DIR", str(tmp_path / "file" / "cache"))  # cannot be created
    seen = []
    after_parse(monkeypatch, lambda: seen.append(sorted(os.listdir(repo))))
    result = kapsulint(repo, monkeypatch, "--fix", ".")
    assert seen == [[".git", ".kapsulint-fix.lock", "main.tf"]]  # held during the run
    assert sorted(os.listdir(repo)) == [".git", "main.tf"]  # and removed after it
    assert lifecycles(repo / "main.tf") == 1 and result.code == 0


def test_a_lock_file_planted_as_a_symlink_is_never_followed(tmp_path, monkeypatch):
    repo = repository(tmp_path / "repo", {"main.tf": pool()})
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    (repo / ".kapsulint-fix.lock").symlink_to(victim)
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("KAPSULINT_CACHE_DIR", str(tmp_path / "file" / "cache"))
    before = (repo / "main.tf").read_bytes()
    result = kapsulint(repo, monkeypatch, "--fix", ".")
    assert victim.read_text() == "precious\n" and (repo / ".kapsulint-fix.lock").is_symlink()
    assert (repo / "main.tf").read_bytes() == before
    assert "kapsulint: error: cannot create the --fix lock" in result.stderr and result.code == 2


# -- the ends Python sees, and kill -9 ----------------------------------------------------------

_PAUSED = r"""
import os, sys, time
from kapsulint.lint import runner
from kapsulint.cli.command import entry

ready, go, where = sys.argv[1:4]


def pause():
    open(ready, "w").close()
    while not os.path.exists(go):
        time.sleep(0.01)


if where == "lint":
    real_run = runner.run

    def run(settings, reads=None):
        result = real_run(settings, reads)
        pause()
        return result

    runner.run = run
else:
    real_replace = os.replace

    def replace(*args, **kwargs):
        pause()
        return real_replace(*args, **kwargs)

    os.replace = replace
sys.argv = ["kapsulint", *sys.argv[4:]]
entry()
"""


def paused(project: Path, tmp_path: Path, where: str) -> tuple[subprocess.Popen, Path]:
    """A --fix run in a process that stops at ``where`` ("lint": after its first lint; "rename":
    with its temporary file written, before the rename) until the file returned exists."""
    ready, go = tmp_path / "ready", tmp_path / "go"
    process = subprocess.Popen([sys.executable, "-c", _PAUSED, str(ready), str(go), where, "--select", "KAP201",
                                "--fix", "."], cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + HANG
    while not ready.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the run never reached the pause"
        time.sleep(0.01)
    return process, go


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_while_linting_removes_the_lock_and_leaves_the_file(tmp_path, number):
    """SIGTERM and SIGHUP exit 128 + their number; SIGINT is Python's KeyboardInterrupt."""
    project = tree(tmp_path / "project", {"main.tf": pool()})
    process, _ = paused(project, tmp_path, "lint")
    assert len(lock_files()) == 1
    process.send_signal(number)
    process.communicate(timeout=HANG)
    assert process.returncode != 0
    if number != signal.SIGINT:
        assert process.returncode == 128 + number
    assert (project / "main.tf").read_text() == pool() and temporaries(project) == [] and lock_files() == []


def test_a_signal_during_the_write_waits_until_the_file_is_whole(tmp_path):
    """Signals are held back from the temporary file's creation to its rename: the run ends after
    the write, never with a temporary file left or half a write."""
    project = tree(tmp_path / "project", {"main.tf": pool()})
    process, go = paused(project, tmp_path, "rename")
    assert len(temporaries(project)) == 1
    process.send_signal(signal.SIGTERM)
    time.sleep(0.2)  # the signal is pending (nothing depends on how long)
    go.write_text("")
    process.communicate(timeout=HANG)
    assert process.returncode == 128 + signal.SIGTERM
    assert (project / "main.tf").read_text() == FIXED_POOL
    assert temporaries(project) == [] and lock_files() == []


def test_kill_9_during_the_write_leaves_the_file_whole_and_the_next_fix_removes_the_temporary_file(tmp_path):
    """Issue 20: kill -9 leaves `.NAME.tf.XXXX.kapsulint` temporary files behind."""
    project = tree(tmp_path / "project", {"main.tf": pool()})
    process, _ = paused(project, tmp_path, "rename")
    [left] = temporaries(project)
    process.kill()
    process.communicate(timeout=HANG)
    assert (project / "main.tf").read_text() == pool() and parses(project / "main.tf")
    assert temporaries(project) == [left] and not left.endswith((".tf", ".tf.json", ".tfvars", ".yaml", ".yml"))
    again = kapsulint_process(project, "--fix", ".")
    _, stderr = again.communicate(timeout=HANG)
    assert again.returncode == 0, stderr
    assert f"kapsulint: removed {left}, a temporary file left by an interrupted --fix" in stderr
    assert temporaries(project) == [] and lock_files() == []
    assert (project / "main.tf").read_text() == FIXED_POOL


def test_kill_9_at_any_moment_never_leaves_a_broken_file(tmp_path):
    """Killed at moments spread over a run: the file is always the original or the fixed text,
    and the next --fix leaves no temporary file."""
    original = pools(300)
    for trial, delay in enumerate((0.4, 0.9, 1.4)):
        project = tree(tmp_path / f"trial{trial}", {"main.tf": original})
        process = kapsulint_process(project, "--no-cache", "--fix", ".")
        time.sleep(delay)
        process.kill()
        process.communicate(timeout=HANG)
        text = (project / "main.tf").read_text()
        assert text == original or text.count("lifecycle {") == 300, trial
        assert parses(project / "main.tf")
        again = kapsulint_process(project, "--fix", ".")
        again.communicate(timeout=HANG)
        assert again.returncode == 0 and temporaries(project) == []
        assert lifecycles(project / "main.tf") == 300


# -- stale temporary files ----------------------------------------------------------------------


def dead_pid() -> int:
    """The number of a process that has ended."""
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait(timeout=HANG)
    return process.pid


def test_stale_temporary_files_are_removed_and_live_or_foreign_ones_kept(tmp_path, monkeypatch):
    repo = repository(tmp_path / "repo", {"main.tf": pool(), "sub/other.tf": pool("other")})
    outside = tree(tmp_path / "outside", {"pool.tf": pool("out"), ".pool.tf.abcd1234.kapsulint-1": pool()})
    (repo / "outdir").symlink_to(outside, target_is_directory=True)
    old = time.time() - writes.STALE_AFTER - 60
    names = {
        "dead": f".main.tf.abcd1234.kapsulint-{dead_pid()}",
        "live": f".main.tf.efgh5678.kapsulint-{os.getppid()}",
        "live_but_old": f".other.tf.ijkl9012.kapsulint-{os.getppid()}",
        "earlier_version_old": ".main.tf.mnop3456.kapsulint",
        "earlier_version_fresh": ".main.tf.qrst7890.kapsulint",
        "not_ours": ".main.tf.kapsulint-backup",
    }
    where = {"live_but_old": repo / "sub"}
    for key, name in names.items():
        path = where.get(key, repo) / name
        path.write_text(pool())
        if key.endswith("old"):
            os.utime(path, (old, old))
    (repo / ".link.tf.uvwx1234.kapsulint-1").symlink_to("main.tf")
    result = kapsulint(repo, monkeypatch, "--fix", ".")
    left = {p.name for p in list(repo.iterdir()) + list((repo / "sub").iterdir())}
    for key in ("dead", "live_but_old", "earlier_version_old"):
        assert names[key] not in left
        relative = os.path.relpath(where.get(key, repo) / names[key], repo)
        assert f"kapsulint: removed {relative}, a temporary file left by an interrupted --fix" in result.stderr
    for key in ("live", "earlier_version_fresh", "not_ours"):
        assert names[key] in left
    assert ".link.tf.uvwx1234.kapsulint-1" in left and (repo / ".link.tf.uvwx1234.kapsulint-1").is_symlink()
    assert (outside / ".pool.tf.abcd1234.kapsulint-1").exists()  # never removed through a symlink


def test_temporary_files_are_never_read_as_terraform(tmp_path, monkeypatch):
    repo = repository(tmp_path / "repo", {"main.tf": FIXED_POOL, ".main.tf.abcd1234.kapsulint-1": pool(),
                                          ".values.yaml.abcd1234.kapsulint-1": "a: 1\n"})
    monkeypatch.chdir(repo)
    shown = CliRunner().invoke(main, ["--show-files", "."])
    assert [line.split("\t")[0] for line in shown.stdout.splitlines() if not line.startswith("#")] == ["main.tf"]
    assert kapsulint(repo, monkeypatch, ".").code == 0  # a plain lint neither reads nor removes them
    assert len(temporaries(repo)) == 2


# -- what already held ------------------------------------------------------------------------


def test_mode_bom_and_crlf_are_kept_through_the_guarded_write(tmp_path, monkeypatch):
    repo = repository(tmp_path / "repo", {})
    path = repo / "main.tf"
    path.write_bytes(b"\xef\xbb\xbf" + pool().replace("\n", "\r\n").encode())
    path.chmod(0o640)
    result = kapsulint(repo, monkeypatch, "--fix", ".")
    data = path.read_bytes()
    assert result.code == 0 and data.startswith(b"\xef\xbb\xbf") and b"lifecycle {\r\n" in data
    assert b"\n" not in data.replace(b"\r\n", b"") and stat.S_IMODE(path.stat().st_mode) == 0o640


def test_the_owner_is_kept_where_the_user_may_give_it(tmp_path, monkeypatch):
    """Run as root, a --fix leaves another user's file theirs; otherwise the file stays the user's own."""
    repo = repository(tmp_path / "repo", {"main.tf": pool()})
    path = repo / "main.tf"
    if os.geteuid() == 0:
        os.chown(path, 65534, 65534)
    owner = (path.stat().st_uid, path.stat().st_gid)
    path.chmod(0o664)
    result = kapsulint(repo, monkeypatch, "--fix", ".")
    assert result.code == 0 and lifecycles(path) == 1
    assert (path.stat().st_uid, path.stat().st_gid) == owner and stat.S_IMODE(path.stat().st_mode) == 0o664
