"""What kapsulint reads: the project root, nested projects, modules outside the root, values files
named by the release that reads them, and what --show-files says about each file."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from fixture_support import lint

from kapsulint.cli.command import main

TERRAFORM_EVERYWHERE = ("# engine: Terraform for every module (auto: no .tofu file, no OpenTofu lock file or "
                        "state encryption)")

CLUSTER = """\
resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  version                     = "1.31"
  cni                         = "cilium"
  delete_additional_resources = true
}
"""
RELEASE = """\
resource "helm_release" "haproxy" {
  name       = "haproxy"
  repository = "https://haproxytech.github.io/helm-charts"
  chart      = "kubernetes-ingress"
  values     = [file("${path.module}/values/haproxy.yaml")]
}
"""
ANY_SOURCE = 'controller:\n  config:\n    proxy-protocol: "0.0.0.0/0"\n'


def write(directory: Path, files: dict[str, str]) -> Path:
    for name, content in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return directory


def where(findings: list[dict]) -> list[tuple[str, str, int]]:
    return sorted((f["rule"], f["path"], f["line"]) for f in findings)


def show_files(directory: Path, args: list[str], monkeypatch) -> list[str]:
    monkeypatch.chdir(directory)
    result = CliRunner().invoke(main, ["--show-files", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return result.stdout.splitlines()


def _home(tmp_path: Path) -> Path:
    """A folder above several projects, neither a git repository nor configured."""
    return write(tmp_path, {
        "p1/infra/main.tf": 'module "x" {\n  source = "../../modules/x"\n}\n',
        "modules/x/main.tf": CLUSTER,
        "p2/main.tf": "broken {\n",
    })


def test_without_configuration_or_git_the_root_is_the_path(tmp_path, monkeypatch):
    home = _home(tmp_path)
    code, findings, stderr = lint(home, ["--select", "KAP001,KAP011,KAP101", "p1/infra"], monkeypatch)
    assert code == 0, stderr  # p2's parse error is never read, so the run does not exit 2
    # The root is the boundary too: the local module outside it is not read, and the call says so.
    assert where(findings) == [("KAP011", "p1/infra/main.tf", 2)]
    files = show_files(home, ["p1/infra"], monkeypatch)
    assert files == ["# project root: p1/infra (PATH)",
                     "p1/infra/main.tf\tconfig\tok\tmodule",
                     TERRAFORM_EVERYWHERE,
                     '# not read: module "x" (p1/infra/main.tf:1): its source "../../modules/x" resolves '
                     "outside the repository"]


def test_a_local_module_outside_the_root_inside_the_repository_is_read(tmp_path, monkeypatch):
    home = _home(tmp_path)
    write(home, {".git/HEAD": "ref: refs/heads/main\n", "p1/infra/.kapsulint.toml": ""})
    code, findings, stderr = lint(home, ["--select", "KAP001,KAP011,KAP101", "p1/infra"], monkeypatch)
    assert code == 1, stderr
    # The module outside the root is followed, and its findings belong to the PATH's report.
    assert where(findings) == [("KAP101", "modules/x/main.tf", 5)]
    files = show_files(home, ["p1/infra"], monkeypatch)
    assert files == [f"# project root: p1/infra (configuration {home / 'p1/infra/.kapsulint.toml'})",
                     "modules/x/main.tf\tconfig\tok\tmodule called from p1/infra/main.tf:1",
                     "p1/infra/main.tf\tconfig\tok\tmodule",
                     TERRAFORM_EVERYWHERE]


def test_a_file_path_roots_the_project_at_its_directory(tmp_path, monkeypatch):
    home = _home(tmp_path)
    write(home, {"p2/ok/main.tf": CLUSTER})
    code, findings, stderr = lint(home, ["--select", "KAP001,KAP101", "p2/ok/main.tf"], monkeypatch)
    assert (code, where(findings)) == (1, [("KAP101", "p2/ok/main.tf", 5)]), stderr


def test_no_path_in_a_git_subdirectory_means_dot(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    write(tmp_path, {"a/main.tf": CLUSTER, "b/main.tf": CLUSTER})
    _, without, _ = lint(tmp_path / "a", ["--select", "KAP101"], monkeypatch)
    _, dot, _ = lint(tmp_path / "a", ["--select", "KAP101", "."], monkeypatch)
    assert where(without) == where(dot) == [("KAP101", "main.tf", 5)]


def test_a_nested_configuration_is_a_project_of_its_own(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    write(tmp_path, {"main.tf": CLUSTER, "vendor/clone/.kapsulint.toml": "", "vendor/clone/main.tf": CLUSTER})
    _, findings, _ = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert where(findings) == [("KAP101", "main.tf", 5)]
    files = show_files(tmp_path, [], monkeypatch)
    assert files[1:] == ["main.tf\tconfig\tok\tmodule", TERRAFORM_EVERYWHERE,
                         "# left out: vendor/clone (a project of its own; name it as a PATH to lint it)"]
    # Named as a PATH, it is read: alone (its own configuration is the root) or beside the outer one.
    _, findings, _ = lint(tmp_path, ["--select", "KAP101", "vendor/clone"], monkeypatch)
    assert where(findings) == [("KAP101", "vendor/clone/main.tf", 5)]
    _, findings, _ = lint(tmp_path, ["--select", "KAP101", ".", "vendor/clone"], monkeypatch)
    assert where(findings) == [("KAP101", "main.tf", 5), ("KAP101", "vendor/clone/main.tf", 5)]


def test_a_nested_pyproject_with_a_kapsulint_table_is_a_project_too(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    write(tmp_path, {"main.tf": CLUSTER, "a/pyproject.toml": "[tool.kapsulint]\nfail-on = \"error\"\n",
                     "a/main.tf": CLUSTER, "b/pyproject.toml": "[project]\nname = \"b\"\n", "b/main.tf": CLUSTER})
    _, findings, _ = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert where(findings) == [("KAP101", "b/main.tf", 5), ("KAP101", "main.tf", 5)]


def test_nothing_to_lint_is_said_on_stderr_and_exits_0(tmp_path, monkeypatch):
    write(tmp_path, {"docs/README.md": "nothing here\n"})
    code, findings, stderr = lint(tmp_path, ["docs"], monkeypatch)
    assert (code, findings) == (0, [])
    assert stderr == "kapsulint: no Terraform or values file found under docs\n"


def _released(tmp_path: Path, values: str = ANY_SOURCE) -> Path:
    (tmp_path / ".git").mkdir()
    return write(tmp_path, {"main.tf": RELEASE, "values/haproxy.yaml": values})


def test_a_yaml_read_by_a_release_is_a_values_file_whatever_its_name(tmp_path, monkeypatch):
    repo = _released(tmp_path)
    code, findings, stderr = lint(repo, ["--select", "KAP302,KAP308", "values/haproxy.yaml"], monkeypatch)
    # The changed values file reports the findings of the release that reads it, in main.tf too.
    assert (code, where(findings)) == (1, [("KAP302", "values/haproxy.yaml", 3), ("KAP308", "main.tf", 1)])
    assert "no Terraform or values file" not in stderr
    assert show_files(repo, [], monkeypatch)[1:] == [
        "main.tf\tconfig\tok\tmodule",
        "values/haproxy.yaml\tvalues\tok\tread by helm_release.haproxy (main.tf:1)",
        TERRAFORM_EVERYWHERE,
    ]


def test_suppressions_and_parse_errors_in_a_values_file_found_by_its_reader(tmp_path, monkeypatch):
    suppressed = ANY_SOURCE.rstrip("\n") + "  # kapsulint: ignore[KAP302] PROXY from the LB only\n"
    repo = _released(tmp_path, suppressed)
    _, findings, _ = lint(repo, ["--select", "KAP302,KAP003"], monkeypatch)
    assert findings == []
    (repo / "values/haproxy.yaml").write_text("controller:\n  config: [\n", encoding="utf-8")
    _, findings, _ = lint(repo, ["--select", "KAP001"], monkeypatch)
    assert [(f["rule"], f["path"]) for f in findings] == [("KAP001", "values/haproxy.yaml")]


def test_show_files_names_the_values_files_setting(tmp_path, monkeypatch):
    write(tmp_path, {".kapsulint.toml": 'values-files = ["helm/*.yaml"]\n', "helm/proxy.yaml": "a: 1\n",
                     "values.yaml": "a: 1\n", "main.tf": CLUSTER, "terraform.tfvars": 'x = 1\n'})
    assert show_files(tmp_path, [], monkeypatch) == [
        f"# project root: . (configuration {tmp_path / '.kapsulint.toml'})",
        "helm/proxy.yaml\tvalues\tok\tvalues-files helm/*.yaml",
        "main.tf\tconfig\tok\troot module",
        "terraform.tfvars\ttfvars\tok\tvariables of .",
        "values.yaml\tvalues\tok\tnamed values*.yaml",
        TERRAFORM_EVERYWHERE,
    ]


def test_a_template_read_by_templatefile_reports_its_release(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    release = RELEASE.replace('[file("${path.module}/values/haproxy.yaml")]',
                              '[templatefile("${path.module}/values/haproxy.yaml", { cidr = "0.0.0.0/0" })]')
    write(tmp_path, {"main.tf": release, "values/haproxy.yaml": ANY_SOURCE.replace("0.0.0.0/0", "${cidr}")})
    _, findings, stderr = lint(tmp_path, ["--select", "KAP302", "values/haproxy.yaml"], monkeypatch)
    assert where(findings) == [("KAP302", "main.tf", 5)], stderr
    assert show_files(tmp_path, [], monkeypatch)[2] == (
        "values/haproxy.yaml\tvalues\tok (template expressions read as unknown)\tread by helm_release.haproxy (main.tf:1)")
