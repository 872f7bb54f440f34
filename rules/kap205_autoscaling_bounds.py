"""Pool autoscaling bounds Kapsule refuses.

## What it does
Reports a Kapsule node pool whose `max_size` is below 1, or whose `min_size` exceeds `max_size`
while autoscaling is on.

## Why is this bad
Kapsule refuses a pool whose maximum size is below one node, and the provider fills in
`max_size` when it is left out: it takes the value of `size`. A pool written with `size = 0`
(a pool meant to start empty and let the autoscaler add nodes) and no `max_size` therefore asks
for a maximum of 0, and the apply fails with "Pool's max size must be at least 1". With
`autoscaling = true`, a `min_size` above `max_size` gives the cluster autoscaler bounds it cannot
satisfy. Both mistakes pass `terraform plan` and stop the apply.

kapsulint applies the provider's defaults before judging: `min_size` is 1 when `size` is above 0,
else 0; `max_size` is `size`; `autoscaling` is off. `null` counts as unset. The finding points
at the offending value, or at `size` when the offending bound is the default taken from it.
Pools of Kosmos clusters (`type = "multicloud*"`) and `node_type = "external"` pools are out of
scope; a bound kapsulint cannot compute stays silent. Whether the API also checks that `size`
lies between the bounds is not confirmed, so the rule does not judge it.

Source: Scaleway Terraform provider, `internal/services/k8s/pool.go` and
`docs/resources/k8s_pool.md` (defaults of `min_size`, `max_size`, `autoscaling`; the error on a
maximum below 1); see https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_pool.md.

## Example
```hcl
resource "scaleway_k8s_pool" "batch" {
  cluster_id  = scaleway_k8s_cluster.main.id
  node_type   = "POP2-4C-16G"
  size        = 0
  autoscaling = true
}
```

## Use instead
```hcl
resource "scaleway_k8s_pool" "batch" {
  cluster_id  = scaleway_k8s_cluster.main.id
  node_type   = "POP2-4C-16G"
  size        = 0
  min_size    = 0
  max_size    = 5
  autoscaling = true
}
```

## Fix
A `max_size` written below 1 becomes 1, the smallest the API accepts, where it is written (and
when nothing else reads that value). Unsafe: the pool is updated in place and may then grow by a
node. No fix when `max_size` is unset and defaults to a `size` of 0 (the maximum to add is a
capacity decision), nor for `min_size` above `max_size`: which bound is wrong (a `min_size` too
high, a `max_size` too low, or a `size` meant to be the maximum) is the author's call.

## References
- [scaleway_k8s_pool](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_pool)
"""

from collections.abc import Iterator

from kapsulint.api import SENSITIVE_VALUE, Finding, Project, Related, finding, fix, literal_edit
from kapsulint.kapsule import clusters, pool_sizes

ID = "KAP205"
NAME = "autoscaling-bounds"
SEVERITY = "error"
FIX = "unsafe"


def _n(bound: pool_sizes.Bound) -> str:
    if bound.sensitive:
        return SENSITIVE_VALUE
    value = bound.value
    assert value is not None  # only a known bound is printed
    return str(int(value)) if float(value).is_integer() else str(value)


def check(project: Project) -> Iterator[Finding]:
    for pool in clusters.pools(project):
        if pool.in_kapsule_scope is not True:
            continue
        bounds = pool_sizes.bounds(pool)
        address = pool.instance.resource.address
        maximum, minimum = bounds.max_size, bounds.min_size
        if maximum.value is not None and maximum.value < 1 and maximum.loc is not None:
            if maximum.defaulted:
                message = (
                    f"{address} leaves max_size unset, so it defaults to size ({_n(maximum)}): "
                    "a pool's max_size must be at least 1"
                )
            else:
                message = f"max_size of {address} is {_n(maximum)}: a pool's max_size must be at least 1"
            autofix = None
            if not maximum.defaulted:
                written = pool.instance.arg("max_size")
                autofix = fix("unsafe", "set max_size = 1", literal_edit(project, written, "1"))
            yield finding(
                maximum.loc,
                message,
                subject=address,
                instance=pool.instance.address,
                logical=f"{address}.max_size",
                fix="set max_size to at least 1",
                autofix=autofix,
            )
            continue
        if not pool.instance.arg("autoscaling").is_true():
            continue
        if minimum.value is None or maximum.value is None or minimum.value <= maximum.value or minimum.loc is None:
            continue
        related = []
        if maximum.loc is not None:
            note = (
                f"max_size defaults to size ({_n(maximum)}) here"
                if maximum.defaulted
                else f"max_size is {_n(maximum)} here"
            )
            related.append(Related(maximum.loc, note))
        origin = " (its default)" if minimum.defaulted else ""
        yield finding(
            minimum.loc,
            f"min_size of {address} is {_n(minimum)}{origin}, above its max_size "
            f"({_n(maximum)}{', from size' if maximum.defaulted else ''}), with autoscaling on",
            subject=address,
            instance=pool.instance.address,
            related=related,
            logical=f"{address}.min_size",
            fix="make min_size at most max_size",
        )
