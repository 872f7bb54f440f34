"""Cluster without a Private Network.

## What it does
Reports a Kapsule cluster that has no `private_network_id`.

## Why is this bad
Scaleway now requires every Kapsule cluster to sit in a VPC Private Network: the nodes talk to
each other and to the control plane over it, and Kapsule takes a /22 of its subnet for the
cluster. Since October 2023 the Kapsule API refuses to create a cluster without one; only
clusters created before then run without it (the legacy public-only setup). The provider's
schema still marks the argument optional, so `terraform validate` and `plan` do not stop you:
the error comes at apply. The documentation lists it as required, and features such as nodes
without public IPs depend on it.

The private network is fixed at creation: setting it later on a legacy cluster migrates it, but
once set it can only be switched to another network (which replaces the cluster), never removed.
Deciding it up front avoids both a migration and a replacement.

Only Kapsule clusters (`type` absent or `kapsule*`) are judged; Kosmos clusters
(`type = "multicloud*"`) cannot use a private network at all (see KAP108). The rule stays silent
when the `type` or the `private_network_id` cannot be known before apply. `null` and `""` count
as unset.

Source: Scaleway Terraform provider, `docs/resources/k8s_cluster.md` and
`internal/services/k8s/cluster.go` (CustomizeDiff); Scaleway documentation, "Secure a cluster with
a Private Network" (https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_cluster.md, https://www.scaleway.com/en/docs/kubernetes/reference-content/secure-cluster-with-private-network/).

## Example
```hcl
resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  version                     = "1.35"
  cni                         = "cilium"
  delete_additional_resources = false
}
```

## Use instead
```hcl
resource "scaleway_vpc_private_network" "nodes" {
  name = "kapsule-nodes"
}

resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  version                     = "1.35"
  cni                         = "cilium"
  private_network_id          = scaleway_vpc_private_network.nodes.id
  delete_additional_resources = false
}
```

## References
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
- [Secure a Kapsule cluster with a Private Network](https://www.scaleway.com/en/docs/kubernetes/reference-content/secure-cluster-with-private-network/)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, Related, finding
from kapsulint.kapsule import clusters

ID = "KAP104"
NAME = "missing-private-network"
SEVERITY = "error"


def check(project: Project) -> Iterator[Finding]:
    for cluster in clusters.clusters(project):
        if cluster.is_kapsule is not True:
            continue
        if cluster.private_network_set is not False:
            continue
        instance = cluster.instance
        address = instance.resource.address
        related = []
        value = instance.arg("private_network_id")
        if value.loc is not None:
            state = "null" if value.raw is None else "empty"
            related.append(Related(value.loc, f"private_network_id is {state} here"))
        yield finding(
            instance.block.loc,
            f"{address} is a Kapsule cluster without private_network_id: Private Networks are "
            "mandatory for Kapsule clusters (the Kapsule API refuses to create one without it since October 2023)",
            subject=address,
            instance=instance.address,
            related=related,
            logical=f"{address}.private_network_id",
            fix="create a scaleway_vpc_private_network and set private_network_id to its id",
        )
