"""Private nodes without a Public Gateway.

## What it does
Reports a Kapsule pool with `public_ip_disabled = true` whose cluster's private network has no Public Gateway giving it a NATed default route.

## Why is this bad
A pool with `public_ip_disabled = true` runs fully isolated nodes: they keep only an address on
the cluster's private network, and everything they send outside it (to the Kubernetes control
plane, to image registries, to the Internet) has to leave through a Public Gateway attached to
that network. Scaleway states that such a pool needs a gateway that advertises the default route
and performs dynamic NAT; in Terraform that is a `scaleway_vpc_gateway_network` linking a
`scaleway_vpc_public_gateway` to the private network with `ipam_config { push_default_route =
true }` (this argument has no default, so leaving it out means no route is pushed) and
`enable_masquerade` left at its default `true`. Without one, the nodes have no path to their
control plane (Scaleway warns that removing or detaching the gateway leaves a fully isolated pool
in that state), so the pool cannot work. Changing `public_ip_disabled` afterwards replaces the
pool.

The rule follows the cluster's `private_network_id` to a `scaleway_vpc_private_network` of the
scan and looks for gateway networks attached to it. It stays silent when it cannot be sure the
gateway is missing: the cluster or its private network is not in the scan, a gateway network's
`private_network_id` or settings are Unknown, a `count` or `for_each` is Unknown, a module call
leads outside the scan, or a file could not be parsed. It does not check that the gateway sits
in the cluster's region or that it is an IPAM (not legacy DHCP) gateway, which Scaleway also
requires. External and Kosmos pools are out of scope.

Source: Scaleway Terraform provider, `docs/resources/k8s_pool.md` (`public_ip_disabled`) and
`docs/resources/vpc_gateway_network.md`; Scaleway documentation,
`secure-cluster-with-private-network.mdx` and `multi-az-clusters.mdx` (https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_pool.md, https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/vpc_private_network.md, https://www.scaleway.com/en/docs/kubernetes/reference-content/secure-cluster-with-private-network/).

## Example
```hcl
resource "scaleway_vpc_private_network" "nodes" {
  name = "nodes"
}

resource "scaleway_k8s_cluster" "main" {
  private_network_id = scaleway_vpc_private_network.nodes.id
  # ...
}

resource "scaleway_k8s_pool" "private" {
  cluster_id         = scaleway_k8s_cluster.main.id
  public_ip_disabled = true
  # ...
}
```

## Use instead
```hcl
resource "scaleway_vpc_public_gateway" "egress" {
  type = "VPC-GW-S"
}

resource "scaleway_vpc_gateway_network" "nodes" {
  gateway_id         = scaleway_vpc_public_gateway.egress.id
  private_network_id = scaleway_vpc_private_network.nodes.id
  enable_masquerade  = true

  ipam_config {
    push_default_route = true
  }
}
```

## References
- [scaleway_k8s_pool](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_pool)
- [scaleway_vpc_gateway_network](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/vpc_gateway_network)
- [Secure a Kapsule cluster with a Private Network](https://www.scaleway.com/en/docs/kubernetes/reference-content/secure-cluster-with-private-network/)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, Related, finding
from kapsulint.kapsule import clusters, network

ID = "KAP501"
NAME = "private-nodes-without-public-gateway"
SEVERITY = "error"

FIX_HINT = (
    "attach a Public Gateway: scaleway_vpc_gateway_network { gateway_id = ..., private_network_id = "
    "<the cluster's private network>, enable_masquerade = true, ipam_config { push_default_route = true } }"
)


def check(project: Project) -> Iterator[Finding]:
    gateways = None
    answers: dict[int, network.Egress] = {}
    for pool in clusters.pools(project):
        value = pool.instance.arg("public_ip_disabled")
        if not value.is_true() or value.loc is None:
            continue
        cluster = pool.cluster
        if cluster is None or cluster.is_kapsule is not True or pool.is_external:
            continue
        private_network = network.cluster_private_network(cluster)
        if private_network is None:
            continue
        if gateways is None:
            gateways = network.gateway_networks(project)
        key = id(private_network)
        if key not in answers:
            answers[key] = network.default_route(project, private_network, gateways)
        egress = answers[key]
        if egress.status is not False:
            continue
        address = pool.instance.resource.address
        related = [Related(private_network.block.loc,
                           f"{private_network.address}, the private network of {cluster.instance.address}")]
        for gateway in egress.attached:
            related.extend(Related(loc, text) for loc, text in gateway.problems())
        where = f"{private_network.address} (the private network of {cluster.instance.address})"
        if egress.attached:
            shortfalls = sorted({text for gateway in egress.attached for text in gateway.shortfalls()})
            problem = f"the Public Gateway attached to {where} {' and '.join(shortfalls)}"
            fix = ("on the gateway network, set ipam_config { push_default_route = true } and leave "
                   "enable_masquerade at true")
        else:
            problem = f"no Public Gateway is attached to {where}"
            fix = FIX_HINT
        yield finding(
            value.loc,
            f"{address} disables public IPs, but {problem}: its nodes cannot reach the control plane "
            "or the Internet",
            subject=address,
            instance=pool.instance.address,
            related=related,
            logical=f"{address}.public_ip_disabled",
            fix=fix,
        )
