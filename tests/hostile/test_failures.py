"""Every failure is visible (issue 20): a module cycle, an unreadable path, a damaged cache, a closed
stdout, a strange environment and terminal escapes in the input, each as an attacker would try it.

Nothing here may end in a traceback, in "No findings." with exit 0, or in a raw control character
on a terminal. Unreadable files are made for real: ``chmod 000``, which a user cannot read and
root can (root bypasses file permissions with CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH), so as
root kapsulint runs in a child process without those two capabilities (``unprivileged``).
"""

from __future__ import annotations

import ctypes
import errno
import json
import marshal
import os
import sqlite3
import subprocess
import sys
import textwrap
from contextlib import closing, contextmanager
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from fixture_support import lint
from kapsulint.cli.command import main
from kapsulint.scan.cache import DATABASE, decode_entry, encode_entry

TESTS = Path(__file__).resolve().parent.parent
SARIF_SCHEMA = json.loads((TESTS / "schemas" / "sarif-2.1.0.json").read_text(encoding="utf-8"))
ESC = "\x1b"
CLUSTER = """\
resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  version                     = "1.35.2"
  cni                         = "cilium"
  private_network_id          = "fr-par/11111111-1111-1111-1111-111111111111"
  delete_additional_resources = true
}
"""
KAP101_LINE, KAP101_COLUMN = 6, 33  # delete_additional_resources = true, in CLUSTER


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch) -> Path:
    """Each test parses with a cache of its own, outside every linted tree."""
    directory = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("KAPSULINT_CACHE_DIR", str(directory))
    return directory


def write(directory: Path, files: dict[str, str]) -> Path:
    for name, content in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(content), encoding="utf-8")
    return directory


def where(findings: list[dict]) -> list[tuple]:
    return sorted((f["rule"], f["path"], f["line"], f["column"]) for f in findings)


