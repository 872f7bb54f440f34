"""Cluster replaced.

## What it does
Reports, with `--plan`, a Kapsule or Kosmos cluster that the plan replaces, with what forces it.

## Why is this bad
Replacing a cluster destroys it: its control plane, its pools and nodes, every workload and the
data on the nodes, and the load balancers its Services made; the new cluster has a new id, API
endpoint and kubeconfig, so everything that talks to it (CI, the Helm and Kubernetes providers,
kubeconfigs handed out) breaks until it is updated. With `delete_additional_resources = true`, its
Block volumes (retain ones too), its load balancers and its private network when empty are
deleted as well.

A replacement comes from an argument the provider cannot change in place: `cni`, `region`,
`project_id`, `pod_cidr`, `service_cidr` and `service_dns_ip` always; `type` when the API does not
offer the new type to this cluster (Kapsule to Kosmos, or a lower dedicated offer during its 30-day
commitment); `private_network_id` once one is set; and, by a provider regression of 2.76.0 to
2.80.x, `autoscaler_config.skip_nodes_with_local_storage` and `log_level`. The finding is at the
cluster's block with each argument that forces it (the plan's `replace_paths`, explained by the
facts of the provider version in use) as a related location, or says that the cluster is tainted or
replaced on request.

Sources: the provider's cluster schema and its CustomizeDiff
(https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/services/k8s/cluster.go,
https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_cluster.md);
Scaleway, "How to delete a Kubernetes Kapsule cluster"
(https://www.scaleway.com/en/docs/kubernetes/how-to/delete-cluster/).

## Example
```hcl
resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  version                     = "1.35.3"
  cni                         = "calico"   # was "cilium": the cluster is replaced
  delete_additional_resources = false
  private_network_id          = scaleway_vpc_private_network.k8s.id
}
```

## Use instead
Keep what forces the replacement as it is (`cni = "cilium"`), or build the new cluster beside the
old one (another resource), move the workloads, then remove the old one.

## References
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
- [Kubernetes control plane offers](https://www.scaleway.com/en/docs/kubernetes/reference-content/kubernetes-control-plane-offers/)
- [terraform show -json: JSON Output Format](https://developer.hashicorp.com/terraform/internals/json-format)
"""

from typing import Iterator

from kapsulint.api import Finding, Project, finding
from kapsulint.kapsule import planned
from kapsulint.kapsule.replacement_facts import CLUSTER

ID = "KAP603"
NAME = "cluster-replaced"
SEVERITY = "error"


def check(project: Project) -> Iterator[Finding]:
    for bound in planned.changes(project, CLUSTER):
        if not bound.change.is_replacement:
            continue
        why, related = planned.why_replaced(project, bound)
        extra = ""
        if bound.before("delete_additional_resources").is_true():
            extra = ("; with delete_additional_resources = true its Block volumes (retain ones too), load "
                     "balancers and empty private network are deleted too")
        yield finding(
            bound.loc,
            f"the plan replaces {bound.subject}, {why}: the cluster is destroyed with its control plane, "
            f"pools, nodes and workloads, and the new one has a new id, API endpoint and kubeconfig{extra}",
            subject=bound.subject,
            related=related,
            logical=f"plan.{bound.change.text}.replaced",
            fix="keep the arguments that force the replacement as they are, or build a new cluster beside "
                "this one and move the workloads first",
        )
