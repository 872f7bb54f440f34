"""The repository boundary under attack: what a pull request writes never makes kapsulint read,
follow or print anything outside the repository (the git top level of the project root, else the
project root).

Each case builds a repository in a temporary directory and, beside it, a directory standing for
the rest of the machine, holding a unique marker; the marker (and a unique environment variable's
value) must never reach a report. Nothing here reads outside the temporary directory, except
what the boundary refuses before reading (``/proc/self/environ``, ``/dev/zero``, ``/``): those
cases prove the refusal. Runs that could hang if the boundary broke (a FIFO, ``/dev/zero``, a
link to ``/``) run in a subprocess bounded by a generous timeout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner

from kapsulint.boundary import OUTSIDE, Boundary, Refused, read_regular, repository_of
from kapsulint.cli.command import main
from kapsulint.findings import Finding, Loc, Severity
from kapsulint.lint.registry import all_rules
from kapsulint.reporters import ReportContext, render

TIMEOUT = 120  # seconds: bounds a hang, never a speed assertion
ENV_NAME = "KAPSULINT_HOSTILE_MARKER"

CLUSTER = """\
resource "scaleway_k8s_cluster" "main" {{
  name                        = "{name}"
  version                     = "1.31"
  cni                         = "cilium"
  delete_additional_resources = true
}}
"""


def write(directory: Path, files: dict[str, str]) -> Path:
    for name, content in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return directory


class Site:
    """A repository and, beside it, what stands for the rest of the machine."""

    def __init__(self, root: Path) -> None:
        self.marker = f"OUTSIDE-{uuid.uuid4().hex}"
        self.repo = root / "repo"
        self.outside = root / "outside"
        self.repo.mkdir()
        subprocess.run(["git", "init", "-q", str(self.repo)], check=True, capture_output=True)
        write(self.outside, {
            "secret.txt": f"{self.marker}\n",
            "secret.tfvars": f'name = "{self.marker}"\n',
            "values.yaml": f"controller:\n  name: {self.marker}\n",
            "main.tf": CLUSTER.format(name=self.marker),
            "mod/main.tf": 'variable "name" {}\n' + CLUSTER.format(name=self.marker),
        })

    def link(self, name: str, target: str | Path) -> Path:
        """A symbolic link in the repository to ``target`` (relative to the link, or absolute)."""
        path = self.repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.symlink_to(target)
        return path


@pytest.fixture
def site(tmp_path: Path) -> Site:
    return Site(tmp_path)


def cli(directory: Path, args: list[str], monkeypatch) -> tuple[int, str, str]:
    """Run kapsulint in ``directory``, in this process: (exit code, stdout, stderr)."""
    monkeypatch.chdir(directory)
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def findings(directory: Path, args: list[str], monkeypatch) -> list[dict]:
    code, out, err = cli(directory, ["--format", "json", *args], monkeypatch)
    assert code in (0, 1), err
    return json.loads(out)


def where(found: list[dict], rule: str | None = None) -> list[tuple[str, str, int, int]]:
    return sorted((f["rule"], f["path"], f["line"], f["column"]) for f in found if rule in (None, f["rule"]))


def evaluate(directory: Path, expressions: list[str], monkeypatch) -> list[dict]:
    args = [item for expression in expressions for item in ("--eval", expression)]
    code, out, err = cli(directory, [*args, "."], monkeypatch)
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


def process(directory: Path, args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Run kapsulint in a process of its own, bounded by TIMEOUT (a hang fails the test)."""
    return subprocess.run([sys.executable, "-m", "kapsulint", *args], cwd=directory, capture_output=True,
                          text=True, timeout=TIMEOUT, env={**os.environ, **(env or {})})


def show_files(directory: Path, monkeypatch) -> list[str]:
    code, out, err = cli(directory, ["--show-files"], monkeypatch)
    assert code == 0, err
    return out.splitlines()


# -- the boundary itself ------------------------------------------------------------------------