def run(args: list[str], cwd: Path, unprivileged: bool = False, env: dict | None = None,
        stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    """``python -m kapsulint ARGS`` in a process of its own, as a shell would run it."""
    environment = {**os.environ, "NO_COLOR": "1", **(env or {})}
    return subprocess.run([sys.executable, "-m", "kapsulint", *args], cwd=cwd, env=environment, stdout=stdout,
                          stderr=subprocess.PIPE, encoding="utf-8", errors="replace", timeout=120,
                          preexec_fn=without_file_capabilities if unprivileged else None)


# -- unreadable for real, as a user or as root ---------------------------------------------------------

_CAP_DAC_OVERRIDE, _CAP_DAC_READ_SEARCH = 1, 2  # linux/capability.h
_PR_CAPBSET_DROP, _PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 24, 47, 4  # linux/prctl.h
_LINUX_CAPABILITY_VERSION_3 = 0x20080522


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def without_file_capabilities() -> None:
    """In a child before it executes its program: as root, give up for good the two capabilities
    that read any file (capabilities(7): a program root executes gets its bounding set, and the
    inheritable and ambient sets, which are cleared of them too); as a user, nothing to give up."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    header, data = _CapHeader(_LINUX_CAPABILITY_VERSION_3, 0), (_CapData * 2)()
    if libc.capget(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capget")
    data[0].inheritable &= ~((1 << _CAP_DAC_OVERRIDE) | (1 << _CAP_DAC_READ_SEARCH)) & 0xFFFFFFFF
    if libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset")
    libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    for capability in (_CAP_DAC_OVERRIDE, _CAP_DAC_READ_SEARCH):
        if libc.prctl(_PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


@contextmanager
def locked(*paths: Path):
    """``chmod 000`` on each path for the block (then back, so that the test's files can be
    removed), after checking that an unprivileged child cannot read or list it."""
    modes = [path.stat().st_mode for path in paths]
    for path in paths:
        path.chmod(0)
    try:
        for path in paths:
            probe = "import os, sys; p = sys.argv[1]; os.listdir(p) if os.path.isdir(p) else open(p).read()"
            check = subprocess.run([sys.executable, "-c", probe, str(path)], capture_output=True, text=True,
                                   preexec_fn=without_file_capabilities, timeout=60)
            assert check.returncode != 0 and "PermissionError" in check.stderr, f"{path} is still readable"
        yield
    finally:
        for path, mode in zip(paths, modes):
            path.chmod(mode)


# -- "A three-line change switches the linter off": module cycles --------------------------------------


def test_a_child_calling_the_root_is_kap016_and_the_root_is_still_judged(tmp_path, monkeypatch):
    write(tmp_path, {
        "main.tf": 'provider "scaleway" {}\n\n' + CLUSTER + '\nmodule "a" {\n  source = "./a"\n}\n',
        "a/main.tf": 'module "up" {\n  source = "../"\n}\n',
    })
    code, findings, stderr = lint(tmp_path, ["--select", "KAP016,KAP101,KAP403"], monkeypatch)
    assert where(findings) == [("KAP016", "a/main.tf", 2, 12), ("KAP101", "main.tf", KAP101_LINE + 2, KAP101_COLUMN),
                               ("KAP403", "main.tf", 3, 1)]
    cycle = next(f for f in findings if f["rule"] == "KAP016")
    assert cycle["severity"] == "error"
    assert '"." calls module.a ("./a"), "a" calls module.up ("../"), back into "."' in cycle["message"]
    assert [(r["path"], r["line"], r["column"]) for r in cycle["related"]] == [("main.tf", 12, 12)]
    assert code == 1 and stderr == ""


@pytest.mark.parametrize("source", ["./", "./.", "./a/.."])
def test_a_root_calling_itself_is_kap016_whatever_the_count(tmp_path, monkeypatch, source):
    write(tmp_path, {
        "main.tf": CLUSTER + f'\nmodule "again" {{\n  count  = 0\n  source = "{source}"\n}}\n',
        "a/.keep": "",
    })
    code, findings, _ = lint(tmp_path, ["--select", "KAP016,KAP101"], monkeypatch)
    assert where(findings) == [("KAP016", "main.tf", 11, 12), ("KAP101", "main.tf", KAP101_LINE, KAP101_COLUMN)]
    assert code == 1


def test_the_text_report_of_a_cycle_is_not_no_findings(tmp_path):
    write(tmp_path, {"main.tf": 'provider "scaleway" {}\nmodule "self" {\n  source = "./"\n}\n' + CLUSTER})
    result = run(["--select", "KAP016,KAP101", "."], tmp_path)
    assert "No findings." not in result.stdout and "KAP016 module-cycle" in result.stdout
    assert "KAP101" in result.stdout and result.returncode == 1, result.stderr


def test_a_longer_cycle_and_the_other_roots_are_judged(tmp_path, monkeypatch):
    write(tmp_path, {
        "prod/main.tf": 'provider "scaleway" {}\nmodule "a" {\n  source = "../modules/a"\n}\n',
        "modules/a/main.tf": 'module "b" {\n  source = "../b"\n}\n',
        "modules/b/main.tf": 'module "c" {\n  source = "../c"\n}\n' + CLUSTER,
        "modules/c/main.tf": 'module "a" {\n  source = "../a"\n}\n',
        "dev/main.tf": 'provider "scaleway" {}\n' + CLUSTER,
    })
    code, findings, _ = lint(tmp_path, ["--select", "KAP016,KAP101"], monkeypatch)
    assert where(findings) == [("KAP016", "modules/c/main.tf", 2, 12),
                               ("KAP101", "dev/main.tf", KAP101_LINE + 1, KAP101_COLUMN),
                               ("KAP101", "modules/b/main.tf", KAP101_LINE + 3, KAP101_COLUMN)]
    cycle = next(f for f in findings if f["rule"] == "KAP016")
    assert '"modules/a" calls module.b ("../b"), "modules/b" calls module.c ("../c"), "modules/c" calls ' \
           'module.a ("../a"), back into "modules/a"' in cycle["message"]
    assert code == 1


def test_a_cycle_through_a_module_called_twice_is_one_finding(tmp_path, monkeypatch):
    write(tmp_path, {
        "main.tf": 'provider "scaleway" {}\nmodule "blue" {\n  source = "./stack"\n}\n'
                   'module "green" {\n  source = "./stack"\n}\n',
        "stack/main.tf": CLUSTER + 'module "parent" {\n  source = "../"\n}\n',
    })
    code, findings, _ = lint(tmp_path, ["--select", "KAP016,KAP101"], monkeypatch)
    assert where(findings) == [("KAP016", "stack/main.tf", 9, 12),
                               ("KAP101", "stack/main.tf", KAP101_LINE, KAP101_COLUMN)]
    kap101 = next(f for f in findings if f["rule"] == "KAP101")
    assert kap101["instances"] == ["module.blue.scaleway_k8s_cluster.main", "module.green.scaleway_k8s_cluster.main"]
    assert code == 1


def test_two_calls_back_into_the_root_are_two_findings(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": 'provider "scaleway" {}\nmodule "x" {\n  source = "./"\n}\n'
                                'module "y" {\n  source = "../' + tmp_path.name + '"\n}\n'})
    code, findings, _ = lint(tmp_path, ["--select", "KAP016"], monkeypatch)
    assert where(findings) == [("KAP016", "main.tf", 3, 12), ("KAP016", "main.tf", 6, 12)]


def test_a_cycle_is_modelled_once_from_its_root(tmp_path):
    from kapsulint.model.options import ScanOptions
    from kapsulint.model.project import Project

    write(tmp_path, {
        "main.tf": 'provider "scaleway" {}\nmodule "a" {\n  source = "./a"\n}\n',
        "a/main.tf": 'module "up" {\n  source = "../"\n}\nmodule "b" {\n  source = "./b"\n}\n',
        "a/b/main.tf": 'module "top" {\n  source = "../../"\n}\n',
    })
    project = Project(ScanOptions(root=tmp_path, cache=False)).load()
    root, a, b = (project.modules[str(tmp_path / p)] for p in (".", "a", "a/b"))
    assert root.root and not a.root and not b.root
    up, top = a.calls["up"], b.calls["top"]
    assert up.target is None and [c.name for c in up.cycle] == ["a", "up"]
    assert top.target is None and [c.name for c in top.cycle] == ["a", "b", "top"]
    assert [i.address for i in project.instances()] == ["", "module.a", "module.a.module.b"]
    assert project.complete_for(project.top_instances()[0])  # a call back into the tree hides nothing


def test_a_cycle_is_an_error_result_in_sarif_with_its_related_calls(tmp_path):
    write(tmp_path, {"main.tf": 'provider "scaleway" {}\nmodule "a" {\n  source = "./a"\n}\n',
                     "a/main.tf": 'module "up" {\n  source = "../"\n}\n'})
    result = run(["--format", "sarif", "--select", "KAP016", "."], tmp_path)
    log = json.loads(result.stdout)
    jsonschema.validators.validator_for(SARIF_SCHEMA)(SARIF_SCHEMA).validate(log)
    (found,) = log["runs"][0]["results"]
    assert found["ruleId"] == "KAP016" and found["level"] == "error"
    region = found["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (2, 12)
    assert found["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "main.tf"


# -- "Failures look like findings, or like success": unreadable paths ----------------------------------


def unreadable_project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    write(project, {"main.tf": CLUSTER, "network.tf": 'locals { a = 1 }\n', "envs/dev/main.tf": CLUSTER})
    return project


@pytest.mark.parametrize("output_format", ["json", "text", "github", "gitlab", "sarif"])
def test_an_unreadable_file_is_a_located_error_in_every_format(tmp_path, output_format):
    project = unreadable_project(tmp_path)
    with locked(project / "network.tf"):
        result = run(["--format", output_format, "--select", "KAP101", "."], project, unprivileged=True)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr == f"kapsulint: cannot read {project / 'network.tf'}: Permission denied\n"
    out = result.stdout
    if output_format == "json":
        assert where(json.loads(out)) == [("KAP017", "network.tf", 1, 1), ("KAP101", "envs/dev/main.tf", 6, 33),
                                          ("KAP101", "main.tf", 6, 33)]
    elif output_format == "text":
        assert out.startswith("envs/dev/main.tf:6:33: KAP101") or "network.tf:1:1: KAP017 unreadable-path" in out
        assert "network.tf:1:1: KAP017 unreadable-path (error) cannot read network.tf: Permission denied" in out
        assert "No findings." not in out
    elif output_format == "github":
        assert out.startswith("::error file=network.tf,line=1,col=1,endLine=1,endColumn=2,"
                              "title=KAP017 unreadable-path::cannot read network.tf: Permission denied")
    elif output_format == "gitlab":
        issue = next(i for i in json.loads(out) if i["check_name"] == "KAP017")
        assert issue["location"] == {"path": "network.tf", "lines": {"begin": 1, "end": 1}}
        assert issue["severity"] == "major"
    else:
        log = json.loads(out)
        jsonschema.validators.validator_for(SARIF_SCHEMA)(SARIF_SCHEMA).validate(log)
        (invocation,) = log["runs"][0]["invocations"]
        assert invocation["executionSuccessful"] is False
        (notification,) = invocation["toolExecutionNotifications"]
        assert notification["associatedRule"] == {"id": "KAP017"} and notification["level"] == "error"
        assert notification["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "network.tf"
        results = {(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
                   for r in log["runs"][0]["results"]}
        assert results == {("KAP017", "network.tf"), ("KAP101", "main.tf"), ("KAP101", "envs/dev/main.tf")}


def test_an_unreadable_subdirectory_is_kap017_at_the_directory_not_a_traceback(tmp_path):
    project = unreadable_project(tmp_path)
    with locked(project / "envs" / "dev"):
        result = run(["--format", "json", "--select", "KAP101", "."], project, unprivileged=True)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert where(json.loads(result.stdout)) == [("KAP017", "envs/dev", 1, 1), ("KAP101", "main.tf", 6, 33)]


def test_a_directory_that_lists_but_cannot_be_searched_is_kap017_for_what_it_holds(tmp_path):
    project = unreadable_project(tmp_path)
    envs = project / "envs"
    envs.chmod(0o444)  # names can be listed, nothing below can be reached
    try:
        result = run(["--format", "json", "--select", "KAP101", "."], project, unprivileged=True)
    finally:
        envs.chmod(0o755)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert where(json.loads(result.stdout)) == [("KAP017", "envs/dev", 1, 1), ("KAP101", "main.tf", 6, 33)]


@pytest.mark.parametrize("name", ["terraform.tfvars", ".terraform.lock.hcl", "values.yaml", ".kapsulint.toml"])
def test_every_kind_of_file_unreadable_exits_2_without_a_traceback(tmp_path, name):
    project = unreadable_project(tmp_path)
    write(project, {name: "# nothing\n"})
    with locked(project / name):
        result = run(["--format", "json", "--select", "KAP101", "."], project, unprivileged=True)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    if name == ".kapsulint.toml":  # the configuration: a usage error, named
        assert result.stderr == f"kapsulint: error: {project / name}: cannot read: Permission denied\n"
    else:
        assert ("KAP017", name, 1, 1) in where(json.loads(result.stdout))


def test_exit_zero_and_a_selection_never_hide_an_unreadable_file(tmp_path):
    project = unreadable_project(tmp_path)
    with locked(project / "network.tf"):
        for args in (["--exit-zero"], ["--select", "KAP403"], ["--fail-on", "error", "--ignore", "KAP101"]):
            result = run(["--format", "json", *args, "."], project, unprivileged=True)
            assert result.returncode == 2, (args, result.stderr)
            assert ("KAP017", "network.tf", 1, 1) in where(json.loads(result.stdout)), args
        # Ignored by name, the blind spot is accepted: the run ends with the findings' exit code.
        result = run(["--format", "json", "--select", "KAP101", "--ignore", "unreadable-path", "."], project,
                     unprivileged=True)
    assert result.returncode == 1 and "KAP017" not in result.stdout, result.stderr


def test_a_gitignored_unreadable_file_still_fails_the_run(tmp_path, monkeypatch):
    from kapsulint import boundary

    project = unreadable_project(tmp_path)
    write(project, {".gitignore": "secret.auto.tfvars\n", "secret.auto.tfvars": "a = 1\n", ".git/HEAD": ""})
    denied = os.path.realpath(project / "secret.auto.tfvars")
    real_read = boundary.read_regular

    def guarded_read(path, *args, **kwargs):
        if os.path.realpath(path) == denied:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_read(path, *args, **kwargs)

    monkeypatch.setattr(boundary, "read_regular", guarded_read)
    code, findings, _ = lint(project, ["--select", "KAP101"], monkeypatch)
    assert ("KAP017", "secret.auto.tfvars", 1, 1) in where(findings) and code == 2


def test_links_that_lead_nowhere_are_kap017_for_root_too(tmp_path, monkeypatch):
    project = unreadable_project(tmp_path)
    os.symlink("shared/variables.tf", project / "variables.tf")  # no shared/ directory
    os.symlink("b.tf", project / "a.tf")
    os.symlink("a.tf", project / "b.tf")
    os.symlink("loop", project / "loop")  # a directory entry that leads to itself
    code, findings, stderr = lint(project, ["--select", "KAP101"], monkeypatch)
    assert where(findings) == [("KAP017", "a.tf", 1, 1), ("KAP017", "b.tf", 1, 1), ("KAP017", "loop", 1, 1),
                               ("KAP017", "variables.tf", 1, 1), ("KAP101", "envs/dev/main.tf", 6, 33),
                               ("KAP101", "main.tf", 6, 33)]
    assert len(stderr.splitlines()) == 4 and code == 2


def test_a_file_that_vanishes_between_discovery_and_reading_is_kap017(tmp_path, monkeypatch):
    from kapsulint.model import project as project_module

    project = unreadable_project(tmp_path)
    real_discover = project_module.discover

    def discover_then_remove(*args, **kwargs):
        found = real_discover(*args, **kwargs)
        (project / "network.tf").unlink(missing_ok=True)
        return found

    monkeypatch.setattr(project_module, "discover", discover_then_remove)
    code, findings, stderr = lint(project, ["--select", "KAP101"], monkeypatch)
    assert ("KAP017", "network.tf", 1, 1) in where(findings)
    assert "No such file or directory" in next(f["message"] for f in findings if f["rule"] == "KAP017")
    assert code == 2 and stderr.count("cannot read") == 1


def test_an_io_error_while_reading_is_kap017(tmp_path, monkeypatch):
    from kapsulint import boundary

    project = unreadable_project(tmp_path)
    failing = os.path.realpath(project / "network.tf")
    real_read = boundary.read_regular

    def failing_read(path, *args, **kwargs):
        if os.path.realpath(path) == failing:
            raise OSError(errno.EIO, "Input/output error", str(path))
        return real_read(path, *args, **kwargs)

    monkeypatch.setattr(boundary, "read_regular", failing_read)
    code, findings, _ = lint(project, ["--select", "KAP101", "--format", "json"], monkeypatch)
    kap017 = [f for f in findings if f["rule"] == "KAP017"]
    assert [(f["path"], f["line"], f["column"]) for f in kap017] == [("network.tf", 1, 1)]
    assert "Input/output error" in kap017[0]["message"] and code == 2


def test_show_files_names_what_it_could_not_read(tmp_path, monkeypatch):
    project = unreadable_project(tmp_path)
    os.symlink("nowhere.tf", project / "dangling.tf")
    monkeypatch.chdir(project)
    result = CliRunner().invoke(main, ["--show-files"], catch_exceptions=False)
    assert "# cannot read: dangling.tf (broken symbolic link)" in result.stdout.splitlines()


# -- the Action on an unreadable file ------------------------------------------------------------------


def action_step(tmp_path: Path, inputs: dict[str, str], unprivileged: bool) -> subprocess.CompletedProcess:
    """``action/run.sh lint`` as the runner runs it (see tests/test_action.py), with the checkout's kapsulint."""
    from test_action import ROOT, SCRIPT, fake_venv

    fake_venv(tmp_path, f"#!/bin/sh\nexec {sys.executable} -m kapsulint \"$@\"\n")
    workspace = tmp_path / "workspace"
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "GITHUB_WORKSPACE": str(workspace),
           "RUNNER_TEMP": str(tmp_path / "runner-temp"), "GITHUB_ACTION_PATH": str(ROOT),
           "GITHUB_OUTPUT": str(tmp_path / "output"), "KAPSULINT_CACHE_DIR": str(tmp_path / "cache"),
           "NO_COLOR": "1", "PYTHONPATH": os.pathsep.join(sys.path), **inputs}
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(SCRIPT), "lint"], cwd=workspace,
                          env=env, capture_output=True, text=True, timeout=120,
                          preexec_fn=without_file_capabilities if unprivileged else None)


