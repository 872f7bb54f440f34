"""Terraform and OpenTofu read different files of a module: which ones, which engine reads each
root module tree, and what ``--show-files``, ``--show-settings`` and stderr say about it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fixture_support import lint

from kapsulint.cli.command import main
from kapsulint.model.engines import OPENTOFU, TERRAFORM, NotRead, files_read

CLUSTER = """\
resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  version                     = "1.35.2"
  cni                         = "cilium"
  delete_additional_resources = true
}
"""
CALL = 'module "cluster" {\n  source = "./modules/cluster"\n}\n'
PROVIDER = 'provider "scaleway" {\n  region = "fr-par"\n}\n'


def write(directory: Path, files: dict[str, str]) -> Path:
    for name, content in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return directory


def lock(registry: str) -> str:
    return f'provider "{registry}/scaleway/scaleway" {{\n  version     = "2.60.0"\n  constraints = "~> 2.60"\n}}\n'


def kap101(directory: Path, monkeypatch, *args: str) -> list[str]:
    code, findings, stderr = lint(directory, ["--no-cache", "--select", "KAP101,KAP006", *args], monkeypatch)
    assert code in (0, 1), stderr
    return sorted(f"{f['rule']} {f['path']}:{f['line']}" for f in findings)


def show_files(directory: Path, monkeypatch, *args: str) -> list[str]:
    monkeypatch.chdir(directory)
    result = CliRunner().invoke(main, ["--no-cache", "--show-files", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return result.stdout.splitlines()


@pytest.mark.parametrize("names, read, replaced", [
    (["d/main.tf", "d/main.tofu"], ["d/main.tofu"], {"d/main.tf": "d/main.tofu"}),
    (["d/main.tf.json", "d/main.tofu.json"], ["d/main.tofu.json"], {"d/main.tf.json": "d/main.tofu.json"}),
    # Only the twin of the same syntax replaces a file.
    (["d/main.tf.json", "d/main.tofu"], ["d/main.tf.json", "d/main.tofu"], {}),
    (["d/main.tf", "d/main.tofu.json"], ["d/main.tf", "d/main.tofu.json"], {}),
    # Override files are replaced by override files, the base names matching.
    (["d/main_override.tf", "d/main_override.tofu", "d/override.tf", "d/override.tofu"],
     ["d/main_override.tofu", "d/override.tofu"],
     {"d/main_override.tf": "d/main_override.tofu", "d/override.tf": "d/override.tofu"}),
    (["d/main.tf", "d/main_override.tofu"], ["d/main.tf", "d/main_override.tofu"], {}),
    (["d/a.tf", "d/b.tofu"], ["d/a.tf", "d/b.tofu"], {}),
])
def test_opentofu_replaces_a_file_by_its_twin_only(names, read, replaced):
    kept, left_out = files_read(names, OPENTOFU)
    assert kept == read
    assert left_out == [NotRead(path, OPENTOFU, twin) for path, twin in replaced.items()]


def test_terraform_reads_no_tofu_file():
    kept, left_out = files_read(["d/a.tf", "d/a.tofu", "d/b.tf.json", "d/c.tofu.json"], TERRAFORM)
    assert kept == ["d/a.tf", "d/b.tf.json"]
    assert left_out == [NotRead("d/a.tofu", TERRAFORM, None), NotRead("d/c.tofu.json", TERRAFORM, None)]


def test_main_tf_and_main_tofu_auto_terraform_and_the_configuration_key(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER, "main.tofu": CLUSTER})
    assert kap101(tmp_path, monkeypatch) == ["KAP101 main.tofu:5"]
    assert kap101(tmp_path, monkeypatch, "--engine", "terraform") == ["KAP101 main.tf:5"]
    assert kap101(tmp_path, monkeypatch, "--engine", "opentofu") == ["KAP101 main.tofu:5"]
    write(tmp_path, {".kapsulint.toml": 'engine = "terraform"\n'})
    assert kap101(tmp_path, monkeypatch) == ["KAP101 main.tf:5"]
    assert kap101(tmp_path, monkeypatch, "--engine", "opentofu") == ["KAP101 main.tofu:5"]  # the command line wins


def test_show_files_says_the_engine_and_what_it_left_out(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER, "main.tofu": CLUSTER, "versions.tf": PROVIDER})
    assert show_files(tmp_path, monkeypatch)[1:] == [
        "main.tofu\tconfig\tok\troot module",
        "versions.tf\tconfig\tok\troot module",
        "# engine: . read as OpenTofu (auto: it holds main.tofu)",
        "# shadowed: main.tf (replaced by main.tofu under OpenTofu)",
    ]
    assert show_files(tmp_path, monkeypatch, "--engine", "terraform")[1:] == [
        "main.tf\tconfig\tok\troot module",
        "versions.tf\tconfig\tok\troot module",
        "# engine: Terraform for every module (engine = terraform, command line)",
        "# not read: main.tofu (Terraform ignores .tofu files; --engine opentofu reads it)",
    ]
    write(tmp_path, {".kapsulint.toml": 'engine = "terraform"\n'})
    lines = show_files(tmp_path, monkeypatch)
    configured = f"engine = terraform, configuration {tmp_path / '.kapsulint.toml'}"
    assert f"# engine: Terraform for every module ({configured})" in lines


def test_show_settings_shows_the_engine_and_a_wrong_one_exits_2(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER})
    monkeypatch.chdir(tmp_path)
    shown = CliRunner().invoke(main, ["--show-settings", "--engine", "opentofu"], catch_exceptions=False).stdout
    assert [line.split() for line in shown.splitlines() if line.startswith("engine ")] == [
        ["engine", '"opentofu"', "(command", "line)"]]
    write(tmp_path, {".kapsulint.toml": 'engine = "tofu"\n'})
    result = CliRunner().invoke(main, ["--show-settings"], catch_exceptions=False)
    assert result.exit_code == 2
    assert result.stderr == (f"kapsulint: error: {tmp_path / '.kapsulint.toml'}: `engine` must be one of "
                             "terraform, opentofu, auto, got 'tofu'\n")
    result = CliRunner().invoke(main, ["--engine", "tofu"], catch_exceptions=False)
    assert result.exit_code == 2 and "'tofu' is not one of 'terraform', 'opentofu', 'auto'" in result.stderr


@pytest.mark.parametrize("root, read", [
    ({"main.tf": PROVIDER + CALL}, "modules/cluster/main.tf"),  # no sign of OpenTofu: Terraform
    ({"main.tf": PROVIDER + CALL, ".terraform.lock.hcl": lock("registry.terraform.io")}, "modules/cluster/main.tf"),
    ({"main.tf": PROVIDER + CALL, ".terraform.lock.hcl": lock("registry.opentofu.org")}, "modules/cluster/main.tofu"),
    ({"main.tf": CALL, "providers.tofu": PROVIDER}, "modules/cluster/main.tofu"),
    ({"main.tf": PROVIDER + CALL + 'terraform {\n  encryption {\n  }\n}\n'}, "modules/cluster/main.tofu"),
])
def test_a_root_reads_the_modules_it_calls_with_its_own_engine(tmp_path, monkeypatch, root, read):
    """A module's ``.tofu`` files say its author supports OpenTofu, not which tool its caller runs."""
    write(tmp_path, {**root, "modules/cluster/main.tf": CLUSTER, "modules/cluster/main.tofu": CLUSTER})
    assert kap101(tmp_path, monkeypatch) == [f"KAP101 {read}:5"]