def test_the_boundary_is_the_git_top_level_of_the_project_root(tmp_path):
    write(tmp_path, {"repo/.git/HEAD": "ref: refs/heads/main\n", "repo/infra/prod/main.tf": ""})
    assert repository_of(tmp_path / "repo" / "infra" / "prod") == (tmp_path / "repo").resolve()
    alone = write(tmp_path, {"alone/main.tf": ""}) / "alone"
    assert repository_of(alone) == alone.resolve()


def test_the_boundary_resolves_links_before_judging(site):
    boundary = Boundary(site.repo, 1024)
    write(site.repo, {"inside.txt": "hello\n", "dir/inner.txt": "x"})
    site.link("to-inside", "inside.txt")
    site.link("to-outside", site.outside / "secret.txt")
    site.link("out-dir", "../outside")
    site.link("up", "..")
    assert boundary.contains(site.repo / "inside.txt") and boundary.contains(site.repo / "to-inside")
    assert not boundary.contains(site.repo / "to-outside")
    assert not boundary.contains(site.repo / "out-dir" / "secret.txt")  # through a linked directory
    assert not boundary.contains(site.repo / "dir" / ".." / ".." / "outside" / "secret.txt")
    assert not boundary.contains(site.repo / "up")
    assert not boundary.contains("/etc/passwd")
    assert [boundary.kind(site.repo / name) for name in ("inside.txt", "dir", "absent", "to-outside")] == [
        "file", "directory", "missing", "outside"]
    assert boundary.refusal(site.repo / "inside.txt") is None
    assert boundary.refusal(site.repo / "dir") is None
    assert boundary.refusal(site.repo / "absent") is None  # a missing file keeps Terraform's error
    assert boundary.refusal(site.repo / "to-outside") == OUTSIDE
    assert boundary.refusal("/proc/self/environ") == OUTSIDE
    assert boundary.read(str(site.repo / "to-inside")) == b"hello\n"


@pytest.mark.parametrize("path", ["to-outside", "out-dir/secret.txt", "../outside/secret.txt"])
def test_the_boundary_refuses_to_read_outside(site, path):
    site.link("to-outside", site.outside / "secret.txt")
    site.link("out-dir", "../outside")
    with pytest.raises(Refused) as refused:
        Boundary(site.repo, 1024).read(os.path.join(site.repo, path))
    assert refused.value.reason == OUTSIDE


def test_the_boundary_reads_no_fifo_and_no_device(site):
    fifo = site.repo / "pipe.tf"
    os.mkfifo(fifo)
    boundary = Boundary(site.repo, 1024)
    assert boundary.kind(fifo) == "special"
    assert boundary.refusal(fifo) == "is a FIFO, not a regular file"
    with pytest.raises(Refused, match="FIFO"):
        boundary.read(str(fifo))  # returns at once: a FIFO is opened without waiting for a writer
    with pytest.raises(Refused, match="character device"):
        read_regular("/dev/zero", 1024)  # even where no boundary applies (a --var-file)
    assert Boundary("/", 1024).refusal("/dev/zero") == "is a character device, not a regular file"


def test_reads_stop_at_max_size_whatever_stat_says(site, monkeypatch):
    write(site.repo, {"big.tf": "#" * 5000, "small.tf": "# ok\n"})
    read = []
    original = os.read

    def counting(handle, size):
        chunk = original(handle, size)
        read.append(len(chunk))
        return chunk

    monkeypatch.setattr(os, "read", counting)
    boundary = Boundary(site.repo, 100)
    assert boundary.read(str(site.repo / "big.tf")) is None
    assert sum(read) == 101  # max-file-size + 1 bytes, never the whole file
    assert boundary.read(str(site.repo / "small.tf")) == b"# ok\n"
    # /proc files say they are empty and are not: the read is bounded by what it gets, not by stat
    read.clear()
    assert read_regular("/proc/self/status", 10) is None
    assert sum(read) == 11


# -- file functions -----------------------------------------------------------------------------

FILE_FUNCTIONS = ["file", "filebase64", "filemd5", "filesha1", "filesha256", "filesha512",
                  "filebase64sha256", "filebase64sha512"]


def _file_function_site(site: Site) -> None:
    write(site.repo, {"main.tf": 'provider "scaleway" {}\n', "inside.txt": "inside\n", "dir/keep.txt": "k"})
    site.link("out-dir", "../outside")
    site.link("secret-link.txt", "../outside/secret.txt")
    site.link("inside-link.txt", "inside.txt")