@pytest.mark.parametrize("how", ["chmod 000", "dangling link"])
def test_the_action_fails_its_step_on_an_unreadable_file_even_with_fail_on_findings_false(tmp_path, how):
    workspace = tmp_path / "workspace"
    write(workspace, {"main.tf": CLUSTER, "network.tf": "locals { a = 1 }\n", ".git/HEAD": ""})
    inputs = {"KAPSULINT_SARIF": "k.sarif", "KAPSULINT_FAIL": "false", "KAPSULINT_ARGS": "--select\nKAP101"}
    if how == "chmod 000":
        with locked(workspace / "network.tf"):
            result = action_step(tmp_path, inputs, unprivileged=True)
    else:
        (workspace / "network.tf").unlink()
        os.symlink("modules/network.tf", workspace / "network.tf")
        result = action_step(tmp_path, inputs, unprivileged=False)
    assert result.returncode == 2, result.stderr
    assert "::error file=network.tf,line=1,col=1," in result.stdout
    log = json.loads((workspace / "k.sarif").read_text())  # written, for the upload step
    assert log["runs"][0]["invocations"][0]["executionSuccessful"] is False
    assert {r["ruleId"] for r in log["runs"][0]["results"]} == {"KAP017", "KAP101"}
    # The same project, readable, with fail-on-findings false: the step passes.
    (workspace / "network.tf").unlink()
    (workspace / "network.tf").write_text("locals { a = 1 }\n")
    assert action_step(tmp_path, inputs, unprivileged=False).returncode == 0