def test_a_module_no_one_calls_decides_by_itself(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": PROVIDER, "modules/cluster/main.tf": CLUSTER, "modules/cluster/main.tofu": CLUSTER})
    assert kap101(tmp_path, monkeypatch) == ["KAP101 modules/cluster/main.tofu:5"]


def test_a_module_reached_by_both_engines_is_read_as_opentofu_when_it_has_tofu_files(tmp_path, monkeypatch):
    write(tmp_path, {"tofu/main.tofu": PROVIDER + CALL.replace("./modules", "../modules"),
                     "terraform/main.tf": PROVIDER + CALL.replace("./modules", "../modules"),
                     "modules/cluster/main.tf": CLUSTER, "modules/cluster/main.tofu": CLUSTER})
    assert kap101(tmp_path, monkeypatch) == ["KAP101 modules/cluster/main.tofu:5"]
    lines = show_files(tmp_path, monkeypatch)
    assert ("# engine: terraform read as Terraform (auto: no .tofu file, no OpenTofu lock file or state "
            "encryption)") in lines
    assert "# engine: tofu read as OpenTofu (auto: it holds main.tofu)" in lines


def test_the_calls_a_module_makes_depend_on_the_files_read(tmp_path, monkeypatch):
    """main.tofu calls another module than main.tf: the tree follows the files its engine reads."""
    write(tmp_path, {"main.tf": PROVIDER + 'module "cluster" {\n  source = "./modules/a"\n}\n',
                     "main.tofu": PROVIDER + 'module "cluster" {\n  source = "./modules/b"\n}\n',
                     "modules/a/main.tf": CLUSTER,
                     "modules/b/main.tf": 'module "inner" {\n  source = "../c"\n}\n',
                     "modules/c/main.tf": CLUSTER, "modules/c/main.tofu": CLUSTER})
    # modules/a is called by no file OpenTofu reads: a module of its own, evaluated with its defaults
    assert kap101(tmp_path, monkeypatch) == ["KAP101 modules/a/main.tf:5", "KAP101 modules/c/main.tofu:5"]
    # Under Terraform modules/b is the one no one calls: its tree (and c in it) is Terraform's
    assert kap101(tmp_path, monkeypatch, "--engine", "terraform") == ["KAP101 modules/a/main.tf:5",
                                                                      "KAP101 modules/c/main.tf:5"]


def test_downloaded_modules_are_read_with_the_engine_of_the_root_that_downloaded_them(tmp_path, monkeypatch):
    manifest = {"Modules": [{"Key": "", "Source": "", "Dir": "."},
                            {"Key": "cluster", "Source": "registry.opentofu.org/acme/cluster/scaleway",
                             "Dir": ".terraform/modules/cluster"}]}
    downloaded = ".terraform/modules/cluster"
    write(tmp_path, {"main.tf": PROVIDER + 'module "cluster" {\n  source = "acme/cluster/scaleway"\n}\n',
                     ".terraform/modules/modules.json": json.dumps(manifest),
                     f"{downloaded}/outputs.tf": 'output "engine" {\n  value = "terraform"\n}\n',
                     f"{downloaded}/outputs.tofu": 'output "engine" {\n  value = "opentofu"\n}\n'})

    def evaluated() -> str:
        result = CliRunner().invoke(main, ["--no-cache", "--eval", "module.cluster.engine", "."])
        return json.loads(result.stdout)["value"]

    monkeypatch.chdir(tmp_path)
    assert evaluated() == "terraform"
    files = show_files(tmp_path, monkeypatch)
    assert f"# not read: {downloaded}/outputs.tofu (Terraform ignores .tofu files; --engine opentofu reads it)" in files
    write(tmp_path, {".terraform.lock.hcl": lock("registry.opentofu.org")})
    assert evaluated() == "opentofu"
    files = show_files(tmp_path, monkeypatch)
    assert ("# engine: . read as OpenTofu (auto: .terraform.lock.hcl names registry.opentofu.org/scaleway/scaleway)"
            in files)
    assert f"# shadowed: {downloaded}/outputs.tf (replaced by outputs.tofu under OpenTofu)" in files


def test_a_path_naming_a_file_its_engine_leaves_out_says_so(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER, "main.tofu": CLUSTER.replace("true", "false")})
    code, findings, stderr = lint(tmp_path, ["--no-cache", "--select", "KAP101", "main.tf"], monkeypatch)
    assert (code, findings) == (0, [])
    assert stderr == ("kapsulint: main.tf is not read: main.tofu replaces it under OpenTofu "
                      "(--engine terraform reads it)\n")
    stderr = lint(tmp_path, ["--no-cache", "--engine", "terraform", "--select", "KAP101", "main.tofu"],
                  monkeypatch)[2]
    assert stderr == "kapsulint: main.tofu is not read: Terraform ignores .tofu files (--engine opentofu reads it)\n"