@pytest.mark.parametrize("function", FILE_FUNCTIONS)
@pytest.mark.parametrize("path", [
    "../outside/secret.txt",
    "./dir/../../outside/secret.txt",
    "{outside}/secret.txt",
    "out-dir/secret.txt",
    "secret-link.txt",
    "${{path.module}}/../outside/secret.txt",
    "${{path.cwd}}/../outside/secret.txt",
    "~/secret.txt",
    "/etc/hostname",
    "/proc/self/environ",
])
def test_file_functions_give_unknown_outside_the_repository(site, monkeypatch, function, path):
    _file_function_site(site)
    written = path.format(outside=site.outside)
    [result] = evaluate(site.repo, [f'{function}("{written}")'], monkeypatch)
    assert result.get("unknown") is True, result
    assert site.marker not in json.dumps(result)


@pytest.mark.parametrize("function", FILE_FUNCTIONS)
def test_file_functions_still_read_inside_the_repository(site, monkeypatch, function):
    _file_function_site(site)
    direct, linked, up_and_back = evaluate(site.repo, [
        f'{function}("inside.txt")', f'{function}("inside-link.txt")', f'{function}("dir/../inside.txt")'],
        monkeypatch)
    assert "value" in direct and direct["value"] == linked["value"] == up_and_back["value"], (direct, linked)


def test_a_directory_or_a_missing_file_inside_keeps_terraforms_error(site, monkeypatch):
    _file_function_site(site)
    directory, missing, exists = evaluate(site.repo, ['file("dir")', 'file("absent.txt")', 'fileexists("absent.txt")'],
                                          monkeypatch)
    assert "is a directory" in directory["error"]
    assert "no file exists" in missing["error"]
    assert exists["value"] is False


@pytest.mark.parametrize("expression", [
    'fileexists("../outside/secret.txt")',
    'fileexists("../outside/absent.txt")',  # no answer tells what exists outside
    'fileexists("/etc/passwd")',
    'fileexists("out-dir/secret.txt")',
    'fileset("../outside", "*")',
    'fileset("/", "*")',
    'fileset("out-dir", "**")',
    'fileset(path.module, "../outside/*")',
    'fileset(path.module, "**")',  # the walk would leave through out-dir
    'templatefile("../outside/secret.txt", {})',
    'templatefile("secret-link.txt", {})',
])
def test_existence_listing_and_templates_give_unknown_outside(site, monkeypatch, expression):
    _file_function_site(site)
    [result] = evaluate(site.repo, [expression], monkeypatch)
    assert result.get("unknown") is True, result


def test_fileset_follows_links_inside_the_repository_as_terraform_does(site, monkeypatch):
    write(site.repo, {"main.tf": "", "m/main.tf": "", "m/inside/d/c.txt": "c", "m/top.txt": "t"})
    site.link("m/dlink", "inside/d")
    site.link("m/flink", "inside/d/c.txt")
    # terraform console, 1.11.4, in this layout: fileset(path.module, "**") lists both links' files
    [result] = evaluate(site.repo, ['fileset("m", "**")'], monkeypatch)
    assert result["value"] == ["dlink/c.txt", "flink", "inside/d/c.txt", "main.tf", "top.txt"]


def test_fileset_over_a_loop_of_links_is_unknown_and_ends(site):
    write(site.repo, {"main.tf": "", "d/x.txt": "x"})
    site.link("d/again", "..")
    result = process(site.repo, ["--eval", 'fileset(path.module, "**")', "."])
    assert json.loads(result.stdout)["unknown"] is True, result.stderr


def test_a_fifo_and_dev_zero_are_never_read(site):
    write(site.repo, {"main.tf": "", "inside.txt": "x"})
    os.mkfifo(site.repo / "pipe.txt")
    site.link("zero.txt", "/dev/zero")
    expressions = ['file("pipe.txt")', 'filebase64("pipe.txt")', 'filesha256("pipe.txt")',
                   'file("zero.txt")', 'file("/dev/zero")', 'filemd5("/dev/urandom")', 'file("inside.txt")']
    result = process(site.repo, [item for e in expressions for item in ("--eval", e)] + ["."])
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line.get("unknown") for line in lines] == [True] * 6 + [None], result.stderr
    assert lines[-1]["value"] == "x"


