"""GPU pool on a mutualized control plane.

## What it does
Reports a node pool of a GPU type (RENDER, L4, L40S, H100, H100-SXM, B300-SXM) that can hold at
least one node, in a Kapsule cluster whose control plane is the mutualized one (`type` absent or
`"kapsule"`). The finding points at the pool's `node_type`; the cluster is in `related`.

## Why is this bad
Kapsule sets up NVIDIA's GPU operator on every GPU pool. Its Node Feature Discovery runs a worker
on each node, and each worker publishes what it detects as a `NodeFeature` object in the
Kubernetes API, so in etcd. Scaleway documents that a cluster with many nodes and at least one GPU
node may hold a lot of these objects (one it shows weighs about 300 KiB), and that they fill the
cluster's etcd quota. That quota is 55 MB on the mutualized control plane against 200 MB on the
dedicated offers. Once etcd is full the API server refuses writes: no deployment, no scaling, no
new node joins until objects are deleted by hand. Scaleway's advice is to delete the objects and
downsize the cluster, or to move to a dedicated offer with the bigger quota.

The page sizes one such object at about 300 KiB. The rule fires only when the cluster's pools
may hold together enough nodes for their objects alone to take a quarter of the etcd quota or
more (47 nodes for the mutualized 55 MB): a two-node GPU demo stays quiet. It needs the node
type, the cluster's `type` and every pool's size (`max_size` with autoscaling) known; it stays
silent on dedicated offers and on Kosmos `multicloud` clusters, whose etcd quota no recorded
source states.

Source: Scaleway documentation, "How to recover ETCD database space for a Kapsule/Kosmos cluster"
(https://www.scaleway.com/en/docs/kubernetes/how-to/recover-space-etcd/), "Kubernetes control
plane offers" (https://www.scaleway.com/en/docs/kubernetes/reference-content/kubernetes-control-plane-offers/,
the 55 MB and 200 MB quotas, also the `max_etcd_size` of the API's cluster types recorded in the
provider's tests) and "How to use the NVIDIA GPU operator on Kapsule and Kosmos with GPU
Instances" (https://www.scaleway.com/en/docs/kubernetes/how-to/use-nvidia-gpu-operator/); Node
Feature Discovery's introduction
(https://kubernetes-sigs.github.io/node-feature-discovery/v0.20/get-started/introduction.html);
etcd's space quota, past which it accepts only reads and deletes
(https://etcd.io/docs/v3.5/op-guide/maintenance/#space-quota).

## Example
```hcl
resource "scaleway_k8s_cluster" "main" {
  name    = "ml"
  version = "1.35"
  cni     = "cilium"
  # no type: the mutualized control plane, 55 MB of etcd
}

resource "scaleway_k8s_pool" "gpu" {
  cluster_id = scaleway_k8s_cluster.main.id
  node_type  = "L4-1-24G"
  size       = 2
}
```

## Use instead
```hcl
resource "scaleway_k8s_cluster" "main" {
  name    = "ml"
  type    = "kapsule-dedicated-4"
  version = "1.35"
  cni     = "cilium"
}
```

A dedicated control plane has 200 MB of etcd (and a 30-day commitment). On a cluster that stays
mutualized, watch the etcd usage in Cockpit and delete stale `NodeFeature` objects.

## References
- [How to recover ETCD database space for a Kapsule/Kosmos cluster](https://www.scaleway.com/en/docs/kubernetes/how-to/recover-space-etcd/)
- [Kubernetes control plane offers](https://www.scaleway.com/en/docs/kubernetes/reference-content/kubernetes-control-plane-offers/)
- [How to use the NVIDIA GPU operator on Kapsule and Kosmos](https://www.scaleway.com/en/docs/kubernetes/how-to/use-nvidia-gpu-operator/)
- [Node Feature Discovery: introduction](https://kubernetes-sigs.github.io/node-feature-discovery/v0.20/get-started/introduction.html)
- [etcd maintenance: space quota](https://etcd.io/docs/v3.5/op-guide/maintenance/#space-quota)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, Related, finding, shown
from kapsulint.kapsule import cluster_types, clusters, node_types

ID = "KAP214"
NAME = "gpu-pool-on-mutualized-control-plane"
SEVERITY = "warning"

FIX_HINT = (
    'use a dedicated control plane (type = "kapsule-dedicated-4" or larger, 200 MB of etcd, 30-day '
    "commitment), or watch the etcd usage in Cockpit and delete stale NodeFeature objects"
)


def check(project: Project) -> Iterator[Finding]:
    for pool in clusters.pools(project):
        if pool.in_kapsule_scope is not True:
            continue
        value = pool.node_type
        text = value.text()
        if not value.known or not isinstance(value.raw, str) or not text:
            continue
        if node_types.is_gpu_node_type(text) is not True:
            continue
        cluster = pool.cluster
        if cluster is None or not pool.instance_of(cluster):
            continue
        offer = cluster_types.cluster_type(cluster.cluster_type) if cluster.cluster_type is not None else None
        if offer is None or offer.dedicated or offer.max_etcd_mb is None:
            continue
        capacity, _ = pool.node_capacity()
        if capacity is None or capacity < 1:
            continue
        ceiling = _node_ceiling(project, cluster)
        if ceiling is None or ceiling < _nodes_filling_a_quarter(offer.max_etcd_mb):
            continue
        loc = value.loc
        if loc is None:
            attribute = pool.instance.block.attr("node_type")
            if attribute is None:
                continue
            loc = attribute.value_loc
        cluster_address = cluster.instance.resource.address
        if cluster.type_value.raw is None:
            cluster_loc = cluster.instance.block.loc
            offer_said = f'no type, so the "{offer.name}" offer'
        else:
            written_type = cluster.instance.block.attr("type")
            cluster_loc = cluster.type_value.loc or (
                written_type.value_loc if written_type is not None else cluster.instance.block.loc
            )
            offer_said = "type " + shown(cluster.type_value)
        address = pool.instance.resource.address
        yield finding(
            loc,
            f"{address} puts GPU nodes of type {shown(value)} in {cluster_address}, whose mutualized control plane "
            f"caps etcd at {offer.max_etcd_mb} MB: the GPU operator's Node Feature Discovery stores "
            f"a NodeFeature object of about {NODE_FEATURE_KIB} KiB for every node, and the cluster's pools "
            f"may hold {ceiling} nodes, {ceiling * NODE_FEATURE_KIB // 1024} MB of them: Scaleway documents "
            "that these objects fill the etcd of clusters with many nodes and a GPU node, after which "
            "the API server refuses writes",
            subject=address,
            instance=pool.instance.address,
            related=[Related(cluster_loc, f"{cluster_address}: {offer_said}, {offer.max_etcd_mb} MB of etcd")],
            logical=f"{address}.node_type",
            fix=FIX_HINT,
        )


# The size of one NodeFeature object Scaleway's etcd page measures ("~300KiB, big object").
NODE_FEATURE_KIB = 300


def _nodes_filling_a_quarter(quota_mb: int) -> int:
    """How many nodes' NodeFeature objects take a quarter of an etcd quota of ``quota_mb``."""
    return -(-quota_mb * 1024 // (4 * NODE_FEATURE_KIB))


def _node_ceiling(project: Project, cluster: clusters.Cluster) -> int | None:
    """How many nodes the cluster's pools may hold together, None when one of them is Unknown."""
    total = 0
    for pool in cluster.pools(project):
        capacity, _ = pool.node_capacity()
        if capacity is None or not pool.instance_of(cluster):
            return None
        total += capacity
    return total
