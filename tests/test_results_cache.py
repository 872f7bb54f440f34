"""The results cache (kapsulint/cli/results.py): a replayed run prints, byte for byte, what a run
with --no-cache prints, on stdout and stderr, with the same exit code; on every fixture case, and on
a generated monorepo after seeded edits. The runs are the console script's own path (``program``),
in process."""

from __future__ import annotations

import importlib.util
import io
import os
import random
import sys
import time
import zlib
from pathlib import Path
from typing import NamedTuple

import pytest
from fixture_support import case_config, cases, copy_case, own_rule_selection

import kapsulint.cli.command as command
from kapsulint.cli import results

ROOT = Path(__file__).resolve().parent.parent
FORMATS = ("text", "concise", "json", "sarif", "github", "gitlab")


class Run(NamedTuple):
    code: int
    stdout: bytes
    stderr: bytes
    replayed: bool


def program(directory: Path, args: list[str], monkeypatch, env: dict | None = None) -> Run:
    """The console script's run of ``args`` in ``directory``: exit code, the bytes of stdout and
    stderr, and whether the output came from the cache (the lint command did not run)."""
    ran = []
    lint_command = command.lint_command

    def counted(arguments: list[str]) -> int:
        ran.append(arguments)
        return lint_command(arguments)

    out, err = io.BytesIO(), io.BytesIO()
    with monkeypatch.context() as scoped:
        scoped.chdir(directory)
        for key, value in (env or {}).items():
            scoped.setenv(key, value)
        scoped.setattr(command, "lint_command", counted)
        scoped.setattr(sys, "stdout", io.TextIOWrapper(out, encoding="utf-8", errors="backslashreplace"))
        scoped.setattr(sys, "stderr", io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace"))
        code = command.program(args)
        sys.stdout.flush()
        sys.stderr.flush()
        written = out.getvalue(), err.getvalue()
    return Run(code, *written, not ran)


def replayable(args: list[str], first: Run) -> bool:
    """Whether a second run of ``args`` must come from the cache, after ``first`` recorded it."""
    return results.cacheable(args) is not None and first.code in (0, 1)


def same_output(directory: Path, args: list[str], monkeypatch, env: dict | None = None) -> Run:
    """A --no-cache run, a cached run (which records) and a second cached run print the same bytes
    and exit alike; the second comes from the cache whenever the first could be recorded."""
    bare = program(directory, ["--no-cache", *args], monkeypatch, env)
    assert not bare.replayed
    recorded = program(directory, args, monkeypatch, env)
    again = program(directory, args, monkeypatch, env)
    for run in (recorded, again):
        assert (run.code, run.stdout, run.stderr) == (bare.code, bare.stdout, bare.stderr), args
    assert again.replayed == replayable(args, recorded), (args, bare.code, bare.stderr)
    return again


@pytest.mark.parametrize("case", cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_fixture_case_replays_what_no_cache_prints(case, tmp_path, monkeypatch):
    """JSON and text on every case, every format on a sample. One --no-cache run gives both
    references: the JSON report on stdout and the text report through --report (the same report
    stdout gets when it is not a terminal, as here), so each case costs three lints, not four; the
    text report printed on stdout by a --no-cache run is compared directly on a sample too. The
    cached runs judge by parts every case that splits, each part alone (tests/test_parts.py),
    while a --no-cache run is a lint of the whole: the comparison holds the lint by parts too."""
    from kapsulint.lint import parts

    monkeypatch.setattr(parts, "MIN_BYTES", 0)
    monkeypatch.setattr(parts, "UNIT_BYTES", 0)
    monkeypatch.setattr(parts, "MIN_GROUPS", 1)
    config = case_config(case)
    project = copy_case(case, tmp_path)
    env = config.get("env")
    args = ["--select", own_rule_selection(case), *config.get("args", [])]
    text_report = tmp_path / "report.txt"
    bare = program(project, ["--no-cache", "--format", "json", "--report", f"text={text_report}", *args],
                   monkeypatch, env)
    for output, reference in (("json", bare.stdout), ("text", text_report.read_bytes())):
        recorded = program(project, ["--format", output, *args], monkeypatch, env)
        again = program(project, ["--format", output, *args], monkeypatch, env)
        for run in (recorded, again):
            assert (run.code, run.stdout, run.stderr) == (bare.code, reference, bare.stderr), output
        assert again.replayed == replayable(["--format", output, *args], recorded), (output, bare.stderr)
    sample = zlib.crc32(case.name.encode())
    for output in FORMATS if sample % 20 == 0 else ("text",) if sample % 5 == 0 else ():
        same_output(project, ["--format", output, *args], monkeypatch, env)


# -- a monorepo after edits -------------------------------------------------------------------


def _generate_monorepo(root: Path, modules: int, seed: int) -> None:
    """The benchmark's synthetic monorepo (benchmarks/bench.py)."""
    spec = importlib.util.spec_from_file_location("kapsulint_bench", ROOT / "benchmarks" / "bench.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    try:
        spec.loader.exec_module(module)
        module.generate_monorepo(root, modules, seed)
    finally:
        sys.modules.pop(spec.name, None)


def _files(root: Path, suffix: str) -> list[Path]:
    return sorted(p for p in root.rglob(f"*{suffix}") if p.is_file())


def _change_a_value(root: Path, rng: random.Random) -> None:
    path = rng.choice([p for p in _files(root, ".tf") if "version" in p.read_text(encoding="utf-8")])
    text = path.read_text(encoding="utf-8")
    for old, new in (('version = "1.', 'version = "0.'), ("auto_upgrade", "# auto_upgrade"),
                     ("true", "false"), ('"fr-par', '"nl-ams')):
        if old in text:
            path.write_text(text.replace(old, new, 1), encoding="utf-8")
            return
    path.write_text(text + '\nlocals {\n  edited = "yes"\n}\n', encoding="utf-8")


def _add_a_file(root: Path, rng: random.Random) -> None:
    module = rng.choice(sorted(p for p in (root / "clusters").iterdir() if p.is_dir()))
    (module / f"added_{rng.randrange(10**6)}.tf").write_text(
        'resource "scaleway_k8s_cluster" "added" {\n  name    = "added"\n  version = "1.24"\n'
        '  cni     = "cilium"\n}\n', encoding="utf-8")


def _delete_a_file(root: Path, rng: random.Random) -> None:
    rng.choice(_files(root, ".tf")).unlink()


def _touch(root: Path, rng: random.Random) -> None:
    path = rng.choice(_files(root, ".tf"))
    later = time.time() + 5
    os.utime(path, (later, later))


def _edit_a_values_file(root: Path, rng: random.Random) -> None:
    path = rng.choice(_files(root, ".yaml"))
    path.write_text(path.read_text(encoding="utf-8") + "\nextraEdited:\n  enabled: true\n", encoding="utf-8")


def _add_a_values_file(root: Path, rng: random.Random) -> None:
    module = rng.choice(sorted(p for p in (root / "clusters").iterdir() if p.is_dir()))
    (module / "values").mkdir(exist_ok=True)
    (module / "values" / f"extra-{rng.randrange(1000)}.yaml").write_text(
        "controller:\n  service:\n    type: LoadBalancer\n", encoding="utf-8")


def _edit_the_configuration(root: Path, rng: random.Random) -> None:
    rules = ", ".join(f'"{rule}"' for rule in rng.sample(["KAP101", "KAP106", "KAP201", "KAP301", "KAP401"], 2))
    (root / ".kapsulint.toml").write_text(f"# edit {rng.randrange(10**6)}\nignore = [{rules}]\n", encoding="utf-8")


EDITS = [_change_a_value, _add_a_file, _delete_a_file, _touch, _edit_a_values_file, _add_a_values_file,
         _edit_the_configuration]


def test_a_monorepo_after_seeded_edits_replays_only_what_is_unchanged(tmp_path, monkeypatch):
    root = tmp_path / "monorepo"
    _generate_monorepo(root, 5, seed=27)
    (root / ".git").mkdir()  # a repository: its top level is the project root
    rng = random.Random(27)
    first = same_output(root, ["--format", "json"], monkeypatch)
    assert first.replayed and first.code == 1
    for step in range(14):
        edit = EDITS[step] if step < len(EDITS) else rng.choice(EDITS)
        args = ["--format", ("json", "text")[step % 2]]
        before = program(root, args, monkeypatch)  # recorded now, if it was not yet
        edit(root, rng)
        changed = program(root, args, monkeypatch)
        bare = program(root, ["--no-cache", *args], monkeypatch)
        assert (changed.code, changed.stdout, changed.stderr) == (bare.code, bare.stdout, bare.stderr), edit.__name__
        if edit is _touch:  # a file whose content is unchanged is the same input
            assert changed.replayed and changed.stdout == before.stdout
        else:
            assert not changed.replayed, edit.__name__
        again = program(root, args, monkeypatch)
        assert (again.code, again.stdout, again.stderr) == (bare.code, bare.stdout, bare.stderr), edit.__name__
        assert again.replayed, edit.__name__


def test_an_edit_that_changes_the_findings_is_never_replayed(tmp_path, monkeypatch):
    (tmp_path / "main.tf").write_text('resource "scaleway_k8s_cluster" "c" {\n  name = "c"\n}\n', encoding="utf-8")
    before = same_output(tmp_path, ["--format", "json"], monkeypatch)
    (tmp_path / "main.tf").write_text('\nresource "scaleway_k8s_cluster" "c" {\n  name = "c"\n}\n', encoding="utf-8")
    after = program(tmp_path, ["--format", "json"], monkeypatch)
    assert not after.replayed and after.stdout != before.stdout
    (tmp_path / "other.tf").write_text('variable "v" {}\n', encoding="utf-8")
    assert not program(tmp_path, ["--format", "json"], monkeypatch).replayed  # a new file in the module
    (tmp_path / ".kapsulint.toml").write_text('ignore = ["KAP101"]\n', encoding="utf-8")
    assert not program(tmp_path, ["--format", "json"], monkeypatch).replayed  # a configuration appeared
    assert program(tmp_path, ["--format", "json"], monkeypatch).replayed
    assert not program(tmp_path, ["--format", "json", "--today", "2031-01-01"], monkeypatch).replayed
    assert not program(tmp_path, ["--format", "json"], monkeypatch, {"TF_VAR_region": "nl-ams"}).replayed


def test_runs_that_are_not_plain_lints_are_never_replayed(tmp_path, monkeypatch):
    (tmp_path / "main.tf").write_text('resource "scaleway_k8s_cluster" "c" {\n  name = "c"\n}\n', encoding="utf-8")
    for args in (["--no-cache"], ["--fix"], ["--diff"], ["--show-files"], ["--show-settings"], ["--since", "HEAD"],
                 ["--output", "report.txt"], ["--report", "json=r.json"], ["--eval", "1"], ["--list-rules"],
                 ["-j"], ["--", "."], ["--unknown-option"]):
        assert results.cacheable(args) is None, args
    assert results.cacheable(["--format=json", "-j2", "-q", "--select", "KAP1", "a", "b"]) == ["a", "b"]
    (tmp_path / ".kapsulint.toml").write_text("fix = true\n", encoding="utf-8")
    for _ in range(2):  # the configuration asks for fixes: the run fixes, every time
        assert not program(tmp_path, [], monkeypatch).replayed


def _entries() -> list[Path]:
    from kapsulint.cachedir import cache_dir

    base = cache_dir()
    assert base is not None
    directory = base / results.DIRECTORY
    return sorted(directory.iterdir()) if directory.is_dir() else []


def test_a_damaged_or_foreign_entry_is_ignored_and_replaced(tmp_path, monkeypatch):
    (tmp_path / "main.tf").write_text('resource "scaleway_k8s_cluster" "c" {\n  name = "c"\n}\n', encoding="utf-8")
    args = ["--format", "json", "--select", "KAP1"]
    same_output(tmp_path, args, monkeypatch)
    lookup = _lookup(tmp_path, args, monkeypatch)
    entry = Path(lookup.entry_path)
    good = entry.read_bytes()
    bare = program(tmp_path, ["--no-cache", *args], monkeypatch)
    for damaged in (good[: len(good) // 2], good[:-1] + bytes([good[-1] ^ 1]), b"", os.urandom(200),
                    good.replace(lookup.key.encode(), b"0" * len(lookup.key)),
                    _rewritten(good, lookup.key, {"version": results.VERSION, "exit": 5})):
        entry.write_bytes(damaged)
        run = program(tmp_path, args, monkeypatch)
        assert not run.replayed and (run.code, run.stdout, run.stderr) == (bare.code, bare.stdout, bare.stderr)
        assert entry.read_bytes() != damaged  # replaced by the run's own
        assert program(tmp_path, args, monkeypatch).replayed


def _rewritten(data: bytes, key: str, value: object) -> bytes:
    """An entry with a valid header and checksum around a value of the wrong shape."""
    import marshal
    import zlib

    body = marshal.dumps(value)
    return b"KAPSULINT-RESULTS\n" + key.encode() + b"\n" + b"%08x\n" % zlib.crc32(body) + body


def _lookup(directory: Path, args: list[str], monkeypatch) -> results.Lookup:
    with monkeypatch.context() as scoped:
        scoped.chdir(directory)
        scoped.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace"))
        scoped.setattr(sys, "stderr", io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace"))
        lookup = results.Lookup.start(args)
    assert lookup is not None
    return lookup


def test_an_edited_kapsulint_is_another_key(tmp_path, monkeypatch):
    """An editable install whose code changes never replays what the old code printed."""
    package = tmp_path / "package"
    (package / "sub").mkdir(parents=True)
    (package / "sub" / "rule.py").write_text("ID = 1\n", encoding="utf-8")
    monkeypatch.setattr(results, "_package_directories", lambda: [str(package)])
    before = _lookup(tmp_path, ["--format", "json"], monkeypatch).key
    assert _lookup(tmp_path, ["--format", "json"], monkeypatch).key == before
    (package / "sub" / "rule.py").write_text("ID = 22\n", encoding="utf-8")
    assert _lookup(tmp_path, ["--format", "json"], monkeypatch).key != before
    assert _lookup(tmp_path, ["--format", "text"], monkeypatch).key != before


def test_no_entry_holds_a_sensitive_value(tmp_path, monkeypatch):
    (tmp_path / "main.tf").write_text(
        'variable "pool_name" {\n  type      = string\n  sensitive = true\n  default   = "very-secret-pool"\n}\n\n'
        'resource "scaleway_k8s_pool" "p" {\n  cluster_id = "x"\n  name = var.pool_name\n  node_type = "DEV1-M"\n'
        '  size = 1\n  autoscaling = true\n  min_size = 2\n  max_size = 1\n}\n', encoding="utf-8")
    secret_env = {"TF_VAR_token": "another-secret-token"}
    for output in FORMATS:
        run = same_output(tmp_path, ["--format", output, "--env-vars", "--var", "password=third-secret"],
                          monkeypatch, secret_env)
        assert run.replayed
    for entry in _entries():
        data = entry.read_bytes()
        for secret in (b"very-secret-pool", b"another-secret-token", b"third-secret"):
            assert secret not in data, entry


def test_the_directory_stays_within_its_bound(tmp_path, monkeypatch):
    """Past MAX_BYTES the least recently used entries go (the check runs on one write in sixteen,
    the writes of keys starting with 0)."""
    (tmp_path / "main.tf").write_text('variable "v" {}\n', encoding="utf-8")
    for earlier in _entries():  # other tests' entries: the least recently used of all
        os.utime(earlier, (1_000, 1_000))
    written: list[Path] = []
    for age, output in enumerate(("json", "text", "sarif")):
        before = set(_entries())
        program(tmp_path, ["--format", output], monkeypatch)
        (entry,) = set(_entries()) - before
        os.utime(entry, (1_000_000 + age, 1_000_000 + age))  # use order set, not left to the clock
        written.append(entry)
    newest = written[-1]
    monkeypatch.setattr(results, "MAX_BYTES", newest.stat().st_size)
    results._evict(str(newest.parent))
    assert _entries() == [newest]
    assert program(tmp_path, ["--format", "sarif"], monkeypatch).replayed


def test_a_project_inside_a_library_directory_is_still_read(tmp_path, monkeypatch):
    """Files under the interpreter's and kapsulint's directories are not inputs, unless a PATH is
    there: then nothing above it is left out."""
    library = tmp_path / "lib"
    project = library / "infra"
    monkeypatch.setattr(sys, "path", [str(library), str(tmp_path / "other")])
    excluded = results._excluded([str(project)], str(tmp_path), [])
    assert os.path.join(str(library), "") not in excluded
    assert os.path.join(str(tmp_path / "other"), "") in excluded
    assert os.path.join(str(library), "") in results._excluded([str(tmp_path / "elsewhere")], str(tmp_path), [])


REPLAY_IMPORTS = """\
import sys
from kapsulint.cli.command import program
code = program(["--format", "json", "."])
heavy = sorted(m for m in sys.modules if m.split(".")[0] == "click" or m.startswith(
    ("kapsulint.model", "kapsulint.kapsule", "kapsulint.rules", "kapsulint.reporters", "kapsulint.lint.runner",
     "kapsulint.cli.lint", "kapsulint.cli.settings", "kapsulint.parsing", "kapsulint.terraform")))
with open(sys.argv[1], "w", encoding="utf-8") as report:
    report.write(f"{code} {' '.join(heavy)}")
"""


def test_a_replayed_run_imports_neither_click_nor_the_model(tmp_path):
    import subprocess

    project = tmp_path / "project"
    project.mkdir()
    (project / "main.tf").write_text('resource "scaleway_k8s_cluster" "c" {\n  name = "c"\n}\n', encoding="utf-8")
    seen = []
    for run in ("records", "replays"):
        report = tmp_path / f"{run}.txt"
        subprocess.run([sys.executable, "-c", REPLAY_IMPORTS, str(report)], cwd=project, check=True, timeout=300,
                       capture_output=True)
        code, _, modules = report.read_text(encoding="utf-8").partition(" ")
        seen.append((code, modules.split()))
    assert seen[0][0] == seen[1][0] == "1"
    assert "click" in seen[0][1] and "kapsulint.model.project" in seen[0][1]
    assert seen[1][1] == []


def test_a_link_above_the_project_pointed_elsewhere_is_another_run(tmp_path, monkeypatch):
    for name, line in (("blue", 'name = "blue"'), ("green", '\n\nname = "green"')):
        (tmp_path / name).mkdir()
        (tmp_path / name / "main.tf").write_text(f'resource "scaleway_k8s_cluster" "c" {{\n  {line}\n}}\n',
                                                 encoding="utf-8")
    link = tmp_path / "current"
    link.symlink_to(tmp_path / "blue")
    work = tmp_path / "work"
    work.mkdir()
    same_output(work, ["--format", "json", str(link)], monkeypatch)
    link.unlink()
    link.symlink_to(tmp_path / "green")
    moved = program(work, ["--format", "json", str(link)], monkeypatch)
    bare = program(work, ["--no-cache", "--format", "json", str(link)], monkeypatch)
    assert not moved.replayed and (moved.code, moved.stdout, moved.stderr) == (bare.code, bare.stdout, bare.stderr)


def test_a_linked_file_whose_target_changes_is_another_input(tmp_path, monkeypatch):
    (tmp_path / "main.tf").write_text('resource "scaleway_k8s_cluster" "c" {\n  name = "c"\n}\n', encoding="utf-8")
    (tmp_path / "settings").mkdir()
    target = tmp_path / "settings" / "kapsulint.toml"
    target.write_text('ignore = ["KAP104"]\n', encoding="utf-8")
    (tmp_path / ".kapsulint.toml").symlink_to(target)
    same_output(tmp_path, ["--format", "json"], monkeypatch)
    target.write_text('ignore = ["KAP101"]\n', encoding="utf-8")
    changed = program(tmp_path, ["--format", "json"], monkeypatch)
    bare = program(tmp_path, ["--no-cache", "--format", "json"], monkeypatch)
    assert not changed.replayed and (changed.code, changed.stdout, changed.stderr) == (
        bare.code, bare.stdout, bare.stderr)