def test_each_call_that_was_not_read_is_a_located_note(site, monkeypatch):
    write(site.repo, {"main.tf": """\
locals {
  a = file("../outside/secret.txt")
  b = fileexists("/etc/passwd")
  c = fileset("/", "*")
  d = filebase64("~/.ssh/id_ed25519")
  e = templatefile("out-dir/secret.txt", {})
  f = file("inside.txt")
  g = fileset(path.module, "*.txt")
}
""", "inside.txt": "x"})
    site.link("out-dir", "../outside")
    found = findings(site.repo, ["--select", "KAP014"], monkeypatch)
    calls = [f for f in found if f["path"] == "main.tf"]
    assert [(f["line"], f["column"]) for f in calls] == [(2, 7), (3, 7), (4, 7), (5, 7), (6, 7), (8, 7)]
    messages = [f["message"] for f in calls]
    assert messages[0] == 'file("../outside/secret.txt") is Unknown: the path resolves outside the repository'
    assert "home directory" in messages[3]
    assert 'holds "out-dir", a link that resolves outside the repository' in messages[5]
    assert all(f["severity"] == "note" for f in found)
    # the link itself is said too, at its own path
    assert [(f["path"], f["line"]) for f in found if f["path"] != "main.tf"] == [("out-dir", 1)]


def test_a_sensitive_path_is_never_printed_in_the_note(site, monkeypatch):
    write(site.repo, {"main.tf": """\
variable "where" {
  type      = string
  sensitive = true
  default   = "/etc/s3cr3t-path"
}

locals {
  a = file(var.where)
}
"""})
    found = findings(site.repo, ["--select", "KAP014"], monkeypatch)
    assert [f["message"] for f in found] == ["file((sensitive value)) is Unknown: the path resolves outside the repository"]


def test_a_helm_values_file_outside_is_not_read_nor_listed(site, monkeypatch):
    write(site.repo, {"main.tf": """\
resource "helm_release" "ingress" {
  name       = "ingress"
  repository = "https://haproxytech.github.io/helm-charts"
  chart      = "kubernetes-ingress"
  values     = [file("../outside/values.yaml"), file("values-link.yaml")]
}
"""})
    site.link("values-link.yaml", "../outside/values.yaml")
    found = findings(site.repo, [], monkeypatch)
    assert where(found, "KAP014") == [("KAP014", "main.tf", 5, 17), ("KAP014", "main.tf", 5, 49),
                                      ("KAP014", "values-link.yaml", 1, 1)]
    assert site.marker not in json.dumps(found)
    listed = show_files(site.repo, monkeypatch)
    assert not any("outside" in line and "values" in line and "\t" in line for line in listed), listed


# -- discovery ------------------------------------------------------------------------------------


def test_discovery_does_not_follow_links_out_of_the_repository(site, monkeypatch):
    write(site.repo, {"main.tf": CLUSTER.format(name="inside")})
    site.link("platform", "../outside")  # a directory
    site.link("shared.tf", "../outside/main.tf")  # a file
    site.link("terraform.tfvars", "../outside/secret.tfvars")
    site.link("values-prod.yaml", site.outside / "values.yaml")
    site.link("docs/notes.md", "../../outside/secret.txt")  # of no kind kapsulint reads: said all the same
    found = findings(site.repo, [], monkeypatch)
    assert site.marker not in json.dumps(found)
    assert where(found, "KAP101") == [("KAP101", "main.tf", 5, 33)]
    assert where(found, "KAP014") == [("KAP014", path, 1, 1) for path in
                                      ("docs/notes.md", "platform", "shared.tf", "terraform.tfvars", "values-prod.yaml")]
    message = next(f["message"] for f in found if f["path"] == "platform")
    assert message == ('symbolic link to "../outside" not followed: it resolves outside the repository, so what it '
                       "points to is not read")
    listed = show_files(site.repo, monkeypatch)
    assert "# not followed: platform -> ../outside (outside the repository)" in listed
    assert f"# not followed: values-prod.yaml -> {site.outside / 'values.yaml'} (outside the repository)" in listed
    assert [line for line in listed if not line.startswith("#")] == ["main.tf\tconfig\tok\tmodule"]