def test_the_readme_workflow_uploads_the_sarif_whatever_the_step_gave():
    readme = (TESTS.parent / "README.md").read_text(encoding="utf-8")
    upload = readme.split("github/codeql-action/upload-sarif@", 1)[1].split("\n", 2)[1]
    assert upload.strip().startswith("if: always() && hashFiles('kapsulint.sarif') != ''")


# -- "Failures look like findings, or like success": damaged cache entries -----------------------------


def cached_project(tmp_path: Path, monkeypatch, cache: Path) -> tuple[Path, list[dict], str, bytes]:
    """A project linted once: (project, findings, the file's cache key, its entry)."""
    project = tmp_path / "project"
    write(project, {"main.tf": CLUSTER})
    code, findings, _ = lint(project, [], monkeypatch)
    assert code == 1 and findings
    with closing(sqlite3.connect(cache / DATABASE)) as connection:
        ((key, entry),) = connection.execute("SELECT key, blob FROM entries").fetchall()
    return project, findings, key, entry


def store(cache: Path, key: str, entry: bytes) -> None:
    with closing(sqlite3.connect(cache / DATABASE)) as connection, connection:
        connection.execute("UPDATE entries SET blob = ? WHERE key = ?", (entry, key))


def stored(cache: Path, key: str) -> bytes | None:
    with closing(sqlite3.connect(cache / DATABASE)) as connection:
        row = connection.execute("SELECT blob FROM entries WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def damaged(value: dict, how: str) -> object:
    block = value["data"]["body"]["blocks"][0]
    attribute = block["body"]["attrs"][-1]
    if how == "no data key":
        return {k: v for k, v in value.items() if k != "data"}
    if how == "data None":
        return {**value, "data": None}
    if how == "not a dict":
        return ["data"]
    if how == "body missing":
        return {**value, "data": {}}
    if how == "blocks not a list":
        value["data"]["body"]["blocks"] = {"0": block}
    elif how == "labels a number":
        block["labels"] = 5
    elif how == "label a number":
        block["labels"] = [5, "main"]
    elif how == "type None":
        block["type"] = None
    elif how == "position of strings":
        attribute["p"] = ["6", "3", "6", "30"]
    elif how == "position too short":
        block["p"] = [1, 1]
    elif how == "argument name a number":
        attribute["name"] = 7
    elif how == "expression a string":
        attribute["expr"] = "true"
    elif how == "expression without kind":
        attribute["expr"] = {"v": True, "p": attribute["expr"]["p"]}
    elif how == "comments not a list":
        value["comments"] = "none"
    elif how == "error of the wrong shape":
        value["error"] = "broken"
        value["data"] = None
    elif how == "internal error stored":
        value["internal"] = "boom"
    elif how == "left out of the wrong shape":
        value["left_out"] = "why"
    elif how == "left out key missing":
        del value["left_out"]
    return value


DAMAGES = ["no data key", "data None", "not a dict", "body missing", "blocks not a list", "labels a number",
           "label a number", "type None", "position of strings", "position too short", "argument name a number",
           "expression a string", "expression without kind", "comments not a list", "error of the wrong shape",
           "internal error stored", "left out of the wrong shape", "left out key missing"]


@pytest.mark.parametrize("how", DAMAGES)
def test_a_damaged_entry_with_a_valid_header_is_dropped_and_parsed_again(tmp_path, monkeypatch, private_cache, how):
    project, expected, key, entry = cached_project(tmp_path, monkeypatch, private_cache)
    store(private_cache, key, encode_entry(key, damaged(decode_entry(key, entry), how)))  # header and checksum valid
    code, findings, stderr = lint(project, [], monkeypatch)
    assert (code, findings, stderr) == (1, expected, "")
    assert decode_entry(key, stored(private_cache, key)) == decode_entry(key, entry)  # replaced by a fresh parse


@pytest.mark.parametrize("how", ["one bit flipped", "truncated", "data rewritten, old checksum",
                                 "header without checksum", "empty"])
def test_damaged_bytes_are_caught_by_the_checksum(tmp_path, monkeypatch, private_cache, how):
    project, expected, key, entry = cached_project(tmp_path, monkeypatch, private_cache)
    magic, key_line, checksum, data = entry.split(b"\n", 3)
    if how == "one bit flipped":
        position = len(entry) // 2
        blob = entry[:position] + bytes([entry[position] ^ 0x10]) + entry[position + 1:]
    elif how == "truncated":
        blob = entry[:-7]
    elif how == "data rewritten, old checksum":
        blob = b"\n".join([magic, key_line, checksum, marshal.dumps({"data": None, "error": None, "comments": [],
                                                                      "left_out": None})])
    elif how == "header without checksum":  # an entry of the format before the checksum
        blob = b"\n".join([magic, key_line, marshal.dumps({"something": "else"})])
    else:
        blob = b""
    store(private_cache, key, blob)
    assert decode_entry(key, blob) is None
    assert lint(project, [], monkeypatch)[:2] == (1, expected)
    assert stored(private_cache, key) == entry or decode_entry(key, stored(private_cache, key)) is not None


def test_damage_deeper_than_the_checks_fails_one_run_located_then_heals(tmp_path, monkeypatch, private_cache):
    project, expected, key, entry = cached_project(tmp_path, monkeypatch, private_cache)
    value = decode_entry(key, entry)
    for attribute in value["data"]["body"]["blocks"][0]["body"]["attrs"]:
        attribute["expr"] = {"t": "op", "p": attribute["expr"]["p"]}  # an operator without operands
    store(private_cache, key, encode_entry(key, value))
    code, findings, stderr = lint(project, [], monkeypatch)
    assert code == 2 and "Traceback" not in stderr
    assert {f["rule"] for f in findings} >= {"KAP008"}
    assert all(f["path"] == "main.tf" for f in findings)
    assert stored(private_cache, key) is None  # dropped: the next run parses the file again
    assert lint(project, [], monkeypatch)[:2] == (1, expected)


def test_damaged_template_and_yaml_text_entries_are_parsed_again(tmp_path, monkeypatch, private_cache):
    project = tmp_path / "project"
    write(project, {
        "main.tf": """\
            resource "helm_release" "ingress" {
              name       = "ingress"
              repository = "https://kubernetes.github.io/ingress-nginx"
              chart      = "ingress-nginx"
              version    = "4.12.1"
              values     = [templatefile("${path.module}/ingress.yaml.tftpl", { policy = "Cluster" }),
                            yamldecode(yamlencode({ a = 1 })) == null ? "" : file("${path.module}/extra.txt")]
            }
            """,
        "ingress.yaml.tftpl": "controller:\n  service:\n    externalTrafficPolicy: ${policy}\n",
        "extra.txt": "controller:\n  kind: Deployment\n",
    })
    code, expected, _ = lint(project, [], monkeypatch)
    with closing(sqlite3.connect(private_cache / DATABASE)) as connection:
        entries = connection.execute("SELECT key, blob FROM entries").fetchall()
    kinds = {}
    for key, blob in entries:
        value = decode_entry(key, blob)
        kinds[key] = "template" if "node" in value else "yaml-text" if "parsed" in value or "error" in value \
            and "data" not in value else "file"
    assert "template" in kinds.values()
    for key, kind in kinds.items():
        if kind == "template":
            store(private_cache, key, encode_entry(key, {"node": "not a node"}))
        elif kind == "yaml-text":
            store(private_cache, key, encode_entry(key, {"parsed": None}))
    assert lint(project, [], monkeypatch)[:2] == (code, expected)


# -- "Failures look like findings, or like success": no traceback, whatever happens --------------------


def test_a_bug_in_a_reporter_is_one_line_and_exit_2_and_the_other_reports_are_written(tmp_path, monkeypatch):
    from kapsulint.reporters import text

    write(tmp_path, {"main.tf": CLUSTER})

    def broken(findings, context):
        raise KeyError("column")

    monkeypatch.setattr(text, "render", broken)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["--report", "sarif=k.sarif"], catch_exceptions=False)
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith("kapsulint: internal error: KeyError: 'column' (a bug in kapsulint")
    assert "https://github.com/kapsulint/kapsulint/issues" in line
    assert "KAP101" in {r["ruleId"] for r in json.loads((tmp_path / "k.sarif").read_text())["runs"][0]["results"]}


