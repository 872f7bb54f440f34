"""Kosmos cluster with a Private Network.

## What it does
Reports a Kosmos cluster (`type = "multicloud*"`) that sets `private_network_id`.

## Why is this bad
Only Kapsule clusters can be attached to a VPC Private Network: Kosmos mixes nodes from
Scaleway and from other clouds, and has no VPC integration. The Scaleway provider checks this
while planning and stops with "only Kapsule clusters support private networks", so nothing is
created. The argument usually survives from a Kapsule configuration that was turned into a
Kosmos one, or from a shared module that always passes a network.

The value counts as set when it is a non-empty literal or the `id` of another resource (an id is
never empty); the rule is silent when it cannot be known before apply, and when `type` cannot.

Source: Scaleway Terraform provider, `internal/services/k8s/cluster.go` (CustomizeDiff), and
Scaleway documentation, "Kapsule and Kosmos differences" (https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_cluster.md, https://www.scaleway.com/en/docs/kubernetes/reference-content/understanding-differences-kapsule-kosmos/).

## Example
```hcl
resource "scaleway_k8s_cluster" "multi" {
  type               = "multicloud"
  cni                = "kilo"
  private_network_id = scaleway_vpc_private_network.nodes.id
}
```

## Use instead
```hcl
resource "scaleway_k8s_cluster" "multi" {
  type = "multicloud"
  cni  = "kilo"
}
```

## References
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
- [Kapsule and Kosmos differences](https://www.scaleway.com/en/docs/kubernetes/reference-content/understanding-differences-kapsule-kosmos/)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, Related, finding
from kapsulint.kapsule import clusters

ID = "KAP108"
NAME = "kosmos-private-network"
SEVERITY = "error"


def check(project: Project) -> Iterator[Finding]:
    for cluster in clusters.clusters(project):
        if cluster.is_kosmos is not True:
            continue
        if cluster.private_network_set is not True:
            continue
        instance = cluster.instance
        value = instance.arg("private_network_id")
        written = instance.block.attr("private_network_id")
        loc = value.loc or (written.value_loc if written is not None else None)
        if loc is None:
            continue
        related = []
        if written is not None and written.value_loc != loc:
            related.append(Related(written.value_loc, "the private network the cluster uses"))
        type_value = cluster.type_value
        if type_value.loc is not None:
            related.append(Related(type_value.loc, "the cluster is a Kosmos (multicloud) cluster"))
        address = instance.resource.address
        yield finding(
            loc,
            f"{address} is a Kosmos cluster with a private_network_id: only Kapsule clusters support "
            "private networks, and the plan fails",
            subject=address,
            instance=instance.address,
            related=related,
            logical=f"{address}.private_network_id",
            fix="remove private_network_id from the Kosmos cluster",
        )
