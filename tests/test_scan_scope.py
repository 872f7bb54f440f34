"""The engine's narrow scope: a scan restricted to some root module trees, and what each tree holds.

``Project.tree_files`` gives each top-level module the directories of the modules it calls and the
files they hold or read (``file()``, a template); ``ScanOptions.scope`` reads only those, so a
scan of one tree judges as the whole project judges that tree.
"""

from __future__ import annotations

from pathlib import Path

from kapsulint.cli.settings import CommandLine, resolve_settings
from kapsulint.lint.runner import run
from kapsulint.model.options import ScanScope
from kapsulint.model.project import Project

POOL = '''\
resource "scaleway_k8s_pool" "this" {
  cluster_id = var.cluster_id
  name       = "pool"
  node_type  = "PRO2-M"
  size       = 1
}

variable "cluster_id" {
  type = string
}
'''


def root_module(name: str, calls_shared: bool) -> str:
    call = f'''
module "pool" {{
  source     = "../../modules/pool"
  cluster_id = scaleway_k8s_cluster.{name}.id
}}
''' if calls_shared else ""
    return f'''\
provider "scaleway" {{}}

resource "scaleway_k8s_cluster" "{name}" {{
  name                        = "{name}"
  version                     = "1.31"
  cni                         = "cilium"
  delete_additional_resources = true
  tags                        = [file("${{path.module}}/tag.txt")]
}}
{call}'''


def write(root: Path) -> None:
    for name, calls_shared in (("a", True), ("b", True), ("c", False)):
        (root / "clusters" / name).mkdir(parents=True)
        (root / "clusters" / name / "main.tf").write_text(root_module(name, calls_shared), encoding="utf-8")
        (root / "clusters" / name / "tag.txt").write_text(f"team={name}", encoding="utf-8")
    (root / "modules" / "pool").mkdir(parents=True)
    (root / "modules" / "pool" / "main.tf").write_text(POOL, encoding="utf-8")
    (root / "values.yaml").write_text("controller:\n  replicaCount: 2\n", encoding="utf-8")


def findings_of(result, paths: set[str]) -> list[tuple]:
    return sorted((f.loc, f.rule, f.message, tuple(f.instances), f.suppressed_by)
                  for f in result.findings if f.loc.path in paths)


def test_tree_files_name_each_roots_modules_and_the_files_it_reads(tmp_path: Path):
    write(tmp_path)
    resolved = resolve_settings(CommandLine(targets=[tmp_path], today="2026-12-01"))
    result = run(resolved.settings)
    trees = result.project.tree_files()
    root = str(tmp_path.resolve())
    a, c, pool = f"{root}/clusters/a", f"{root}/clusters/c", f"{root}/modules/pool"
    assert sorted(trees) == [a, f"{root}/clusters/b", c]
    assert trees[a] == (frozenset({a, pool}), frozenset({f"{a}/main.tf", f"{a}/tag.txt", f"{pool}/main.tf"}))
    assert trees[c] == (frozenset({c}), frozenset({f"{c}/main.tf", f"{c}/tag.txt"}))
    assert all(f"{root}/values.yaml" not in files for _, files in trees.values())  # read by no tree


def test_a_scan_of_one_tree_reads_only_it_and_judges_it_as_the_whole_does(tmp_path: Path):
    write(tmp_path)
    whole = run(resolve_settings(CommandLine(targets=[tmp_path], today="2026-12-01")).settings)
    trees = whole.project.tree_files()
    root = str(tmp_path.resolve())
    c = f"{root}/clusters/c"
    directories, files = trees[c]
    resolved = resolve_settings(CommandLine(targets=[tmp_path], today="2026-12-01"))
    resolved.settings.scan.scope = ScanScope(directories, files, discovered=whole.project.discovered)
    part = run(resolved.settings)
    assert set(part.project.files) == {f"{c}/main.tf"}  # tag.txt is read by file(), not as a project file
    assert part.project.tree_files() == {c: trees[c]}
    assert findings_of(part, set(files)) == findings_of(whole, set(files))
    assert any(f.rule == "KAP101" for f in part.findings)


def test_shared_modules_of_the_scope_label_instances_as_the_whole_does(tmp_path: Path):
    """A tree scanned alone calls a module other trees call too: given as shared, its instances
    carry their root's label, as in the whole project."""
    write(tmp_path)
    resolved = resolve_settings(CommandLine(targets=[tmp_path], today="2026-12-01"))
    root = str(tmp_path.resolve())
    a, pool = f"{root}/clusters/a", f"{root}/modules/pool"
    directories = frozenset({a, pool})
    files = frozenset({f"{a}/main.tf", f"{pool}/main.tf"})
    resolved.settings.scan.scope = ScanScope(directories, files)
    alone = Project(resolved.settings.scan).load()
    assert not alone.shared_module(pool)
    resolved.settings.scan.scope = ScanScope(directories, files, frozenset({pool}))
    labelled = Project(resolved.settings.scan).load()
    assert labelled.shared_module(pool)
    child = next(instance for instance in labelled.instances() if instance.module.path == pool)
    assert child.root_label == " (root clusters/a)"