def test_a_link_out_of_the_repository_silences_absence_in_its_module(site, monkeypatch):
    acl_less = CLUSTER.format(name="prod").replace("delete_additional_resources = true", "type = \"kapsule\"")
    write(site.repo, {"main.tf": 'provider "scaleway" {}\n' + acl_less})
    assert where(findings(site.repo, ["--select", "KAP403"], monkeypatch)) == [("KAP403", "main.tf", 2, 1)]
    site.link("acl.tf", "../outside/main.tf")  # it could hold the ACL: absence is no longer certain
    assert findings(site.repo, ["--select", "KAP403"], monkeypatch) == []


@pytest.mark.parametrize("target", ["/", tempfile.gettempdir(), "{outside}"])
def test_a_directory_link_to_the_machine_reads_nothing_there(site, target):
    write(site.repo, {"main.tf": CLUSTER.format(name="inside")})
    site.link("everything", target.format(outside=site.outside))
    result = process(site.repo, ["--show-files"])
    assert result.returncode == 0, result.stderr
    assert [line for line in result.stdout.splitlines() if not line.startswith("#")] == ["main.tf\tconfig\tok\tmodule"]
    assert "# not followed: everything -> " in result.stdout


def test_a_loop_of_links_ends(site):
    write(site.repo, {"main.tf": CLUSTER.format(name="inside"), "d/main.tf": ""})
    site.link("d/again", "..")
    site.link("a.tf", "b.tf")
    site.link("b.tf", "a.tf")
    result = process(site.repo, ["--show-files"])
    assert result.returncode == 0, result.stderr
    assert [line for line in result.stdout.splitlines() if not line.startswith("#")] == [
        "d/main.tf\tconfig\tok\tmodule", "main.tf\tconfig\tok\tmodule"]


def test_a_fifo_named_like_terraform_is_not_read_and_said(site):
    write(site.repo, {"main.tf": ""})
    os.mkfifo(site.repo / "pipe.tf")
    result = process(site.repo, ["--show-files"])
    assert "# not read: pipe.tf (it is a FIFO, not a regular file)" in result.stdout.splitlines(), result.stderr
    result = process(site.repo, ["--select", "KAP014", "--format", "json"])
    assert [(f["path"], f["line"], f["message"]) for f in json.loads(result.stdout)] == [
        ("pipe.tf", 1, "not read: it is a FIFO, not a regular file")]


def test_links_inside_the_repository_keep_working_and_are_read_once(site, monkeypatch):
    write(site.repo, {
        "envs/prod/main.tf": CLUSTER.format(name="prod"),
        "common/versions.tf": 'terraform {\n  required_version = ">= 1.5"\n}\n',
    })
    site.link("a-live", "envs/prod")  # walked before its target: still read once, under its own path
    site.link("envs/prod/versions.tf", "../../common/versions.tf")  # a file shared by links, as Terraform reads it
    found = findings(site.repo, ["--select", "KAP101,KAP014"], monkeypatch)
    assert where(found) == [("KAP101", "envs/prod/main.tf", 5, 33)]
    listed = [line.split("\t")[0] for line in show_files(site.repo, monkeypatch) if not line.startswith("#")]
    assert listed == ["common/versions.tf", "envs/prod/main.tf", "envs/prod/versions.tf"]


def test_a_link_to_a_directory_of_the_repository_above_the_root_is_followed(tmp_path, monkeypatch):
    repo = write(tmp_path, {
        "repo/.git/HEAD": "ref: refs/heads/main\n",
        "repo/infra/.kapsulint.toml": "",
        "repo/platform/main.tf": CLUSTER.format(name="platform"),
    }) / "repo"
    (repo / "infra" / "platform").symlink_to("../platform")
    found = findings(repo / "infra", ["--select", "KAP101,KAP014"], monkeypatch)
    assert where(found) == [("KAP101", "platform/main.tf", 5, 33)]


# -- modules --------------------------------------------------------------------------------------


