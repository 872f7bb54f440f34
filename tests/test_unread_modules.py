"""Module calls kapsulint did not read (KAP011): every such call is a located note with its reason,
and a call whose module `terraform init` downloaded is read from .terraform/modules/ instead, with
the keys Terraform writes there (`cluster.kapsule` for a call inside a local module)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fixture_support import lint

from kapsulint.cli.command import main

TODAY = ["--today", "2026-06-01"]  # 1.31 is past its end of support (2026-02-02)

ROOT = """\
provider "scaleway" {
  region = "fr-par"
}

module "kapsule" {
  source  = "example-org/kapsule/scaleway"
  version = "~> 2.0"

  cluster_name       = "prod"
  kubernetes_version = "1.31"
  node_type          = "PRO2-S"
}
"""
KAPSULE = """\
variable "cluster_name" {
  type = string
}

variable "kubernetes_version" {
  type = string
}

variable "node_type" {
  type = string
}

resource "scaleway_vpc_private_network" "this" {
  name = var.cluster_name
}

resource "scaleway_k8s_cluster" "this" {
  name                        = var.cluster_name
  type                        = "kapsule"
  version                     = var.kubernetes_version
  cni                         = "cilium"
  private_network_id          = scaleway_vpc_private_network.this.id
  delete_additional_resources = false

  auto_upgrade {
    enable                        = true
    maintenance_window_start_hour = 3
    maintenance_window_day        = "monday"
  }
}

resource "scaleway_k8s_pool" "default" {
  cluster_id = scaleway_k8s_cluster.this.id
  name       = "default"
  node_type  = var.node_type
  size       = 1
}

output "cluster_name" {
  value = scaleway_k8s_cluster.this.name
}
"""


def write(directory: Path, files: dict[str, str]) -> Path:
    for name, content in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return directory


def manifest(*entries: tuple[str, str, str]) -> str:
    """A .terraform/modules/modules.json as `terraform init` writes it: (key, source, dir) entries
    after the root module's own entry."""
    modules = [{"Key": "", "Source": "", "Dir": "."}]
    modules += [{"Key": key, "Source": source, "Dir": directory} for key, source, directory in entries]
    return json.dumps({"Modules": modules})


def located(findings: list[dict]) -> list[tuple[str, str, int, int]]:
    return sorted((f["rule"], f["path"], f["line"], f["column"]) for f in findings)


def run(directory: Path, args: list[str], monkeypatch) -> tuple[int, str]:
    monkeypatch.chdir(directory)
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    return result.exit_code, result.stdout