def test_a_bug_anywhere_in_the_run_is_one_line_and_exit_2(tmp_path, monkeypatch):
    from kapsulint.lint import runner

    write(tmp_path, {"main.tf": CLUSTER})

    def broken(findings):
        raise RuntimeError("merging\nfailed")

    monkeypatch.setattr(runner, "_merge_instances", broken)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, [], catch_exceptions=False)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "kapsulint: internal error: RuntimeError: merging failed (a bug in kapsulint, not in the code it read: "
        "please report it at https://github.com/kapsulint/kapsulint/issues with the command line and, if you can, "
        "the files that reproduce it)"]


def test_a_gitignore_pattern_python_cannot_read_is_no_traceback(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER, ".gitignore": "[z-a]\n*.bak\n", ".git/HEAD": ""})
    code, findings, stderr = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert (code, where(findings), stderr) == (1, [("KAP101", "main.tf", 6, 33)], "")


@pytest.mark.parametrize("args, code", [
    ([], 1),
    (["--select", "KAP403", "--exit-zero"], 0),
    (["--list-rules"], 0),
    (["--list-rules", "--format", "json"], 0),
    (["--explain", "KAP017"], 0),
    (["--eval", "local.names", "--eval", "1 + 1"], 0),
    (["--version"], 0),
    (["--show-files"], 0),
    (["--show-settings"], 0),
    (["--format", "sarif"], 1),
    (["--statistics"], 1),
])
def test_a_closed_stdout_ends_quietly_with_the_documented_exit_code(tmp_path, args, code):
    write(tmp_path, {"main.tf": CLUSTER + 'locals {\n  names = [for i in range(2000) : "pool-${i}"]\n}\n'})
    reader, writer = os.pipe()
    os.close(reader)  # the reader has gone before the first byte: every write meets a closed pipe
    try:
        result = run(args, tmp_path, stdout=writer)
    finally:
        os.close(writer)
    assert (result.returncode, result.stderr) == (code, "")