def test_a_module_outside_the_repository_is_not_read(site, monkeypatch):
    write(site.repo, {"main.tf": """\
module "outside" {
  source = "../outside/mod"
  name   = "x"
  count  = 1
}

module "linked" {
  source = "./linked-mod"
}
"""})
    site.link("linked-mod", "../outside/mod")
    found = findings(site.repo, [], monkeypatch)
    assert site.marker not in json.dumps(found)
    assert not where(found, "KAP101")
    assert where(found, "KAP011") == [("KAP011", "main.tf", 2, 12), ("KAP011", "main.tf", 8, 12)]
    first = next(f for f in found if f["rule"] == "KAP011")
    assert first["message"] == (
        'module "outside" was not read: its source "../outside/mod" resolves outside the repository; the argument '
        "name of this call was not judged against the module, and rules about something missing stay silent for "
        "the root module that calls it")
    assert first["severity"] == "note"
    listed = show_files(site.repo, monkeypatch)
    assert '# not read: module "outside" (main.tf:1): its source "../outside/mod" resolves outside the repository' in listed
    assert [line for line in listed if not line.startswith("#")] == ["main.tf\tconfig\tok\tmodule"]


def test_what_an_unread_module_gives_is_unknown(site, monkeypatch):
    write(site.outside, {"mod/outputs.tf": 'output "name" {\n  value = var.name\n}\n'})
    write(site.repo, {"main.tf": 'module "m" {\n  source = "../outside/mod"\n  name   = "x"\n}\n'})
    assert evaluate(site.repo, ["module.m.name", "module.m"], monkeypatch) == [
        {"expression": "module.m.name", "unknown": True}, {"expression": "module.m", "unknown": True}]


def test_an_unread_module_silences_absence_like_any_unresolved_call(site, monkeypatch):
    cluster = 'provider "scaleway" {}\n' + CLUSTER.format(name="prod").replace(
        "delete_additional_resources = true", 'type = "kapsule"')
    write(site.repo, {"main.tf": cluster})
    assert where(findings(site.repo, ["--select", "KAP403"], monkeypatch)) == [("KAP403", "main.tf", 2, 1)]
    write(site.repo, {"access.tf": 'module "acl" {\n  source = "../outside/mod"\n}\n'})
    assert where(findings(site.repo, ["--select", "KAP403,KAP011"], monkeypatch)) == [("KAP011", "access.tf", 2, 12)]


def test_a_monorepo_module_above_a_nested_root_is_read(tmp_path, monkeypatch):
    repo = write(tmp_path, {
        "repo/infra/prod/.kapsulint.toml": "",
        "repo/infra/prod/main.tf": 'module "cluster" {\n  source = "../../modules/cluster"\n}\n',
        "repo/modules/cluster/main.tf": CLUSTER.format(name="prod"),
    }) / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True, capture_output=True)
    found = findings(repo / "infra" / "prod", ["--select", "KAP101,KAP011"], monkeypatch)
    assert where(found) == [("KAP101", "../../modules/cluster/main.tf", 5, 33)]
    # Without the git repository, the project root is the boundary: the same module is outside.
    (repo / ".git").rename(repo / "not-git")
    found = findings(repo / "infra" / "prod", ["--select", "KAP101,KAP011"], monkeypatch)
    assert where(found) == [("KAP011", "main.tf", 2, 12)]


def test_a_module_read_through_a_link_inside_is_read_once(site, monkeypatch):
    write(site.repo, {
        "modules/net/main.tf": CLUSTER.format(name="net"),
        "main.tf": 'module "a" {\n  source = "./modules/net"\n}\nmodule "b" {\n  source = "./mods/net"\n}\n',
    })
    site.link("mods", "modules")
    found = findings(site.repo, ["--select", "KAP101,KAP011"], monkeypatch)
    assert where(found) == [("KAP101", "modules/net/main.tf", 5, 33)]
    listed = [line.split("\t")[0] for line in show_files(site.repo, monkeypatch) if not line.startswith("#")]
    assert listed == ["main.tf", "modules/net/main.tf"]


