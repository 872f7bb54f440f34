"""The walker of references (kapsulint.model.references): what it finds, where, and where it leads."""

from pathlib import Path

from kapsulint.api import (
    Reference, ReferenceWalk, Step, caller_argument, local_value, module_outputs, references, variable_default,
)
from kapsulint.model.references import MAX_DEPTH, MAX_WALK_STEPS
from kapsulint.model.options import ScanOptions
from kapsulint.model.project import Project

ROOT = """\
locals {
  name   = "${var.prefix}-${random_pet.suffix.id}"
  picked = merge({ zone = var.zone, other = local.name }, {})
  listed = [for k, v in var.pools : "${k}=${v.type}" if v.size > count.index]
  ids    = scaleway_k8s_pool.p[*].id
  keyed  = var.pools[var.which].node_type
  pair   = [var.first, var.second]
}

module "net" {
  source = "./net"
  cidr   = var.cidr
}

output "kubeconfig" {
  value = yamldecode(file("${path.module}/k.yaml"))[data.scaleway_k8s_cluster.c.kubeconfig[0].token]
}
"""

NET = """\
variable "cidr" {
  default = "10.0.0.0/16"
}

output "subnet" {
  value = { range = var.cidr, gateway = "10.0.0.1" }
}
"""


def _project(tmp_path: Path) -> Project:
    (tmp_path / "main.tf").write_text(ROOT)
    (tmp_path / "net").mkdir()
    (tmp_path / "net" / "main.tf").write_text(NET)
    return Project(ScanOptions(root=tmp_path, cache=False, jobs=1)).load()


def _at(ref: Reference) -> tuple[str, tuple[str, ...], int, int, int]:
    return ref.root, ref.path, ref.loc.line, ref.loc.column, ref.loc.end_column


def test_interpolations_with_their_positions(tmp_path):
    root = _project(tmp_path).top_instances()[0]
    found = references(local_value(root, "name"))
    assert [_at(r) for r in found] == [
        ("var", ("prefix",), 2, 15, 25),
        ("random_pet", ("suffix", "id"), 2, 29, 49),
    ]
    assert all(r.loc.path == str(tmp_path / "main.tf") for r in found)


def test_suffix_picks_a_member_through_a_pass_through_function(tmp_path):
    root = _project(tmp_path).top_instances()[0]
    (zone,) = references(local_value(root, "picked"), ("zone",))
    assert (zone.root, zone.path, zone.calls) == ("var", ("zone",), ("merge",))
    every = references(local_value(root, "picked"))
    assert [r.root for r in every] == ["var", "local"]
    assert all(r.suffix == () for r in every)


def test_suffix_picks_a_tuple_element(tmp_path):
    root = _project(tmp_path).top_instances()[0]
    assert [r.path for r in references(local_value(root, "pair"), ("1", "name"))] == [("second", "name")]
    assert [r.path for r in references(local_value(root, "pair"), ("2",))] == [("first",), ("second",)]


def test_for_names_are_bound_and_count_is_not(tmp_path):
    root = _project(tmp_path).top_instances()[0]
    found = [(r.root, r.path, r.bound) for r in references(local_value(root, "listed"))]
    assert found == [
        ("var", ("pools",), False),
        ("k", (), True),
        ("v", ("type",), True),
        ("v", ("size",), True),
        ("count", ("index",), False),
    ]


def test_splat_and_unknown_index(tmp_path):
    root = _project(tmp_path).top_instances()[0]
    (ids,) = references(local_value(root, "ids"))
    assert (ids.root, ids.steps, ids.splat) == ("scaleway_k8s_pool", (Step("p", True),), ("id",))
    assert (ids.path, ids.known_path) == (("p", "id"), ("p",))  # a splat's attributes are not one value's
    which, pools = references(local_value(root, "keyed"))
    assert which.path == ("which",)  # the index is a reference of its own, found first
    assert pools.path == ("pools", "*", "node_type")
    assert pools.known_path == ("pools",)
    assert pools.attributes == ("pools", "node_type")


def test_function_calls_crossed_outermost_first(tmp_path):
    project = _project(tmp_path)
    root = project.top_instances()[0]
    value = root.module.outputs["kubeconfig"].attr("value").expression
    found = {r.root: r for r in references(value)}
    assert found["path"].calls == ("yamldecode", "file")
    assert found["data"].calls == ()
    assert found["data"].path == ("scaleway_k8s_cluster", "c", "kubeconfig", "0", "token")
    assert (found["data"].loc.line, found["data"].loc.column) == (16, 53)


