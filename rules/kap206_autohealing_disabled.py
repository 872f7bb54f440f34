"""Pool without autohealing.

## What it does
Reports a Kapsule node pool that does not set `autohealing = true`.

## Why is this bad
Autohealing is off unless it is asked for: the Scaleway provider defaults `autohealing` to
`false`. Without it, a node that stops reporting Ready (a kernel hang, a full disk, a failed
kubelet) stays in the pool: its pods are evicted after a while, but the node keeps its place and
its cost, and the pool runs with one node fewer until someone reboots or replaces it by hand.
With autohealing on, Kapsule checks the nodes every few minutes, reboots a node that has been
NotReady for about a quarter of an hour and replaces it if it is still NotReady after about
half an hour.

The finding points at `autohealing = false` when it is written, else at the pool header. An
`autohealing` value kapsulint cannot know stays silent. Pools of Kosmos clusters
(`type = "multicloud*"`) and `node_type = "external"` pools are out of scope (Scaleway only
heals its own Instances).

Sources: Scaleway Terraform provider, `internal/services/k8s/pool.go` (`autohealing` optional,
default `false`; https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_pool.md); Scaleway docs "Using the Scaleway Kubernetes
Kapsule autoheal feature" for the reboot and replacement delays (https://www.scaleway.com/en/docs/kubernetes/reference-content/using-kapsule-autoheal-feature/); Kosmos autoheal limited to Scaleway Instances (https://www.scaleway.com/en/docs/kubernetes/reference-content/understanding-differences-kapsule-kosmos/).

## Example
```hcl
resource "scaleway_k8s_pool" "apps" {
  cluster_id = scaleway_k8s_cluster.main.id
  node_type  = "POP2-4C-16G"
  size       = 3
}
```

## Use instead
```hcl
resource "scaleway_k8s_pool" "apps" {
  cluster_id  = scaleway_k8s_cluster.main.id
  node_type   = "POP2-4C-16G"
  size        = 3
  autohealing = true
}
```

## Fix
Sets `autohealing = true` in the pool block: it adds the argument when it is left out, or replaces
a literal `false` or `null` written there. A value that comes from a variable, a local or a
module argument is not changed (other pools may share it). **Unsafe**: `terraform plan` shows an
in-place update of the pool, and from then on Kapsule reboots and replaces nodes that stay
NotReady, which changes how the pool behaves.

## References
- [scaleway_k8s_pool](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_pool)
- [Using the Kapsule autoheal feature](https://www.scaleway.com/en/docs/kubernetes/reference-content/using-kapsule-autoheal-feature/)
"""

from collections.abc import Iterator

from kapsulint.api import (
    Attribute,
    Block,
    Edit,
    Finding,
    Fix,
    Project,
    Related,
    finding,
    fix,
    replace_value,
    set_attribute,
)
from kapsulint.kapsule import clusters

ID = "KAP206"
NAME = "autohealing-disabled"
SEVERITY = "warning"
FIX = "unsafe"

_CONSEQUENCE = "a node that stays NotReady is never rebooted or replaced"


def check(project: Project) -> Iterator[Finding]:
    for pool in clusters.pools(project):
        if pool.in_kapsule_scope is not True:
            continue
        value = pool.instance.arg("autohealing")
        if not value.known or value.is_true():
            continue
        address = pool.instance.resource.address
        related = []
        written = pool.instance.block.attr("autohealing")
        if value.raw is None and written is None:
            loc = pool.instance.block.loc
            message = f"{address} leaves autohealing unset (off by default): {_CONSEQUENCE}"
        elif value.raw is None and written is not None:
            loc = written.value_loc
            if value.loc is not None and value.loc != loc:
                related.append(Related(value.loc, "the null comes from here"))
            message = f"{address} sets autohealing to null, which leaves it off (the default): {_CONSEQUENCE}"
        elif value.is_false():
            attribute = pool.instance.block.attr("autohealing")
            loc = value.loc if value.loc is not None else (
                attribute.value_loc if attribute is not None else pool.instance.block.loc)
            message = f"{address} has autohealing = false: {_CONSEQUENCE}"
        else:
            continue
        yield finding(
            loc,
            message,
            subject=address,
            instance=pool.instance.address,
            related=related,
            logical=f"{address}.autohealing",
            fix="set autohealing = true",
            autofix=_autofix(project, pool.instance.block, written),
        )


def _autofix(project: Project, block: Block, written: Attribute | None) -> Fix | None:
    """``autohealing = true`` in the pool block, when it is unset there or written there as a literal
    (a value from a variable may be shared by other pools: left to the author)."""
    edits: Edit | tuple[Edit, ...] | None
    if written is None:
        edits = set_attribute(project, block, "autohealing", "true")
    elif written.is_literal:
        edits = replace_value(project, written, "true")
    else:
        return None
    return fix("unsafe", "set autohealing = true (an in-place update of the pool)", edits)
