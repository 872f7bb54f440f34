"""Where a value is written, for fixes: the literal a finding points at is edited only when
nothing else reads it (kapsulint/model/written.py)."""

from __future__ import annotations

from pathlib import Path

from kapsulint.findings import Edit
from kapsulint.model.options import ScanOptions
from kapsulint.model.project import Project
from kapsulint.model.written import combined, literal_edit, reference_edit, unwrap_edit, wrap_edit

CLUSTER = """
resource "scaleway_k8s_cluster" "main" {{
  name                        = "prod"
  version                     = "1.35.3"
  cni                         = "cilium"
  delete_additional_resources = {value}
}}
"""


def _project(tmp_path: Path, files: dict[str, str]) -> Project:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return Project(ScanOptions(root=tmp_path, cache=False)).load()


def _cluster_argument(project: Project, name: str):
    (cluster,) = project.resources("scaleway_k8s_cluster")
    return cluster.arg(name)


def test_a_literal_in_the_resource_is_edited_there(tmp_path):
    project = _project(tmp_path, {"main.tf": CLUSTER.format(value="true")})
    value = _cluster_argument(project, "delete_additional_resources")
    edit = literal_edit(project, value, "false")
    assert edit == Edit(str(tmp_path / "main.tf"), 6, 33, 6, 37, "false")


def test_a_variable_default_read_once_is_edited_there(tmp_path):
    variable = 'variable "cleanup" {\n  type    = bool\n  default = true\n}\n'
    project = _project(tmp_path, {"main.tf": variable + CLUSTER.format(value="var.cleanup")})
    value = _cluster_argument(project, "delete_additional_resources")
    assert literal_edit(project, value, "false") == Edit(str(tmp_path / "main.tf"), 3, 13, 3, 17, "false")


def test_a_variable_default_read_twice_is_refused(tmp_path):
    variable = 'variable "cleanup" {\n  type    = bool\n  default = true\n}\n'
    output = 'output "cleanup" {\n  value = var.cleanup\n}\n'
    project = _project(tmp_path, {"main.tf": variable + CLUSTER.format(value="var.cleanup") + output})
    value = _cluster_argument(project, "delete_additional_resources")
    assert value.is_true()
    assert literal_edit(project, value, "false") is None


def test_a_literal_inside_a_conditional_is_refused(tmp_path):
    variable = 'variable "env" {\n  type    = string\n  default = "dev"\n}\n'
    project = _project(tmp_path, {"main.tf": variable + CLUSTER.format(value='var.env == "prod" ? false : true')})
    value = _cluster_argument(project, "delete_additional_resources")
    assert value.is_true() and value.loc is not None
    assert literal_edit(project, value, "false") is None


def test_a_tfvars_assignment_is_edited_there(tmp_path):
    variable = 'provider "scaleway" {}\n\nvariable "cleanup" {\n  type = bool\n}\n'
    project = _project(tmp_path, {"main.tf": variable + CLUSTER.format(value="var.cleanup"),
                                  "terraform.tfvars": "cleanup = true\n"})
    value = _cluster_argument(project, "delete_additional_resources")
    assert literal_edit(project, value, "false") == Edit(str(tmp_path / "terraform.tfvars"), 1, 11, 1, 15, "false")


def test_a_reference_is_replaced_and_a_call_wrapped_or_unwrapped(tmp_path):
    text = CLUSTER.format(value="false") + (
        '\noutput "kubeconfig" {\n  value = nonsensitive(scaleway_k8s_cluster.main.kubeconfig[0].config_file)\n}\n'
        '\nlocals {\n  cluster_id = scaleway_k8s_cluster.main.id\n}\n'
        '\noutput "cluster_id" {\n  value = local.cluster_id\n}\n')
    project = _project(tmp_path, {"main.tf": text})
    module = project.modules[str(tmp_path)]
    value = module.outputs["kubeconfig"].attr("value")
    inner = "scaleway_k8s_cluster.main.kubeconfig[0].config_file"
    assert unwrap_edit(project, value, "nonsensitive").content == inner
    assert unwrap_edit(project, value, "sensitive") is None
    assert wrap_edit(project, value.value_loc, "try").content == f"try(nonsensitive({inner}))"
    (instance,) = project.top_instances()
    reference = instance.local("cluster_id")
    assert reference_edit(project, reference, 'split("/", scaleway_k8s_cluster.main.id)[1]') == Edit(
        str(tmp_path / "main.tf"), 14, 16, 14, 44, 'split("/", scaleway_k8s_cluster.main.id)[1]')
    assert literal_edit(project, reference, "x") is None  # a reference is no literal