def test_a_root_whose_cluster_sits_in_an_unread_registry_module_gets_one_note(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": ROOT})
    code, findings, stderr = lint(tmp_path, TODAY, monkeypatch)  # every rule, default fail-on
    assert code == 0, stderr
    assert located(findings) == [("KAP011", "main.tf", 6, 13)]
    assert findings[0]["severity"] == "note"
    assert findings[0]["message"] == (
        'module "kapsule" was not read: its source "example-org/kapsule/scaleway" (registry) was not downloaded: '
        "`terraform init` writes .terraform/modules/, which kapsulint reads (kapsulint never downloads); the "
        "arguments cluster_name, kubernetes_version, node_type of this call were not judged against the module, "
        "and rules about something missing stay silent for the root module that calls it")
    assert findings[0]["fix"].startswith('run `terraform get` (or `terraform init`) in the root module ".":')
    code, text = run(tmp_path, TODAY, monkeypatch)
    assert code == 0
    assert "main.tf:6:13: KAP011 module-not-read" in text
    assert text.splitlines()[-1].endswith("kapsulint could not judge 1 place: 1 module call not read.")
    code, listed = run(tmp_path, ["--show-files"], monkeypatch)
    assert [line for line in listed.splitlines() if not line.startswith("# engine:")][1:] == [
        "main.tf\tconfig\tok\troot module",
        '# not read: module "kapsule" (main.tf:5): its source "example-org/kapsule/scaleway" (registry) was not '
        "downloaded: `terraform init` writes .terraform/modules/, which kapsulint reads (kapsulint never downloads)"]


def test_the_same_root_once_downloaded_gets_the_module_findings_at_its_arguments(tmp_path, monkeypatch):
    write(tmp_path, {
        "main.tf": ROOT,
        ".terraform/modules/modules.json": manifest(
            ("kapsule", "registry.terraform.io/example-org/kapsule/scaleway", ".terraform/modules/kapsule")),
        ".terraform/modules/kapsule/main.tf": KAPSULE,
    })
    code, findings, stderr = lint(tmp_path, TODAY, monkeypatch)
    assert code == 1, stderr
    assert not [f for f in findings if f["rule"] == "KAP011"]
    assert not [f for f in findings if ".terraform" in f["path"]]  # never reported there
    # The version the module's cluster runs is the root's argument: judged, and reported there.
    assert ("KAP110", "main.tf", 10, 24) in located(findings)
    # Findings about the module's own blocks (its pool's lifecycle, its cluster's ACL) sit under
    # .terraform/ and are not reported, but the module was read: its outputs are known.
    code, out = run(tmp_path, ["--eval", "module.kapsule.cluster_name"], monkeypatch)
    assert json.loads(out)["value"] == "prod"
    code, text = run(tmp_path, TODAY, monkeypatch)
    assert "could not judge" not in text  # no blind spot left


@pytest.mark.parametrize(("source", "kind"), [
    ("example-org/kapsule/scaleway", "registry"),
    ("app.terraform.io/example-org/kapsule/scaleway", "registry"),
    ("example-org/kapsule/scaleway//modules/pool", "registry"),
    ("git::https://git.example.com/kapsule.git?ref=v1.2.0", "git"),
    ("github.com/example-org/terraform-scaleway-kapsule?ref=v1", "git"),
    ("git@github.com:example-org/terraform-scaleway-kapsule.git", "git"),
    ("https://artifacts.example.com/kapsule.zip", "HTTP archive"),
    ("s3::https://s3.fr-par.scw.cloud/modules/kapsule.zip", "S3"),
    ("gcs::https://www.googleapis.com/storage/v1/modules/kapsule.zip", "GCS"),
    ("hg::https://hg.example.com/kapsule", "Mercurial"),
])
def test_each_remote_source_kind_not_downloaded_is_a_note(tmp_path, monkeypatch, source, kind):
    write(tmp_path, {"main.tf": f'module "m" {{\n  source = "{source}"\n  name   = "x"\n}}\n'})
    code, findings, _ = lint(tmp_path, ["--select", "KAP011"], monkeypatch)
    assert located(findings) == [("KAP011", "main.tf", 2, 12)]
    assert f'its source "{source}" ({kind}) was not downloaded' in findings[0]["message"]
    assert "the argument name of this call was not judged" in findings[0]["message"]


@pytest.mark.parametrize(("entries", "files", "words"), [
    ([("other", "example-org/other/scaleway", ".terraform/modules/other")],
     {".terraform/modules/other/main.tf": ""}, "is not listed in .terraform/modules/modules.json"),
    ([("m", "example-org/kapsule/scaleway", ".terraform/modules/m")], {},
     "is listed in .terraform/modules/modules.json, but its directory holds no configuration file"),
    ([("m", "example-org/kapsule/scaleway", ".terraform/modules/m")], {".terraform/modules/m/README.md": "x"},
     "is listed in .terraform/modules/modules.json, but its directory holds no configuration file"),
    (None, {".terraform/modules/modules.json": '{"Modules": '}, ".terraform/modules/modules.json cannot be read"),
])
def test_a_manifest_that_does_not_give_the_module_says_so(tmp_path, monkeypatch, entries, files, words):
    write(tmp_path, {"main.tf": 'module "m" {\n  source = "example-org/kapsule/scaleway"\n}\n', **files})
    if entries is not None:
        write(tmp_path, {".terraform/modules/modules.json": manifest(*entries)})
    code, findings, _ = lint(tmp_path, ["--select", "KAP011"], monkeypatch)
    assert located(findings) == [("KAP011", "main.tf", 2, 12)]
    assert words in findings[0]["message"]


def test_a_registry_module_called_by_a_local_module_is_found_under_its_key_path(tmp_path, monkeypatch):
    # The keys below are those terraform 1.11 init wrote for this layout (with a git::file:// source
    # standing for the registry): "cluster.kapsule" in the root module's manifest.
    write(tmp_path, {
        "main.tf": 'provider "scaleway" {}\n\nmodule "cluster" {\n  source = "./modules/cluster"\n}\n',
        "modules/cluster/main.tf": ('module "kapsule" {\n  source  = "example-org/kapsule/scaleway"\n'
                                    '  version = "2.1.0"\n}\n\noutput "name" {\n  value = module.kapsule.name\n}\n'),
        ".terraform/modules/modules.json": manifest(
            ("cluster", "./modules/cluster", "modules/cluster"),
            ("cluster.kapsule", "registry.terraform.io/example-org/kapsule/scaleway",
             ".terraform/modules/cluster.kapsule")),
        ".terraform/modules/cluster.kapsule/main.tf": 'output "name" {\n  value = "from the download"\n}\n',
    })
    code, findings, _ = lint(tmp_path, ["--select", "KAP011"], monkeypatch)
    assert findings == []
    code, out = run(tmp_path, ["--eval", "module.cluster.name"], monkeypatch)
    assert json.loads(out)["value"] == "from the download"
    # Without the root's manifest, the note is at the call in the local module, and the fix names the
    # root module where `terraform init` runs.
    (tmp_path / ".terraform/modules/modules.json").unlink()
    code, findings, _ = lint(tmp_path, ["--select", "KAP011"], monkeypatch)
    assert located(findings) == [("KAP011", "modules/cluster/main.tf", 2, 13)]
    assert 'in the root module "."' in findings[0]["fix"]


def test_an_unread_call_inside_a_download_is_said_at_the_call_that_leads_there(tmp_path, monkeypatch):
    write(tmp_path, {
        "main.tf": ROOT,
        ".terraform/modules/modules.json": manifest(
            ("kapsule", "registry.terraform.io/example-org/kapsule/scaleway", ".terraform/modules/kapsule")),
        ".terraform/modules/kapsule/main.tf": KAPSULE + (
            '\nmodule "pools" {\n  source = "example-org/pools/scaleway"\n}\n'
            '\nmodule "acl" {\n  source = "./modules/acl"\n}\n'),
    })
    code, findings, stderr = lint(tmp_path, [*TODAY, "--select", "KAP011,KAP110"], monkeypatch)
    assert located(findings) == [("KAP011", "main.tf", 6, 13), ("KAP110", "main.tf", 10, 24)], stderr
    note = next(f for f in findings if f["rule"] == "KAP011")
    assert note["message"].startswith(
        'module "kapsule" was read, but 2 modules it calls were not (module.kapsule.module.pools, '
        'module.kapsule.module.acl): module.kapsule.module.pools, its source "example-org/pools/scaleway" '
        "(registry) is not listed in .terraform/modules/modules.json")
    assert note["fix"].startswith('run `terraform get` (or `terraform init`) in the root module ".":')
    code, listed = run(tmp_path, ["--show-files"], monkeypatch)
    assert any(line.startswith('# not read: module "pools" (.terraform/modules/kapsule/main.tf:')
               for line in listed.splitlines())


def test_local_sources_that_give_no_module(tmp_path, monkeypatch):
    write(tmp_path, {
        "main.tf": ('module "missing" {\n  source = "./modules/missing"\n}\n\n'
                    'module "file" {\n  source = "./notes.txt"\n}\n\n'
                    'module "submodule" {\n  source = "./vendor/kapsule"\n}\n'),
        "notes.txt": "not a module\n",
        "vendor/kapsule/README.md": "a git submodule, not checked out\n",
    })
    code, findings, _ = lint(tmp_path, ["--select", "KAP011"], monkeypatch)
    assert located(findings) == [("KAP011", "main.tf", 2, 12), ("KAP011", "main.tf", 6, 12),
                                 ("KAP011", "main.tf", 10, 12)]
    messages = [f["message"] for f in sorted(findings, key=lambda f: f["line"])]
    assert 'its source "./modules/missing" is not a directory' in messages[0]
    assert 'its source "./notes.txt" is not a directory' in messages[1]
    assert 'its source "./vendor/kapsule" holds no configuration file' in messages[2]


def test_a_source_terraform_cannot_read_before_evaluating(tmp_path, monkeypatch):
    write(tmp_path, {
        "main.tf": ('variable "where" {\n  default = "./modules/x"\n}\n\n'
                    'module "variable" {\n  source = var.where\n}\n\n'
                    'module "function" {\n  source = lower("./modules/x")\n}\n\n'
                    'module "none" {\n  name = "x"\n}\n\n'
                    'module "constant" {\n  source = "./modules/${"x"}"\n}\n\n'
                    'module "conditional" {\n  source = true ? "./modules/x" : "./elsewhere"\n}\n'),
        "modules/x/main.tf": 'output "name" {\n  value = "x"\n}\n',
    })
    code, findings, _ = lint(tmp_path, ["--select", "KAP011"], monkeypatch)
    assert located(findings) == [("KAP011", "main.tf", 6, 12), ("KAP011", "main.tf", 10, 12),
                                 ("KAP011", "main.tf", 13, 1)]
    messages = [f["message"] for f in sorted(findings, key=lambda f: f["line"])]
    assert all("Terraform refuses a variable or a function call there" in m for m in messages[:2])
    assert "it has no source argument" in messages[2]
    # A template of literals and a conditional of constants are constants, as Terraform reads them.
    code, out = run(tmp_path, ["--eval", "module.constant.name", "--eval", "module.conditional.name"], monkeypatch)
    assert [json.loads(line)["value"] for line in out.splitlines()] == ["x", "x"]


def test_an_override_file_that_changes_the_source_is_followed(tmp_path, monkeypatch):
    write(tmp_path, {
        "main.tf": 'module "m" {\n  source = "example-org/kapsule/scaleway"\n}\n',
        "override.tf": 'module "m" {\n  source = "./modules/x"\n}\n',
        "modules/x/main.tf": 'output "name" {\n  value = "local"\n}\n',
    })
    code, findings, _ = lint(tmp_path, ["--select", "KAP011"], monkeypatch)
    assert findings == []
    code, out = run(tmp_path, ["--eval", "module.m.name"], monkeypatch)
    assert json.loads(out)["value"] == "local"


def test_one_note_per_call_and_one_per_root(tmp_path, monkeypatch):
    call = 'module "kapsule" {\n  for_each = toset(["a", "b"])\n  source   = "example-org/kapsule/scaleway"\n}\n'
    write(tmp_path, {"envs/prod/main.tf": call, "envs/dev/main.tf": call})
    code, findings, _ = lint(tmp_path, ["--select", "KAP011"], monkeypatch)
    assert located(findings) == [("KAP011", "envs/dev/main.tf", 3, 14), ("KAP011", "envs/prod/main.tf", 3, 14)]
    assert {f["fix"].split('"')[1] for f in findings} == {"envs/dev", "envs/prod"}


def test_the_note_is_suppressed_on_the_module_header(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": ("# kapsulint: ignore[module-not-read] read by the platform pipeline\n"
                                 'module "kapsule" {\n  source = "example-org/kapsule/scaleway"\n}\n')})
    code, findings, _ = lint(tmp_path, ["--select", "KAP011,KAP003"], monkeypatch)
    assert findings == []


