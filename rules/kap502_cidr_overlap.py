"""Overlapping CIDR ranges.

## What it does
Reports a cluster whose pod range, service range or private network subnets overlap one another.

## Why is this bad
A Kapsule cluster uses three address ranges: `pod_cidr` for pod addresses (100.64.0.0/15 when
not set), `service_cidr` for ClusterIP Services (10.32.0.0/20 when not set) and the subnet of its
private network, from which Scaleway hands the nodes their private addresses (a /22 of it goes to
the cluster). When two of them share addresses, the same IP can mean a node, a pod and a Service
at once, and traffic to it is routed to the wrong one: nodes fail to reach each other or the
control plane, or Services shadow machines of the network. A private network subnet chosen as
`10.32.0.0/16` or carved from it with `cidrsubnet()` collides with the default service range
without any CIDR being written on the cluster. Both cluster ranges force a replacement of the
whole cluster when changed, so the clash is best fixed before the first apply.

The defaults and the node addressing come from Scaleway's provider and documentation; the harm
of overlapping ranges is general IP routing. Whether the Kapsule API refuses an overlapping
configuration at creation, or accepts it and breaks later, is not confirmed. Subnets that Scaleway
chooses itself (no `ipv4_subnet` block) and Unknown values are not judged.

Source: Scaleway Terraform provider, `docs/resources/k8s_cluster.md` (`pod_cidr`, `service_cidr`)
and `docs/resources/vpc_private_network.md` (`ipv4_subnet`); Scaleway documentation,
`secure-cluster-with-private-network.mdx` (https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_cluster.md, https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/vpc_private_network.md).

## Example
```hcl
resource "scaleway_vpc_private_network" "nodes" {
  ipv4_subnet {
    subnet = "10.32.0.0/20"
  }
}

resource "scaleway_k8s_cluster" "main" {
  private_network_id = scaleway_vpc_private_network.nodes.id
  # service_cidr defaults to 10.32.0.0/20
  # ...
}
```

## Use instead
```hcl
resource "scaleway_vpc_private_network" "nodes" {
  ipv4_subnet {
    subnet = "172.16.0.0/22"
  }
}
```

## References
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
- [scaleway_vpc_private_network](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/vpc_private_network)
- [Secure a Kapsule cluster with a Private Network](https://www.scaleway.com/en/docs/kubernetes/reference-content/secure-cluster-with-private-network/)
"""

from __future__ import annotations

from collections.abc import Iterator

from kapsulint.api import Finding, Loc, Project, Related, Val, finding, shown
from kapsulint.kapsule import cluster_options, clusters, network

ID = "KAP502"
NAME = "cidr-overlap"
SEVERITY = "warning"


class Side:
    """One address range of a cluster: its name, network, and where it is written (None: default)."""

    name: str
    cidr: network.Network
    value: Val | None
    logical: str
    owner: str  # the private network a subnet belongs to

    def __init__(
        self,
        name: str,
        cidr: network.Network,
        value: Val | None,
        logical: str,
        owner: str = "",
    ) -> None:
        self.name = name
        self.cidr = cidr
        self.value = value
        self.logical = logical
        self.owner = owner

    @property
    def loc(self) -> Loc | None:
        return self.value.loc if self.value is not None else None

    def describe(self) -> str:
        if self.value is None:
            return f"{self.name} {self.cidr} (the default)"
        text = f"{self.name} {shown(self.value)}"
        return f"{text} of {self.owner}" if self.owner else text


def _cluster_range(cluster: clusters.Cluster, argument: str, default: str) -> Side | None:
    value = cluster.instance.arg(argument)
    if value.raw is None:
        cidr = network.parse_cidr(Val(default))
        assert cidr is not None  # the provider's defaults are CIDRs
        return Side(argument, cidr, None, argument)
    parsed = network.parse_cidr(value)
    if parsed is None or value.loc is None:
        return None  # Unknown, or not a CIDR (the provider rejects it)
    return Side(argument, parsed, value, argument)


def check(project: Project) -> Iterator[Finding]:
    for cluster in clusters.clusters(project):
        ranges = [
            _cluster_range(cluster, "pod_cidr", cluster_options.DEFAULT_POD_CIDR),
            _cluster_range(cluster, "service_cidr", cluster_options.DEFAULT_SERVICE_CIDR),
        ]
        sides = [s for s in ranges if s is not None]
        private_network = None
        if cluster.is_kosmos is not True:
            private_network = network.cluster_private_network(cluster)
        if private_network is not None:
            for subnet in network.subnets(private_network):
                sides.append(Side("subnet", subnet.network, subnet.value,
                                  f"private_network.{subnet.block_type}", private_network.address))
        groups: dict[tuple[str, int, int, str], tuple[Side, Loc, list[Side]]] = {}
        for i, first in enumerate(sides):
            for second in sides[i + 1:]:
                if not network.overlaps(first.cidr, second.cidr):
                    continue
                anchor, other = (first, second) if first.value is not None else (second, first)
                if anchor.value is None:
                    continue  # two defaults never overlap
                loc = anchor.loc
                assert loc is not None  # a written value has its place
                key = (loc.path, loc.line, loc.column, anchor.logical)
                groups.setdefault(key, (anchor, loc, []))[2].append(other)
        address = cluster.instance.resource.address
        for anchor, anchor_loc, others in groups.values():
            related = []
            for other in others:
                if other.value is not None:
                    assert other.loc is not None  # a written value has its place
                    related.append(Related(other.loc, f"{other.describe()} overlaps it"))
                else:
                    related.append(Related(cluster.instance.block.loc,
                                           f"{cluster.instance.address} uses {other.describe()}"))
            clash = ", ".join(o.describe() for o in others)
            yield finding(
                anchor_loc,
                f"{anchor.describe()} overlaps {clash} in {cluster.instance.address}: the same "
                "addresses would name nodes, pods or Services, and traffic is misrouted",
                subject=address,
                instance=cluster.instance.address,
                related=related,
                logical=f"{address}.{anchor.logical}",
                fix="choose non-overlapping ranges for pod_cidr, service_cidr and the private network subnet "
                    "(pod_cidr and service_cidr can only be changed by replacing the cluster)",
            )