def test_combined_edits_apply_the_inner_one_inside_the_outer_one(tmp_path):
    project = _project(tmp_path, {"main.tf": 'output "x" {\n  value = nonsensitive(var.y)\n}\n'})
    path = str(tmp_path / "main.tf")
    outer = Edit(path, 2, 1, 3, 1, "  value     = nonsensitive(var.y)\n  sensitive = true\n")
    inner = Edit(path, 2, 11, 2, 30, "var.y")
    assert combined(project, outer, inner) == (Edit(path, 2, 1, 3, 1, "  value     = var.y\n  sensitive = true\n"),)
    apart = Edit(path, 1, 1, 1, 1, "# x\n")
    assert combined(project, apart, inner) == (apart, inner)
    assert combined(project, None, inner) is None


def test_aligned_trailing_comments_are_realigned(tmp_path):
    text = ('resource "scaleway_k8s_cluster" "main" {\n'
            '  name                        = "prod"   # the environment\n'
            '  version                     = "1.35.3" # tested on\n'
            '  delete_additional_resources = true     # cleanup\n'
            '}\n')
    project = _project(tmp_path, {"main.tf": text})
    edit = literal_edit(project, _cluster_argument(project, "version"), '"1.35"')
    assert edit == Edit(str(tmp_path / "main.tf"), 2, 1, 5, 1,
                        '  name                        = "prod" # the environment\n'
                        '  version                     = "1.35" # tested on\n'
                        '  delete_additional_resources = true   # cleanup\n')
    longer = literal_edit(project, _cluster_argument(project, "delete_additional_resources"), "false")
    assert longer.content.splitlines()[2] == "  delete_additional_resources = false    # cleanup"
    plain = CLUSTER.format(value="true # cleanup")
    project = _project(tmp_path, {"main.tf": plain})
    edit = literal_edit(project, _cluster_argument(project, "delete_additional_resources"), "false")
    assert edit == Edit(str(tmp_path / "main.tf"), 6, 33, 6, 37, "false")  # a comment of its own: left alone


def test_a_value_passed_to_a_module_that_reads_it_twice_is_refused(tmp_path):
    (tmp_path / "cluster").mkdir()
    cluster = CLUSTER.replace('"1.35.3"', "var.release").format(value="false")
    child = 'variable "release" {\n  type = string\n}\n' + cluster + 'output "release" {\n  value = var.release\n}\n'
    root = ('variable "release" {\n  type    = string\n  default = "1.35.3"\n}\n\n'
            'module "k8s" {\n  source  = "./cluster"\n  release = var.release\n}\n')
    project = _project(tmp_path, {"main.tf": root, "cluster/main.tf": child})
    value = _cluster_argument(project, "version")
    assert value.text() == "1.35.3" and value.loc.path == str(tmp_path / "main.tf")
    assert literal_edit(project, value, '"1.35"') is None
    (tmp_path / "cluster" / "main.tf").write_text(child.split('output "release"')[0], encoding="utf-8")
    project = Project(ScanOptions(root=tmp_path, cache=False)).load()
    assert literal_edit(project, _cluster_argument(project, "version"), '"1.35"') is not None


def test_a_layout_fmt_would_change_is_kept(tmp_path):
    text = ('resource "scaleway_k8s_cluster" "main" {\n'
            '  name                        = "prod"\n'
            '  version                     = "1.35.3"\n'
            '\n'
            '  delete_additional_resources = true\n'
            '}\n')
    project = _project(tmp_path, {"main.tf": text})
    edit = literal_edit(project, _cluster_argument(project, "version"), '"1.35"')
    assert edit == Edit(str(tmp_path / "main.tf"), 3, 33, 3, 41, '"1.35"')  # name and version keep their padding