def test_an_unreadable_file_its_engine_leaves_out_is_no_error(tmp_path, monkeypatch):
    """OpenTofu never opens the .tf file a .tofu file replaces: it cannot fail to read it."""
    write(tmp_path, {"main.tofu": CLUSTER})
    (tmp_path / "main.tf").symlink_to(tmp_path / "nowhere.tf")
    assert lint(tmp_path, ["--no-cache", "--select", "KAP101"], monkeypatch)[::2] == (1, "")
    assert "# shadowed: main.tf (replaced by main.tofu under OpenTofu)" in show_files(tmp_path, monkeypatch)
    code, _, stderr = lint(tmp_path, ["--no-cache", "--engine", "terraform", "--select", "KAP101"], monkeypatch)
    assert stderr == f"kapsulint: cannot read {tmp_path / 'main.tf'}: broken symbolic link\n"


def test_variables_files_terraform_does_not_load_by_itself(tmp_path, monkeypatch):
    variables = 'variable "version" {\n  type    = string\n  default = "1.34"\n}\n'
    write(tmp_path, {"main.tf": PROVIDER + variables, "cluster-start.tfvars": 'version = "1.35"\n',
                     "terraform.tfvars": "", "zz.auto.tfvars": "", "envs/prod.tfvars": 'version = "1.33"\n'})
    monkeypatch.chdir(tmp_path)

    def evaluated(*args: str) -> str:
        result = CliRunner().invoke(main, ["--no-cache", *args, "--eval", "var.version", "."], catch_exceptions=False)
        return json.loads(result.stdout)["value"]

    assert evaluated() == "1.34"  # as terraform plan: the default
    assert evaluated("--var-file", "cluster-start.tfvars") == "1.35"
    lines = show_files(tmp_path, monkeypatch)
    assert "cluster-start.tfvars\ttfvars\tok\tnot loaded (name it with --var-file)" in lines
    assert "terraform.tfvars\ttfvars\tok\tvariables of ." in lines
    assert "zz.auto.tfvars\ttfvars\tok\tvariables of ." in lines
    named = show_files(tmp_path, monkeypatch, "--var-file", "cluster-start.tfvars")
    named_line = "variables of the root modules (named with --var-file or var-files)"
    assert f"cluster-start.tfvars\ttfvars\tok\t{named_line}" in named
    write(tmp_path, {".kapsulint.toml": 'var-files = ["envs/prod.tfvars"]\n'})
    assert evaluated() == "1.33"
    assert f"envs/prod.tfvars\ttfvars\tok\t{named_line}" in show_files(tmp_path, monkeypatch)


