"""Mutualized cluster whose pools are all empty.

## What it does
Reports a cluster on a mutualized control plane (a `type` without "dedicated", the default
`kapsule` included) whose every pool has `size = 0`.

## Why is this bad
A mutualized control plane needs at least one node in the cluster. Since provider 2.73.0 the
Scaleway provider checks it before it creates or resizes a pool: a pool of size 0 on a cluster
whose `type` does not contain "dedicated" is refused with "a mutualized cluster cannot have less
than 1 node" unless another pool of the cluster has at least one node. When every pool of the
configuration is written with `size = 0` (a cluster parked to save money, a GPU-only cluster
waiting for the autoscaler), the apply fails on the last pool. Dedicated control planes
(`kapsule-dedicated-*`) accept a cluster with no node.

The rule judges the pools of the cluster that kapsulint sees, with a provider version that makes
the check (2.73.0 and later, from the lock file or the constraints), and only when every one of them has
a known `size` of 0 and the cluster's root module and what it calls were read whole (a pool
elsewhere could hold the node). The finding points at the first pool's `size`, the other pools
in `related`.

Source: Scaleway Terraform provider, `validatePoolSize` in `internal/services/k8s/pool.go`
(https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/services/k8s/pool.go,
added by https://github.com/scaleway/terraform-provider-scaleway/pull/3852).

## Example
```hcl
resource "scaleway_k8s_cluster" "main" {
  type = "kapsule"
}

resource "scaleway_k8s_pool" "gpu" {
  cluster_id  = scaleway_k8s_cluster.main.id
  node_type   = "L4-1-24G"
  size        = 0
  min_size    = 0
  max_size    = 2
  autoscaling = true
}
```

## Use instead
```hcl
resource "scaleway_k8s_pool" "system" {
  cluster_id = scaleway_k8s_cluster.main.id
  node_type  = "PRO2-XXS"
  size       = 1
}
```

A small pool of one node keeps the control plane satisfied; or choose a dedicated control plane.

## References
- [scaleway_k8s_pool](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_pool)
- [Kubernetes control plane offers](https://www.scaleway.com/en/docs/kubernetes/reference-content/kubernetes-control-plane-offers/)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, Related, finding
from kapsulint.kapsule import cluster_types, clusters, pool_sizes, provider_features

ID = "KAP113"
NAME = "mutualized-cluster-without-nodes"
SEVERITY = "error"


def check(project: Project) -> Iterator[Finding]:
    for cluster in clusters.clusters(project):
        if cluster_types.is_mutualized(cluster.cluster_type) is not True:
            continue
        pools = [pool for pool in cluster.pools(project) if pool.instance_of(cluster)]
        if not pools or not project.complete_for(cluster.instance.module):
            continue
        if provider_features.supports("pool_size_validation", cluster.provider_version) is not True:
            continue
        sizes = [pool_sizes.bounds(pool).size for pool in pools]
        if any(size.value != 0 or size.loc is None for size in sizes):
            continue
        locs = [size.loc for size in sizes if size.loc is not None]  # all of them: checked just above
        first = min(locs, key=lambda loc: (loc.path, loc.line, loc.column))
        address = cluster.instance.resource.address
        others = dict.fromkeys((loc, pool.instance.address) for pool, loc in zip(pools, locs) if loc != first)
        related = [Related(loc, f"{pool_address} has size 0") for loc, pool_address in others]
        related.append(Related(cluster.instance.block.loc, "the cluster, on a mutualized control plane"))
        yield finding(
            first,
            f"every pool of {address} has size 0, and its control plane is mutualized: the provider "
            "refuses the last empty pool (a mutualized cluster cannot have less than 1 node)",
            subject=address,
            instance=cluster.instance.address,
            related=related,
            logical=f"{address}.pools.size",
            fix="give one pool size = 1 or more, or use a dedicated control plane (kapsule-dedicated-*)",
        )
