"""Pool in a placement group larger than a placement group can hold.

## What it does
Reports a Kapsule node pool with a `placement_group_id` whose `size` or `max_size` is above 20.

## Why is this bad
A placement group holds at most 20 Instances. A pool attached to one cannot have more nodes than
that: a `size` above 20 is refused when the pool is created or resized, and a `max_size` above
20 lets the cluster autoscaler ask for nodes the placement group cannot take, so scaling up fails
when the load needs it. Nothing in `terraform plan` says so.

kapsulint applies the provider's default before judging (`max_size` is `size` when unset). A
`placement_group_id` counts as set when it holds a non-empty string or another resource's
attribute; `null`, an absent argument and a value kapsulint cannot compute stay silent, as do
sizes kapsulint cannot compute. The finding points at `size` when it is above 20, else at the
`max_size` written. Pools of Kosmos clusters and `external` pools are out of scope.

Source: Scaleway Go SDK, `api/k8s/v1/k8s_sdk.go`, `CreatePoolRequest.PlacementGroupID`
("placement groups are limited to 20 instances",
https://github.com/scaleway/scaleway-sdk-go/blob/v1.0.0-beta.37/api/k8s/v1/k8s_sdk.go), and the
provider's `placement_group_id` argument
(https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_pool.md).

## Example
```hcl
resource "scaleway_k8s_pool" "apps" {
  cluster_id         = scaleway_k8s_cluster.main.id
  node_type          = "POP2-4C-16G"
  size               = 3
  max_size           = 30
  autoscaling        = true
  placement_group_id = scaleway_instance_placement_group.spread.id
}
```

## Use instead
```hcl
resource "scaleway_k8s_pool" "apps" {
  cluster_id         = scaleway_k8s_cluster.main.id
  node_type          = "POP2-4C-16G"
  size               = 3
  max_size           = 20
  autoscaling        = true
  placement_group_id = scaleway_instance_placement_group.spread.id
}
```

## Fix
A `max_size` above 20 becomes 20 where it is written (when nothing else reads that value): the
autoscaler can never get more nodes into the placement group, so the fix states the pool's real
ceiling. Unsafe: the pool is updated in place. No fix for a `size` above 20: those nodes do not fit
one placement group, and splitting them across pools and placement groups is a design change.

## References
- [scaleway_k8s_pool](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_pool)
- [Placement groups](https://www.scaleway.com/en/docs/instances/how-to/use-placement-groups/)
"""

from collections.abc import Iterator
from fractions import Fraction

from kapsulint.api import Finding, Project, Related, Val, finding, fix, literal_edit
from kapsulint.kapsule import clusters, pool_options, pool_sizes

ID = "KAP209"
NAME = "placement-group-too-large"
SEVERITY = "error"
FIX = "unsafe"

_LIMIT = pool_options.PLACEMENT_GROUP_MAX_NODES


def _placement_group_set(value: Val) -> bool:
    if value.known:
        return isinstance(value.raw, str) and bool(value.raw.strip())
    return value.ref is not None


def _n(value: int | Fraction | None) -> str:
    assert value is not None  # a bound over the limit is known
    return str(int(value)) if float(value).is_integer() else str(value)


def check(project: Project) -> Iterator[Finding]:
    for pool in clusters.pools(project):
        if pool.in_kapsule_scope is not True:
            continue
        group = pool.instance.arg("placement_group_id")
        if not _placement_group_set(group):
            continue
        bounds = pool_sizes.bounds(pool)
        if bounds.size.value is not None and bounds.size.value > _LIMIT:
            bound = bounds.size
        elif bounds.max_size.value is not None and not bounds.max_size.defaulted and bounds.max_size.value > _LIMIT:
            bound = bounds.max_size
        else:
            continue
        if bound.loc is None:
            continue
        address = pool.instance.resource.address
        related = []
        written = pool.instance.block.attr("placement_group_id")
        if written is not None:
            related.append(Related(written.value_loc, "the placement group of the pool"))
        autofix = None
        if bound.name == "max_size":
            autofix = fix("unsafe", f"set max_size = {_LIMIT}",
                          literal_edit(project, pool.instance.arg("max_size"), str(_LIMIT)))
        yield finding(
            bound.loc,
            f"{bound.name} of {address} is {_n(bound.value)}, but the pool is in a placement group, "
            f"which holds at most {_LIMIT} Instances",
            subject=address,
            instance=pool.instance.address,
            related=related,
            logical=f"{address}.{bound.name}",
            fix=f"keep size and max_size at {_LIMIT} or below, or split the nodes across pools and placement groups",
            autofix=autofix,
        )
