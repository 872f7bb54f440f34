"""Pool replacement that reuses the pool's name.

## What it does
Reports, with `--plan`, a pool that the plan replaces by creating the new one first (actions
`["create", "delete"]`, `create_before_destroy`) under the same `name` as the one it replaces.

## Why is this bad
With `create_before_destroy`, Terraform creates the replacement while the old pool still exists,
and the Kapsule API refuses a second pool of one name in a cluster: the create fails, the apply
stops, and the change that needed the replacement (a new `node_type`, `zone`, root volume...) never
goes through. The plan shows the same `name` before and after; the provider documents that `name`
has to be generated (left out) for `create_before_destroy` to work.

The finding is at the pool's `name`, with the arguments that force the replacement as related
locations. KAP202 warns of such a name before any plan.

Source: the provider's `k8s_pool` documentation, "In order to use the `create_before_destroy`
option of the `lifecycle` field, `name` has to be generated"
(https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_pool.md).

## Example
```hcl
resource "scaleway_k8s_pool" "apps" {
  cluster_id = scaleway_k8s_cluster.main.id
  name       = "apps"
  node_type  = "PRO2-M"          # was "PRO2-S"
  size       = 3

  lifecycle {
    create_before_destroy = true
  }
}
```

## Use instead
```hcl
resource "scaleway_k8s_pool" "apps" {
  cluster_id = scaleway_k8s_cluster.main.id
  node_type  = "PRO2-M"          # no name: the provider generates one per pool (2.78 and later)
  size       = 3

  lifecycle {
    create_before_destroy = true
  }
}
```

## References
- [scaleway_k8s_pool](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_pool)
- [The lifecycle meta-argument](https://developer.hashicorp.com/terraform/language/meta-arguments/lifecycle)
"""

from typing import Iterator

from kapsulint.api import Finding, Project, finding, shown
from kapsulint.kapsule import planned
from kapsulint.kapsule.replacement_facts import POOL

ID = "KAP602"
NAME = "pool-replacement-name-conflict"
SEVERITY = "error"


def check(project: Project) -> Iterator[Finding]:
    for bound in planned.changes(project, POOL):
        if bound.change.create_before_destroy is not True:
            continue
        before, after = bound.before("name"), bound.after("name")
        name = planned.text_of(before)
        if name is None or planned.text_of(after) != name:
            continue
        why, related = planned.why_replaced(project, bound)
        written = bound.block.attr("name") if bound.block is not None else None
        value = bound.instance.arg("name") if bound.instance is not None else None
        loc = (value.loc if value is not None and value.loc is not None else
               written.value_loc if written is not None else bound.loc)
        yield finding(
            loc,
            f"the plan replaces {bound.subject} creating the new pool first, {why}, under the same name "
            f"{shown(after)}: the Kapsule API refuses a second pool of that name and the apply fails",
            subject=bound.subject,
            secret=value is not None and value.contains_sensitive(),
            related=related,
            logical=f"plan.{bound.change.text}.name",
            fix="remove name (the provider generates one, 2.78 and later) or make it change with the "
                "replacement, then plan again",
        )