@pytest.mark.parametrize("layout", ["absolute-dir", "linked-terraform-dir"])
def test_a_downloaded_module_outside_the_repository_is_not_read(site, monkeypatch, layout):
    write(site.repo, {"main.tf": 'module "net" {\n  source  = "example/net/scaleway"\n  version = "1.0.0"\n}\n'})
    write(site.outside, {".terraform/modules/net/main.tf": CLUSTER.format(name=site.marker)})
    if layout == "absolute-dir":
        directory = str(site.outside / ".terraform" / "modules" / "net")
        write(site.repo, {".terraform/modules/modules.json": json.dumps(
            {"Modules": [{"Key": "", "Source": "", "Dir": "."}, {"Key": "net", "Dir": directory}]})})
    else:
        write(site.outside, {".terraform/modules/modules.json": json.dumps(
            {"Modules": [{"Key": "net", "Dir": ".terraform/modules/net"}]})})
        site.link(".terraform", "../outside/.terraform")
    found = findings(site.repo, [], monkeypatch)
    assert site.marker not in json.dumps(found)
    assert not where(found, "KAP101")
    if layout == "absolute-dir":
        assert where(found, "KAP011") == [("KAP011", "main.tf", 2, 13)]


# -- configuration and variables ------------------------------------------------------------------


def test_a_configured_variables_file_outside_the_repository_is_an_error(site, monkeypatch):
    write(site.repo, {".kapsulint.toml": 'var-files = ["../outside/secret.tfvars"]\n', "main.tf": ""})
    code, out, err = cli(site.repo, [], monkeypatch)
    assert code == 2
    assert "`var-files` entry '../outside/secret.tfvars' resolves outside the repository" in err
    assert site.marker not in out + err


def test_a_variables_file_named_on_the_command_line_is_the_users_choice(site, monkeypatch):
    write(site.repo, {"main.tf": 'variable "name" {\n  type = string\n}\n'})
    code, out, err = cli(site.repo, ["--var-file", str(site.outside / "secret.tfvars"), "--eval", "var.name", "."],
                         monkeypatch)
    assert code == 0, err
    assert json.loads(out)["value"] == site.marker


def test_a_gitignore_and_a_nested_configuration_are_read_inside_only(site, monkeypatch):
    write(site.outside, {"ignore-all": "*\n", "pyproject.toml": "[tool.kapsulint]\n"})
    write(site.repo, {"main.tf": CLUSTER.format(name="root"), "sub/main.tf": CLUSTER.format(name="sub")})
    site.link(".gitignore", "../outside/ignore-all")
    site.link("sub/pyproject.toml", "../../outside/pyproject.toml")
    found = findings(site.repo, ["--select", "KAP101"], monkeypatch)
    # the linked .gitignore would hide everything and the linked pyproject.toml leave sub/ out
    assert where(found) == [("KAP101", "main.tf", 5, 33), ("KAP101", "sub/main.tf", 5, 33)]


# -- what reports print ---------------------------------------------------------------------------

HOSTILE = """\
resource "scaleway_k8s_cluster" "main" {
  name                        = substr(filebase64("/proc/self/environ"), 0, 60)
  version                     = file("../outside/secret.txt")
  cni                         = file("platform/secret.txt")
  type                        = trimspace(file("secret-link.txt"))
  delete_additional_resources = true
}

resource "scaleway_k8s_pool" "pools" {
  for_each    = toset(["a", "b"])
  cluster_id  = scaleway_k8s_cluster.main.id
  name        = base64decode(filebase64("/proc/self/environ"))
  node_type   = trimspace(file("../outside/secret.txt"))
  size        = 1
  autohealing = true
}

resource "helm_release" "ingress" {
  name       = "ingress"
  repository = "https://haproxytech.github.io/helm-charts"
  chart      = "kubernetes-ingress"
  values     = [file("../outside/values.yaml"), yamlencode({ controller = { name = file("/proc/self/environ") } })]
}

module "outside" {
  source = "../outside/mod"
  name   = "x"
}
"""


