"""Pool replaced by destroying it first.

## What it does
Reports, with `--plan`, a Kapsule pool that the plan replaces by destroying it before its
replacement exists (actions `["delete", "create"]`), with the arguments that force it.

## Why is this bad
A change to an argument the provider cannot edit in place (`node_type`, `zone`, the root volume,
`public_ip_disabled`... see the replacement facts by provider version) makes Terraform replace the
pool. Without `lifecycle { create_before_destroy = true }` it deletes the old pool first: every node
is drained and deleted, and the pods have nowhere to go until the new pool's nodes have booted and
joined the cluster, several minutes later. For the only pool of a cluster, that is a full outage;
for one pool among others, its workloads crowd the rest or stay Pending.

The plan says it in so many words: `terraform show -json` gives the replacement's order (`actions`)
and what forces it (`replace_paths`). The finding is at the pool's block, with each argument that
forces the replacement as a related location. KAP201 warns of the missing lifecycle before any
plan; this rule says that the next apply does it.

Pools of Kosmos clusters (`node_type = "external"`) are out of its scope.

Sources: the provider's pool schema (ForceNew arguments,
https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/services/k8s/pool.go) and
the `lifecycle` example of its documentation; Terraform's plan format (`actions`, `replace_paths`).

## Example
```hcl
resource "scaleway_k8s_pool" "apps" {
  cluster_id = scaleway_k8s_cluster.main.id
  node_type  = "PRO2-M"          # was "PRO2-S": the plan replaces the pool, delete first
  size       = 3
}
```

## Use instead
```hcl
resource "scaleway_k8s_pool" "apps" {
  cluster_id = scaleway_k8s_cluster.main.id
  node_type  = "PRO2-M"
  size       = 3

  lifecycle {
    create_before_destroy = true
  }
}
```
Leave `name` out (provider 2.78 and later) or make it change with the replacement (KAP202), then
plan again: the actions become `["create", "delete"]`.

## References
- [scaleway_k8s_pool](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_pool)
- [The lifecycle meta-argument](https://developer.hashicorp.com/terraform/language/meta-arguments/lifecycle)
- [terraform show -json: JSON Output Format](https://developer.hashicorp.com/terraform/internals/json-format)
"""

from typing import Iterator

from kapsulint.api import Finding, Project, finding
from kapsulint.kapsule import planned
from kapsulint.kapsule.replacement_facts import POOL

ID = "KAP601"
NAME = "pool-replaced-without-create-before-destroy"
SEVERITY = "warning"


def check(project: Project) -> Iterator[Finding]:
    for bound in planned.changes(project, POOL):
        change = bound.change
        if change.create_before_destroy is not False:
            continue
        if (planned.text_of(bound.before("node_type")) or "").lower() == "external":
            continue
        why, related = planned.why_replaced(project, bound)
        size = planned.text_of(bound.before("current_size")) or planned.text_of(bound.before("size"))
        nodes = f"its {size} node{'s' if size != '1' else ''}" if size is not None else "its nodes"
        yield finding(
            bound.loc,
            f"the plan replaces {bound.subject} by destroying it first, {why}: {nodes} are drained and "
            "deleted before the new pool exists, and their pods wait until its nodes join",
            subject=bound.subject,
            related=related,
            logical=f"plan.{change.text}.replaced-delete-first",
            fix="add lifecycle { create_before_destroy = true } to the pool (with a name that changes with "
                "the replacement, or none), then plan again",
        )