@pytest.mark.parametrize("source", ["..", ".", "modules/x", "gitlab.com/org/repo", "a/b/c/d/e"])
def test_a_source_that_is_no_address_terraform_reads(tmp_path, monkeypatch, source):
    # terraform 1.11 init: "Invalid module source address" for each of them.
    write(tmp_path, {"modules/x/main.tf": "", "main.tf": f'module "m" {{\n  source = "{source}"\n}}\n',
                     ".terraform/modules/modules.json": manifest()})
    code, findings, _ = lint(tmp_path, ["--select", "KAP011"], monkeypatch)
    assert located(findings) == [("KAP011", "main.tf", 2, 12)]
    assert "is no module source address Terraform reads" in findings[0]["message"]
    assert findings[0]["fix"].startswith('write a local path with its "./" or "../"')


def test_a_long_chain_of_local_modules_is_linked_without_failing(tmp_path, monkeypatch):
    # Each module calls the next, the last one a registry module: deeper than Python's recursion.
    depth = 1500
    files = {f"m{i}/main.tf": f'module "next" {{\n  source = "../m{i + 1}"\n}}\n' for i in range(depth)}
    files[f"m{depth}/main.tf"] = 'module "kapsule" {\n  source = "example-org/kapsule/scaleway"\n}\n'
    write(tmp_path, files)
    code, findings, stderr = lint(tmp_path, ["--select", "KAP011"], monkeypatch)
    assert code == 0, stderr
    assert located(findings) == [("KAP011", f"m{depth}/main.tf", 2, 12)]
