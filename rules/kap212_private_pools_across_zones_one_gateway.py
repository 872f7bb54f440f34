"""Private pools in several zones behind one Public Gateway.

## What it does
Reports a Kapsule cluster whose pools without public IPs (`public_ip_disabled = true`) lie in
more than one Availability Zone.

## Why is this bad
Nodes without a public IP reach the internet, and their control plane, only through the Public
Gateway of the cluster's private network, and a private network has one Public Gateway, in one
zone. Spreading private pools over several zones looks like zone resilience, but Scaleway's
multi-AZ documentation warns that "losing the AZ with the Public Gateway results in the loss of
all nodes in all private pools across all AZs": the zone outage the spread was meant to survive
takes every private node down with it.

The zone of a pool is its `zone`, else its provider's `zone`; a pool whose zone or
`public_ip_disabled` kapsulint cannot compute is left out. Pools with public IPs, which reach the
control plane on their own, are not counted. The finding points at the cluster's
`private_network_id` (else its header), with each private pool's `public_ip_disabled` in
`related`.

Source: Scaleway documentation, "Deploying a multi-AZ Kubernetes cluster"
(https://www.scaleway.com/en/docs/kubernetes/reference-content/multi-az-clusters/) and "Secure a
cluster with a Private Network"
(https://www.scaleway.com/en/docs/kubernetes/reference-content/secure-cluster-with-private-network/).

## Example
```hcl
resource "scaleway_k8s_pool" "par1" {
  zone               = "fr-par-1"
  public_ip_disabled = true
}

resource "scaleway_k8s_pool" "par2" {
  zone               = "fr-par-2"
  public_ip_disabled = true
}
```

## Use instead
```hcl
resource "scaleway_k8s_pool" "par1" {
  zone               = "fr-par-1"
  public_ip_disabled = true
}

resource "scaleway_k8s_pool" "par2" {
  zone = "fr-par-2" # keeps its public IP: it survives the loss of fr-par-1
}
```

Or accept the gateway's zone as a single point of failure and keep the private pools in it.

## References
- [Multi-AZ clusters](https://www.scaleway.com/en/docs/kubernetes/reference-content/multi-az-clusters/)
- [scaleway_k8s_pool](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_pool)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, Related, ResourceInstance, Val, finding
from kapsulint.kapsule import clusters, lb_ips

ID = "KAP212"
NAME = "private-pools-across-zones-one-gateway"
SEVERITY = "warning"


def check(project: Project) -> Iterator[Finding]:
    for cluster in clusters.clusters(project):
        if cluster.is_kapsule is not True:
            continue
        zones: dict[str, list[tuple[clusters.Pool, Val]]] = {}
        for pool in cluster.pools(project):
            if not pool.is_resource or pool.in_kapsule_scope is not True or not pool.instance_of(cluster):
                continue
            private = pool.instance.arg("public_ip_disabled")
            if not private.known or not private.is_true():
                continue
            assert isinstance(pool.instance, ResourceInstance)  # is_resource: not a default_pool block
            zone = lb_ips.zone_text(lb_ips.zone_of(pool.instance))
            if zone is not None:
                zones.setdefault(zone, []).append((pool, private))
        if len(zones) < 2:
            continue
        instance = cluster.instance
        address = instance.resource.address
        network = instance.block.attr("private_network_id")
        loc = network.value_loc if network is not None else instance.block.loc
        related = list(dict.fromkeys(
            Related(private.loc or pool.instance.block.loc, f"{pool.instance.address}: no public IP, in {zone}")
            for zone, members in sorted(zones.items()) for pool, private in members))
        yield finding(
            loc,
            f"{address} has pools without public IPs in {len(zones)} zones ({', '.join(sorted(zones))}) "
            "behind the one Public Gateway of its private network: losing the gateway's zone loses "
            "every node of every private pool",
            subject=address,
            instance=instance.address,
            related=related,
            logical=f"{address}.private_pools.zones",
            fix="keep public IPs on the pools outside the gateway's zone, or the private pools in the gateway's zone",
        )
