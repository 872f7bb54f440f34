"""Public Gateway attached with the legacy DHCP arguments instead of IPAM.

## What it does
Reports a `scaleway_vpc_gateway_network` that writes `dhcp_id`, `static_address` or `enable_dhcp`.

## Why is this bad
In 2023 Scaleway moved DHCP from Public Gateways to Private Networks and the provider deprecated
the gateway network's `dhcp_id`, `static_address` and `enable_dhcp`; they conflict with
`ipam_config`, the way a gateway network is configured now. Kapsule's private nodes
(`public_ip_disabled = true`) need a Public Gateway that is "fully integrated with IPAM, and is not
a legacy gateway", pushing the default route through `ipam_config`: a gateway attached the legacy
way leaves fully isolated nodes without their route out, and the deprecated arguments are due to
disappear from the provider.

Every gateway network of the scan is judged, whether or not a cluster uses its private network.
An argument written as `null` is unset and stays silent; a value kapsulint cannot compute counts
as written. The finding points at the argument's name.

Source: Scaleway Terraform provider, `docs/resources/vpc_gateway_network.md`
(https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/vpc_gateway_network.md),
and Scaleway documentation, "Secure a cluster with a Private Network"
(https://www.scaleway.com/en/docs/kubernetes/reference-content/secure-cluster-with-private-network/).

## Example
```hcl
resource "scaleway_vpc_gateway_network" "main" {
  gateway_id         = scaleway_vpc_public_gateway.main.id
  private_network_id = scaleway_vpc_private_network.k8s.id
  dhcp_id            = scaleway_vpc_public_gateway_dhcp.main.id
}
```

## Use instead
```hcl
resource "scaleway_vpc_gateway_network" "main" {
  gateway_id         = scaleway_vpc_public_gateway.main.id
  private_network_id = scaleway_vpc_private_network.k8s.id
  enable_masquerade  = true

  ipam_config {
    push_default_route = true
  }
}
```

No automatic fix: moving a gateway network from the legacy arguments to `ipam_config` changes
how its private network gets DHCP and its default route (the Private Network's own DHCP takes
over), which needs a migration plan rather than a rewrite of the arguments.

## References
- [scaleway_vpc_gateway_network](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/vpc_gateway_network)
- [Secure a cluster with a Private Network](https://www.scaleway.com/en/docs/kubernetes/reference-content/secure-cluster-with-private-network/)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, finding
from kapsulint.kapsule import gateway_legacy, network

ID = "KAP503"
NAME = "legacy-gateway-dhcp"
SEVERITY = "warning"


def check(project: Project) -> Iterator[Finding]:
    for gateway in project.resources(network.GATEWAY_NETWORK):
        address = gateway.resource.address
        for name, instead in gateway_legacy.LEGACY_ARGUMENTS.items():
            written = gateway.block.attr(name)
            if written is None:
                continue
            value = gateway.arg(name)
            if value.known and value.raw is None:
                continue
            yield finding(
                written.loc,
                f"{address} sets the deprecated {name}: Public Gateways attach to private networks "
                "through ipam_config now, and Kapsule's private nodes need an IPAM gateway",
                subject=address,
                instance=gateway.address,
                logical=f"{address}.{name}",
                fix=f"replace {name} with {instead}",
            )