def test_show_files_lists_each_module_call_not_read_with_why(tmp_path, monkeypatch):
    calls = {
        "registry": "particuleio/kapsule/scaleway",
        "git": "git::https://example.com/kapsule.git?ref=v1.0.0",
        "github": "github.com/example/kapsule",
        "http": "https://example.com/kapsule.zip",
        "s3": "s3::https://s3.fr-par.scw.cloud/bucket/kapsule.zip",
        "gcs": "gcs::https://www.googleapis.com/storage/v1/bucket/kapsule.zip",
        "missing": "./modules/missing",
        "tofu_only": "./modules/tofu_only",
    }
    text = "".join(f'module "{name}" {{\n  source = "{source}"\n}}\n' for name, source in calls.items())
    write(tmp_path, {"main.tf": PROVIDER + text, "modules/tofu_only/main.tofu": CLUSTER})
    lines = [line for line in show_files(tmp_path, monkeypatch, "--engine", "terraform")
             if line.startswith("# not read: module ")]
    not_downloaded = ("was not downloaded: `terraform init` writes .terraform/modules/, which kapsulint reads "
                      "(kapsulint never downloads)")
    assert lines == [
        f'# not read: module "registry" (main.tf:4): its source "{calls["registry"]}" (registry) {not_downloaded}',
        f'# not read: module "git" (main.tf:7): its source "{calls["git"]}" (git) {not_downloaded}',
        f'# not read: module "github" (main.tf:10): its source "{calls["github"]}" (git) {not_downloaded}',
        f'# not read: module "http" (main.tf:13): its source "{calls["http"]}" (HTTP archive) {not_downloaded}',
        f'# not read: module "s3" (main.tf:16): its source "{calls["s3"]}" (S3) {not_downloaded}',
        f'# not read: module "gcs" (main.tf:19): its source "{calls["gcs"]}" (GCS) {not_downloaded}',
        '# not read: module "missing" (main.tf:22): its source "./modules/missing" is not a directory (terraform '
        'init fails: unreadable module directory)',
        '# not read: module "tofu_only" (main.tf:25): its source "./modules/tofu_only" holds only .tofu files, '
        'which Terraform ignores (--engine opentofu reads them)',
    ]
    # auto: the root has no sign of OpenTofu, so it reads the module it calls as Terraform does
    assert show_files(tmp_path, monkeypatch)[-1] == lines[-1]
    write(tmp_path, {".terraform/modules/modules.json": '{"Modules": [{"Key": "", "Source": "", "Dir": "."}]}'})
    lines = show_files(tmp_path, monkeypatch, "--engine", "opentofu")
    assert (f'# not read: module "registry" (main.tf:4): its source "{calls["registry"]}" (registry) is not listed '
            "in .terraform/modules/modules.json: `terraform init` downloads it, and kapsulint reads "
            ".terraform/modules/") in lines
    assert not any('module "tofu_only"' in line for line in lines)  # OpenTofu reads its main.tofu