def test_head_1_on_a_failing_run_keeps_exit_2(tmp_path):
    write(tmp_path, {"main.tf": CLUSTER})
    os.symlink("nowhere.tf", tmp_path / "dangling.tf")
    shell = subprocess.run(["bash", "-c", f"{sys.executable} -m kapsulint . | head -1; echo \"${{PIPESTATUS[0]}}\""],
                           cwd=tmp_path, capture_output=True, text=True, timeout=120,
                           env={**os.environ, "NO_COLOR": "1"})
    assert shell.stdout.splitlines()[-1] == "2"
    assert "BrokenPipe" not in shell.stderr and "Exception ignored" not in shell.stderr


def test_a_closed_stderr_keeps_the_exit_code(tmp_path):
    write(tmp_path, {"main.tf": CLUSTER})
    os.symlink("nowhere.tf", tmp_path / "dangling.tf")
    reader, writer = os.pipe()
    os.close(reader)
    try:
        result = subprocess.run([sys.executable, "-m", "kapsulint", "--format", "json", "."], cwd=tmp_path,
                                stdout=subprocess.PIPE, stderr=writer, text=True, timeout=120)
    finally:
        os.close(writer)
    assert result.returncode == 2 and json.loads(result.stdout)


# -- the environment -------------------------------------------------------------------------------


def test_no_home_directory_is_no_cache_not_a_traceback(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER})
    for name in ("KAPSULINT_CACHE_DIR", "HOME", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)

    def no_home(cls=None):
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(Path, "home", classmethod(no_home))
    code, findings, stderr = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert (code, where(findings), stderr) == (1, [("KAP101", "main.tf", 6, 33)], "")


def test_home_unset_in_a_real_process(tmp_path):
    write(tmp_path, {"main.tf": CLUSTER})
    env = {k: v for k, v in os.environ.items() if k not in ("HOME", "KAPSULINT_CACHE_DIR", "XDG_CACHE_HOME")}
    result = subprocess.run([sys.executable, "-m", "kapsulint", "--select", "KAP101", "-q", "."], cwd=tmp_path,
                            env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and "KAP101" in result.stdout and result.stderr == ""


@pytest.mark.parametrize("where_to", ["a file", "a broken link", "a link to a file", "relative"])
def test_a_cache_directory_that_cannot_be_one_only_turns_the_cache_off(tmp_path, monkeypatch, where_to):
    project = write(tmp_path / "project", {"main.tf": CLUSTER})
    target = tmp_path / "cache-target"
    if where_to == "a file":
        target.write_text("not a directory")
    elif where_to == "a broken link":
        os.symlink(tmp_path / "nowhere", target)
    elif where_to == "a link to a file":
        (tmp_path / "file").write_text("x")
        os.symlink(tmp_path / "file", target)
    if where_to == "relative":
        monkeypatch.delenv("KAPSULINT_CACHE_DIR")
        monkeypatch.setenv("XDG_CACHE_HOME", "cache")  # relative: ignored, never the linted tree
        monkeypatch.setenv("HOME", "home")
    else:
        monkeypatch.setenv("KAPSULINT_CACHE_DIR", str(target))
    before = sorted(p.name for p in project.iterdir())
    code, findings, stderr = lint(project, ["--select", "KAP101"], monkeypatch)
    assert (code, where(findings), stderr) == (1, [("KAP101", "main.tf", 6, 33)], "")
    assert sorted(p.name for p in project.iterdir()) == before  # nothing written in the linted tree


def test_a_cache_directory_behind_a_link_is_used(tmp_path, monkeypatch):
    project = write(tmp_path / "project", {"main.tf": CLUSTER})
    (tmp_path / "real-cache").mkdir()
    os.symlink(tmp_path / "real-cache", tmp_path / "cache-link")
    monkeypatch.setenv("KAPSULINT_CACHE_DIR", str(tmp_path / "cache-link"))
    assert lint(project, ["--select", "KAP101"], monkeypatch)[0] == 1
    assert (tmp_path / "real-cache" / DATABASE).is_file()


def test_an_unwritable_cache_directory_only_turns_the_cache_off(tmp_path):
    project = write(tmp_path / "project", {"main.tf": CLUSTER})
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o555)
    if os.geteuid() == 0:
        os.chown(cache, 12345, 12345)  # another user's: root without its file capabilities cannot write there
    result = run(["--select", "KAP101", "--format", "json", "."], project, unprivileged=True,
                 env={"KAPSULINT_CACHE_DIR": str(cache)})
    assert result.returncode == 1 and where(json.loads(result.stdout)) == [("KAP101", "main.tf", 6, 33)]
    assert list(cache.iterdir()) == [] and "Traceback" not in result.stderr


