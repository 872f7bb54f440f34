"""Cluster destroyed, or a cluster's last pool.

## What it does
Reports, with `--plan`, a cluster that the plan destroys, with what goes with it (its pools, and
with `delete_additional_resources = true` its volumes, load balancers and private network), and
a pool that the plan destroys while its cluster stays with no other pool.

## Why is this bad
Destroying a cluster deletes its control plane, its pools and nodes and every workload on them.
What else goes depends on `delete_additional_resources`, read from the state the plan starts from:
with `true`, the cluster's Block volumes (retain ones included), the load balancers whose names
start with the cluster id and its private network when empty are deleted with it, so the data of
every PersistentVolume is gone; with `false` they stay, and keep being billed. The finding is an
error when data goes with the cluster.

Destroying a pool drains and deletes its nodes. That is the way to retire a pool, and it is fine
while another pool takes the workloads; when no other pool of the cluster remains after the plan,
the cluster keeps no node and every workload stays Pending, so that case is reported too.

The finding is at the resource's block, or at its address in the plan file when the block was
removed from the code.

Sources: the provider's `delete_additional_resources`
(https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_cluster.md,
`DeleteCluster` with `WithAdditionalResources` in
https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/services/k8s/cluster.go);
Scaleway, "How to delete a Kubernetes Kapsule cluster"
(https://www.scaleway.com/en/docs/kubernetes/how-to/delete-cluster/).

## Example
```hcl
# scaleway_k8s_cluster.main removed from the code; the state says
# delete_additional_resources = true: the plan deletes it with its volumes
```

## Use instead
Back up the volumes' data (snapshots) before destroying a cluster, and set
`delete_additional_resources = false` and apply it first when the volumes must stay. Give the
workloads another pool before removing the last one.

## References
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
- [How to delete a Kubernetes Kapsule cluster](https://www.scaleway.com/en/docs/kubernetes/how-to/delete-cluster/)
- [terraform show -json: JSON Output Format](https://developer.hashicorp.com/terraform/internals/json-format)
"""

from typing import Iterator

from kapsulint.api import BoundChange, Finding, Project, Related, Severity, finding
from kapsulint.kapsule import planned
from kapsulint.kapsule.replacement_facts import CLUSTER, POOL

ID = "KAP604"
NAME = "cluster-or-pool-destroyed"
SEVERITY = "warning"


def check(project: Project) -> Iterator[Finding]:
    destroyed_clusters = [b for b in planned.changes(project, CLUSTER) if b.change.is_delete]
    for bound in destroyed_clusters:
        yield _cluster(project, bound)
    for bound in planned.changes(project, POOL):
        if not bound.change.is_delete:
            continue
        cluster_id = bound.before("cluster_id")
        if any(planned.same_id(c.before("id"), cluster_id) for c in destroyed_clusters):
            continue  # said with its cluster
        if planned.pools_kept(project, cluster_id, bound) or planned.text_of(cluster_id) is None:
            continue
        yield finding(
            bound.loc,
            f"the plan destroys {bound.subject}, the last pool of its cluster: its nodes are drained and "
            "deleted and no other pool is left to run the workloads",
            subject=bound.subject,
            logical=f"plan.{bound.change.text}.last-pool-destroyed",
            fix="create the pool that replaces it first (or keep this one), then remove it",
        )


def _cluster(project: Project, bound: BoundChange) -> Finding:
    pools = planned.pools_going_with(project, bound)
    names = ", ".join(p.subject for p in pools[:5]) + (f" and {len(pools) - 5} more" if len(pools) > 5 else "")
    with_pools = f" and its pools ({names})" if pools else " and its pools"
    related = [Related(p.loc, f"{p.subject} is destroyed with the cluster") for p in pools if p.loc != bound.loc]
    additional = bound.before("delete_additional_resources")
    written = bound.argument_loc("delete_additional_resources")
    if additional.is_true():
        if written is not None:
            related.insert(0, Related(written, "delete_additional_resources = true"))
        return finding(
            bound.loc,
            f"the plan destroys {bound.subject}{with_pools}, and with delete_additional_resources = true its "
            "Block volumes (retain ones too), its load balancers and its private network if empty: the data of "
            "every PersistentVolume is lost",
            subject=bound.subject, related=related, logical=f"plan.{bound.change.text}.destroyed",
            level=Severity.ERROR,
            fix="snapshot the volumes first, or apply delete_additional_resources = false before destroying it",
        )
    kept = (": its volumes and load balancers stay (delete_additional_resources = false) and are still billed"
            if additional.is_false() else "")
    return finding(
        bound.loc,
        f"the plan destroys {bound.subject}{with_pools}, every node and workload on them{kept}",
        subject=bound.subject, related=related, logical=f"plan.{bound.change.text}.destroyed",
        fix="make sure the workloads run elsewhere before applying",
    )