def test_no_format_prints_outside_content_or_the_environment(site):
    env_marker = f"ENV-{uuid.uuid4().hex}"
    write(site.repo, {"main.tf": HOSTILE})
    site.link("platform", "../outside")
    site.link("secret-link.txt", "../outside/secret.txt")
    site.link("shared.tf", "../outside/main.tf")
    reports = site.repo.parent / "reports"
    reports.mkdir()
    formats = ("json", "sarif", "github", "gitlab")
    extra = [item for name in formats for item in ("--report", f"{name}={reports / name}")]
    result = process(site.repo, ["--fail-on", "error", *extra, "."], env={ENV_NAME: env_marker})
    assert result.returncode in (0, 1), result.stderr
    outputs = {"text": result.stdout, "stderr": result.stderr,
               **{name: (reports / name).read_text(encoding="utf-8") for name in formats}}
    for name, text in outputs.items():
        assert env_marker not in text, name
        assert site.marker not in text, name
        assert str(site.outside) not in text, name  # no path of the machine outside the repository
    sarif = json.loads(outputs["sarif"])
    uris = [location["physicalLocation"]["artifactLocation"]
            for result_ in sarif["runs"][0]["results"] for location in result_["locations"]]
    assert uris and all(uri["uriBaseId"] == "%SRCROOT%" and "://" not in uri["uri"] and not uri["uri"].startswith(("/", ".."))
                        for uri in uris), uris
    rules = {f["rule"] for f in json.loads(outputs["json"])}
    assert {"KAP011", "KAP014", "KAP101"} <= rules


def test_a_finding_outside_the_root_prints_no_absolute_path_nor_its_source(site):
    outside_file = site.outside / "main.tf"
    finding = Finding(Loc(str(outside_file), 2, 3, 2, 8), "a finding outside the repository", rule="KAP101",
                      logical="outside")
    finding.name, finding.severity = "delete-additional-resources", Severity.WARNING
    context = ReportContext(rules=list(all_rules()), cwd=str(site.repo), repo_root=str(site.repo), version="0.0.0",
                            boundary=Boundary(site.repo, 1024))
    for name in ("text", "json", "sarif", "github", "gitlab"):
        text = render(name, [finding], context)
        assert str(site.outside) not in text, name
        assert "file://" + str(site.outside) not in text, name
        assert site.marker not in text, name  # the text report shows no line of a file outside
    sarif = json.loads(render("sarif", [finding], context))
    location = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": "../outside/main.tf", "uriBaseId": "%SRCROOT%"}
    assert "file=../outside/main.tf," in render("github", [finding], context)
    assert json.loads(render("gitlab", [finding], context))[0]["location"]["path"] == "../outside/main.tf"


def test_a_note_at_a_link_shows_no_line_of_its_target(site, monkeypatch):
    write(site.repo, {"main.tf": ""})
    site.link("shared.tf", "../outside/main.tf")
    code, out, err = cli(site.repo, ["--select", "KAP014"], monkeypatch)
    assert "shared.tf:1:1: KAP014 path-outside-project" in out, err
    assert site.marker not in out and "resource" not in out


@pytest.mark.parametrize("name", [".kapsulint.toml", "pyproject.toml"])
def test_a_configuration_file_that_never_ends_is_not_read(site, name):
    write(site.repo, {"main.tf": CLUSTER.format(name="inside")})
    site.link(name, "/dev/zero")
    result = process(site.repo, ["--select", "KAP101", "--format", "json"])
    assert result.returncode == 1, result.stderr  # no configuration there: linted without one
    assert [f["rule"] for f in json.loads(result.stdout)] == ["KAP101"]


def test_a_configuration_file_is_read_to_a_bound(site):
    write(site.repo, {"main.tf": CLUSTER.format(name="inside")})
    write(site.outside, {"big.toml": "# padding\n" * 200_000})
    site.link(".kapsulint.toml", "../outside/big.toml")
    result = process(site.repo, ["--select", "KAP101"])
    assert result.returncode == 2
    assert "cannot read: larger than 1048576 bytes" in result.stderr


def test_a_fifo_for_a_configuration_file_does_not_block(site):
    write(site.repo, {"main.tf": CLUSTER.format(name="inside")})
    os.mkfifo(site.repo / ".kapsulint.toml")
    result = process(site.repo, ["--select", "KAP101", "--format", "json"])
    assert result.returncode == 1, result.stderr
