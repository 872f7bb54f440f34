"""Pools can grow past the control plane's node limit.

## What it does
Reports a cluster whose node pools can grow past the node limit of its control-plane type.

## Why is this bad
Each Kapsule control-plane offer caps the number of nodes a cluster may hold: 150 for the
mutualized `kapsule` type, 250 for `kapsule-dedicated-4`, and 500 for `kapsule-dedicated-8` and
`kapsule-dedicated-16` (the dedicated Kosmos types `multicloud-dedicated-8` and `-16` also
stop at 500). When the pools together are sized past that cap, the cluster cannot reach the
size the code asks for: the last pools fail to scale up or to be created, and an autoscaler that
plans on reaching `max_size` stalls exactly when the load is highest.

The rule adds up, for each pool of the cluster, `max_size` when `autoscaling = true` (the
provider uses `size` when `max_size` is left out) and `size` otherwise; a pool made by `count` or
`for_each` counts once per instance. Pools whose size is not known before apply count as zero,
so the sum is a lower bound. The limits of `multicloud` and `multicloud-dedicated-4` are
not stated by any source (they were not in the recorded API answers), so clusters of those types are not
judged, nor are clusters whose `type` is not known.

Source: the `available-types` answer of the Kapsule API recorded in the Scaleway Terraform
provider's test cassettes (`cluster-type-change`), and Scaleway documentation, "Kubernetes
control plane offers" (https://www.scaleway.com/en/docs/kubernetes/reference-content/kubernetes-control-plane-offers/).

## Example
```hcl
resource "scaleway_k8s_cluster" "main" {
  type = "kapsule"
  # ...
}

resource "scaleway_k8s_pool" "workers" {
  cluster_id  = scaleway_k8s_cluster.main.id
  node_type   = "POP2-4C-16G"
  size        = 10
  autoscaling = true
  max_size    = 200
}
```

## Use instead
Move to a control-plane type whose limit covers the pools, or lower the pools' bounds:
```hcl
resource "scaleway_k8s_cluster" "main" {
  type = "kapsule-dedicated-4"
  # ...
}
```

## References
- [Kubernetes control plane offers](https://www.scaleway.com/en/docs/kubernetes/reference-content/kubernetes-control-plane-offers/)
- [scaleway_k8s_pool](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_pool)
"""

from collections.abc import Iterator

from kapsulint.api import (
    Finding,
    Loc,
    Project,
    Related,
    finding,
    shown,
)
from kapsulint.kapsule import cluster_types, clusters

ID = "KAP105"
NAME = "node-limit-exceeded"
SEVERITY = "warning"


def _counted(amount: int, pools: list[str]) -> str:
    if len(pools) == 1:
        return f"{pools[0]} may hold {amount} nodes"
    names = ", ".join(pools[:3]) + (", ..." if len(pools) > 3 else "")
    return f"{len(pools)} pools may hold {amount} nodes each ({names})"


def check(project: Project) -> Iterator[Finding]:
    for cluster in clusters.clusters(project):
        kind = cluster.cluster_type
        if kind is None:
            continue
        offer = cluster_types.cluster_type(kind)
        if offer is None or offer.max_nodes is None:
            continue
        total = 0
        counted: dict[Loc, tuple[int, list[str]]] = {}  # where a size is written -> (nodes, pool instances counting it)
        for pool in cluster.pools(project):
            if not pool.instance_of(cluster):
                continue
            amount, value = pool.node_capacity()
            if amount is None or amount <= 0:
                continue
            total += amount
            if value.loc is not None:
                counted.setdefault(value.loc, (amount, []))[1].append(pool.instance.address)
        if total <= offer.max_nodes:
            continue
        instance = cluster.instance
        address = instance.resource.address
        type_value = cluster.type_value
        written = type_value.raw is not None and type_value.loc is not None
        loc = type_value.loc if written and type_value.loc is not None else instance.block.loc
        named = shown(type_value) if type_value.raw is not None else f'"{kind}" (the default type)'
        yield finding(
            loc,
            f"the pools of {address} may hold {total} nodes, more than the {offer.max_nodes} that "
            f"control-plane type {named} allows",
            subject=address,
            instance=instance.address,
            related=[Related(at, _counted(amount, pools)) for at, (amount, pools) in sorted(counted.items())],
            logical=f"{address}.type",
            fix="choose a larger control-plane type (kapsule-dedicated-4: 250 nodes, -8 and -16: 500) "
            "or lower the pools' size / max_size",
        )