@pytest.mark.parametrize("env", [{"LC_ALL": "C", "LANG": "C"}, {"LC_ALL": "C", "PYTHONUTF8": "0"},
                                 {"PYTHONIOENCODING": "ascii"}, {"PYTHONIOENCODING": "latin-1"}])
def test_a_locale_that_is_not_utf8_prints_every_report(tmp_path, env):
    write(tmp_path, {"main.tf": CLUSTER.replace('"prod"', '"prod-ñandú-集群"'),
                     "node.tf": 'resource "scaleway_k8s_pool" "p" {\n  cluster_id = "x"\n  node_type = "DÉV1-☃"\n'
                                '  size = 1\n}\n'})
    for output_format in ("text", "json", "github", "sarif"):
        result = run(["--format", output_format, "--select", "KAP101,KAP204", "."], tmp_path, env=env)
        assert result.returncode == 1 and "Traceback" not in result.stderr, (output_format, result.stderr)
        assert "KAP204" in result.stdout


def test_file_names_that_are_not_utf8_are_reported_in_every_format(tmp_path):
    directory = os.fsencode(tmp_path) + b"/caf\xe9"
    os.mkdir(directory)
    with open(directory + b"/main.tf", "w", encoding="utf-8") as handle:
        handle.write(CLUSTER)
    outputs = {f: run(["--format", f, "--select", "KAP101", "."], tmp_path)
               for f in ("text", "json", "github", "gitlab", "sarif")}
    for name, result in outputs.items():
        assert result.returncode == 1 and result.stderr == "", (name, result.stderr)
    assert outputs["text"].stdout.startswith("caf\\xe9/main.tf:6:33: KAP101")
    assert "file=caf\\xe9/main.tf," in outputs["github"].stdout
    sarif = json.loads(outputs["sarif"].stdout)
    uri = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "caf%E9/main.tf"  # the file name's own byte, percent-encoded


def test_a_removed_working_directory(tmp_path):
    write(tmp_path / "project", {"main.tf": CLUSTER})
    gone = tmp_path / "gone"
    gone.mkdir()
    script = ("import os, sys, runpy; os.chdir(sys.argv[1]); os.rmdir(sys.argv[1]); sys.argv = sys.argv[2:]; "
              "runpy.run_module('kapsulint', run_name='__main__')")
    absolute = subprocess.run([sys.executable, "-c", script, str(gone), "kapsulint", "--select", "KAP101", "-q",
                               str(tmp_path / "project")], capture_output=True, text=True, timeout=120)
    assert absolute.returncode == 1 and "main.tf:6:33: KAP101" in absolute.stdout, absolute.stderr
    assert "working directory no longer exists" in absolute.stderr and "Traceback" not in absolute.stderr
    gone.mkdir()
    relative = subprocess.run([sys.executable, "-c", script, str(gone), "kapsulint", "."], capture_output=True,
                              text=True, timeout=120)
    assert relative.returncode == 2 and relative.stdout == ""
    assert relative.stderr.startswith("kapsulint: error: the working directory no longer exists")


# -- "Terminal escapes" ----------------------------------------------------------------------------

HOSTILE = {
    "clipboard": "\x1b]52;c;ZWNobyBwd25lZA==\x07",  # OSC 52: writes the terminal's clipboard
    "link": "\x1b]8;;https://attacker.example/\x1b\\click\x1b]8;;\x1b\\",  # OSC 8: a hidden link
    "csi": "\x1b[2J\x1b[1;1H\x1b[8m",  # clears the screen, hides what follows
    "c1": "\x9b31m\x9d0;title\x9c",  # the same as 8-bit C1 controls
    "controls": "bell\x07back\x08\x7fnul-less\x0b\x0c\r",
    "bidi": "admin\u202e\u2066 nimda\u2069\u202c\u200f",  # Trojan Source reordering
}


def _hcl_string(text: str) -> str:
    """``text`` as an HCL string literal: every control and non-ASCII character as a \\uNNNN escape."""
    return '"' + "".join(c if 32 <= ord(c) < 127 and c not in '"\\$%' else f"\\u{ord(c):04x}" for c in text) + '"'


def _raw_controls(text: str) -> list[str]:
    return sorted({c for c in text if (ord(c) < 32 and c not in "\n\t") or 0x7f <= ord(c) <= 0x9f
                   or c in "\u061c\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"})


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_values_in_messages_reach_no_report_raw(tmp_path, kind):
    value = HOSTILE[kind]
    write(tmp_path, {"main.tf": f'resource "scaleway_k8s_pool" "p" {{\n  cluster_id = "x"\n'
                                f'  node_type  = {_hcl_string("PRO2-" + value)}\n  size       = 1\n}}\n'})
    seen = {}
    for output_format in ("text", "github", "gitlab", "json", "sarif"):
        result = run(["--format", output_format, "--select", "KAP204", "."], tmp_path)
        assert result.returncode == 1, result.stderr
        seen[output_format] = result.stdout
        assert _raw_controls(result.stdout) == [], output_format
    assert '\\x1b]52' in seen["text"] if kind == "clipboard" else True
    assert '\\u202e' in seen["github"] if kind == "bidi" else True
    message = json.loads(seen["json"])[0]["message"]
    assert "PRO2-" + value in message  # JSON carries the value itself, escaped by the encoder
    assert json.loads(seen["sarif"])["runs"][0]["results"][0]["message"]["text"].count("PRO2-" + value) == 1