def test_following_a_variable_and_an_output_across_module_instances(tmp_path):
    root = _project(tmp_path).top_instances()[0]
    (output,) = module_outputs(root, ("net", "subnet", "range"))
    assert (output.name, output.rest) == ("subnet", ("range",))
    assert output.module.address == "module.net"
    (cidr,) = references(output.expression, output.rest)  # only the member read
    assert (cidr.root, cidr.path) == ("var", ("cidr",))
    caller, argument = caller_argument(output.module, "cidr")
    assert caller is root
    assert [(r.root, r.path, r.loc.line) for r in references(argument)] == [("var", ("cidr",), 12)]
    assert variable_default(output.module, "cidr").literal == "10.0.0.0/16"
    assert caller_argument(root, "cidr") is None  # a root module's variables come from tfvars


class _Locals(ReferenceWalk[tuple[str, ...]]):
    """A consumer of the walk: every local an expression reaches, with the locals on the way to it."""

    def __init__(self) -> None:
        super().__init__()
        self.reached: list[tuple[str, ...]] = []

    def reference(self, module, ref, context):
        if ref.root == "local" and ref.path:
            name = ref.path[0]
            self.reached.append(context + (name,))
            value = local_value(module, name)
            if value is not None:
                self.follow((id(module), name), module, value, ref.path[1:], context + (name,))


def _locals_project(tmp_path: Path, text: str):
    (tmp_path / "main.tf").write_text(text)
    return Project(ScanOptions(root=tmp_path, cache=False, jobs=1)).load().top_instances()[0]


def test_the_walk_follows_each_expression_once_on_a_way_and_stops_at_a_cycle(tmp_path):
    root = _locals_project(tmp_path, 'locals {\n  a = local.b\n  b = "${local.c}${local.a}"\n  c = local.b\n}\n')
    walk = _Locals()
    walk.walk(root, local_value(root, "a"), (), ())
    # b is entered once on each way: from b, neither c's b nor b's a is followed again.
    assert walk.reached == [("b",), ("b", "c"), ("b", "c", "b"), ("b", "a"), ("b", "a", "b")]
    assert not walk.incomplete  # a cycle is an answer, not a limit


def test_the_walk_stops_at_its_depth_and_says_so(tmp_path):
    chain = "".join(f"  l{i} = local.l{i + 1}\n" for i in range(MAX_DEPTH + 10))
    root = _locals_project(tmp_path, f"locals {{\n{chain}  l{MAX_DEPTH + 10} = 1\n}}\n")
    walk = _Locals()
    walk.walk(root, local_value(root, "l0"), (), ())
    assert max(len(way) for way in walk.reached) == MAX_DEPTH + 1  # the last one reached, not followed
    assert walk.incomplete


def test_a_walk_that_would_branch_without_end_stops_at_its_budget(tmp_path):
    """Forty locals each reading the next twice are 2**40 ways: the walk reads MAX_WALK_STEPS at most."""
    chain = "".join(f"  l{i} = coalesce(local.l{i + 1}, local.l{i + 1})\n" for i in range(MAX_DEPTH - 1))
    root = _locals_project(tmp_path, f"locals {{\n{chain}  l{MAX_DEPTH - 1} = 1\n}}\n")
    walk = _Locals()
    walk.walk(root, local_value(root, "l0"), (), ())
    assert walk.incomplete
    assert len(walk.reached) <= MAX_WALK_STEPS


def test_both_domain_walks_end_on_locals_that_branch_without_end(tmp_path):
    """The pool-name question and the kubeconfig question share the walk's budget: each ends (2**30
    ways otherwise), the pool's name unjudged (None) rather than guessed."""
    from kapsulint.kapsule.kubeconfig import uses_in
    from kapsulint.kapsule.replacement import name_follows_replacement

    chain = "".join(f"  l{i} = coalesce(local.l{i + 1}, local.l{i + 1})\n" for i in range(30))
    (tmp_path / "main.tf").write_text(
        f'locals {{\n{chain}  l30 = scaleway_k8s_cluster.c.kubeconfig[0].token\n}}\n'
        'resource "scaleway_k8s_cluster" "c" {\n  name = "c"\n}\n'
        'resource "scaleway_k8s_pool" "p" {\n  cluster_id = scaleway_k8s_cluster.c.id\n  name = local.l0\n'
        '  node_type = "DEV1-M"\n}\n')
    root = Project(ScanOptions(root=tmp_path, cache=False, jobs=1)).load().top_instances()[0]
    pool = root.resource_instances(root.module.resources["scaleway_k8s_pool.p"])[0]
    assert name_follows_replacement(pool) is None
    assert [use.field for use in uses_in(root, local_value(root, "l0"))] == ["token"]  # the first way reaches it