def test_source_lines_paths_related_locations_and_instances_are_escaped(tmp_path):
    evil_dir = "mod\x1b]52;c;AAAA\x07\u202e"
    write(tmp_path, {
        "main.tf": f'provider "scaleway" {{}}\nmodule "m" {{\n  source = "./{evil_dir}"\n}}\n',
        f"{evil_dir}/main.tf": 'module "back" {\n  source = "../"\n}\n',
        f"{evil_dir}/pools.tf": 'resource "scaleway_k8s_pool" "p" { # \x1b]8;;x\x1b\\\n'
                                f'  for_each   = toset([{_hcl_string("a" + HOSTILE["csi"])}, "b"])\n'
                                '  cluster_id = "x"\n  node_type  = "PRO2-XS"\n  size       = 1\n}\n',
    })
    text = run(["--select", "KAP016,KAP206", "."], tmp_path).stdout
    assert _raw_controls(text) == []
    assert "mod\\x1b]52;c;AAAA\\x07\\u202e/main.tf:2:12: KAP016" in text  # the path
    assert '"mod\\x1b]52;c;AAAA\\x07\\u202e" calls module.back' in text  # the message
    assert "= main.tf:3:12: module.m in \".\", a call of the cycle" in text  # the related location
    assert 'module.m.scaleway_k8s_pool.p["a\\u001b[2J\\u001b[1;1H\\u001b[8m"]' in text  # the instances
    snippet = next(line for line in text.splitlines() if line.startswith("    1 | resource"))  # the source line
    assert snippet == '    1 | resource "scaleway_k8s_pool" "p" { # \\x1b]8;;x\\x1b\\'
    assert "a call of the cycle" in text
    github = run(["--format", "github", "--select", "KAP016,KAP206", "."], tmp_path).stdout
    gitlab = run(["--format", "gitlab", "--select", "KAP016,KAP206", "."], tmp_path).stdout
    assert _raw_controls(github) == [] and _raw_controls(gitlab) == []
    assert {i["location"]["path"] for i in json.loads(gitlab)} == {"mod\\x1b]52;c;AAAA\\x07\\u202e/main.tf",
                                                                   "mod\\x1b]52;c;AAAA\\x07\\u202e/pools.tf"}


def test_a_marker_stays_under_its_value_after_escapes(tmp_path):
    write(tmp_path, {"main.tf": 'resource "scaleway_k8s_pool" "p" {\n  cluster_id = "x"\n'
                                '  node_type = /* \x1b[8m */ "NOPE-1"\n  size = 1\n}\n'})
    lines = run(["--select", "KAP204", "."], tmp_path).stdout.splitlines()
    source, marker = lines[1], lines[2]
    assert source == '    3 |   node_type = /* \\x1b[8m */ "NOPE-1"'
    assert marker[marker.index("^"):] == "^" * len('"NOPE-1"')
    assert source.index('"NOPE-1"') == marker.index("^")


def test_a_github_message_can_never_start_another_workflow_command(tmp_path):
    write(tmp_path, {"main.tf": 'resource "scaleway_k8s_pool" "p" {\n  cluster_id = "x"\n'
                                '  node_type  = "X\\n::error file=README.md::pwned %0A\\r::add-mask::x"\n'
                                '  size       = 1\n}\n'})
    lines = run(["--format", "github", "--select", "KAP204", "."], tmp_path).stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("::warning file=main.tf,line=3,")
    assert "%250A" in lines[0] and "\\n::error" in lines[0] and "\\r::add-mask" in lines[0]


def test_every_text_reporter_escapes_message_fix_related_and_instances():
    from kapsulint.findings import Finding, Loc, Related, Severity
    from kapsulint.lint.registry import all_rules
    from kapsulint.reporters import ReportContext, render

    hostile = "".join(HOSTILE.values())
    finding = Finding(Loc(f"/repo/dir{ESC}[31m/main.tf", 1, 1, 1, 2), f"message {hostile}", rule="KAP204",
                      related=(Related(Loc(f"/repo/{ESC}]52;c;x\x07.tf", 2, 3, 2, 4), f"related {hostile}"),),
                      fix=f"fix {hostile}", instances=[f"pool[{hostile}]", "pool[b]"])
    finding.name, finding.severity = "unknown-node-type", Severity.WARNING
    context = ReportContext(rules=list(all_rules()), cwd="/repo", repo_root="/repo", version="0")
    escaped = "\\x1b]52;c;ZWNobyBwd25lZA==\\x07"
    text, github = render("text", [finding], context), render("github", [finding], context)
    issue = json.loads(render("gitlab", [finding], context))[0]
    for report in (text, github, json.dumps(issue, ensure_ascii=False)):
        assert _raw_controls(report) == []
    assert text.count(escaped) == 4  # message, related, instances, fix
    assert "dir\\x1b[31m/main.tf:1:1:" in text and "= \\x1b]52;c;x\\x07.tf:2:3: related" in text
    assert github.count(escaped) == 2 and "file=dir\\x1b[31m/main.tf," in github  # message, fix; the path
    assert issue["description"].count(escaped) == 1 and issue["location"]["path"] == "dir\\x1b[31m/main.tf"


def test_printable_names_each_character_it_escapes():
    from kapsulint.reporters import printable, printable_lines

    assert printable("plain text, é, 集群, emoji 🙂") == "plain text, é, 集群, emoji 🙂"
    assert printable("\x1b]52;c;QQ==\x07") == "\\x1b]52;c;QQ==\\x07"
    assert printable("a\tb\nc\rd\x00\x7f\x85\x9b") == "a\\tb\\nc\\rd\\x00\\x7f\\x85\\x9b"
    assert printable("\u202aLRE\u202bRLE\u202cPDF\u202dLRO\u202eRLO\u2066LRI\u2067RLI\u2068FSI\u2069PDI") == (
        "\\u202aLRE\\u202bRLE\\u202cPDF\\u202dLRO\\u202eRLO\\u2066LRI\\u2067RLI\\u2068FSI\\u2069PDI")
    assert printable("\u061c\u200e\u200f\u2028\u2029") == "\\u061c\\u200e\\u200f\\u2028\\u2029"
    assert printable(os.fsdecode(b"caf\xe9.tf")) == "caf\\xe9.tf"  # a byte of a name that is not UTF-8
    assert printable_lines("line one\n\tline two\x1b[0m\n") == "line one\n\tline two\\x1b[0m\n"


def test_stderr_escapes_paths_too(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER})
    os.symlink("nowhere", tmp_path / f"x{ESC}]52;c;QQ==\x07.tf")
    code, _, stderr = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert code == 2 and _raw_controls(stderr) == []
    assert stderr == f"kapsulint: cannot read {tmp_path}/x\\x1b]52;c;QQ==\\x07.tf: broken symbolic link\n"
