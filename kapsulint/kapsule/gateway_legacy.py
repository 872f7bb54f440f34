"""The legacy (pre-IPAM) arguments of a Public Gateway's attachment to a private network.

Sources: the provider's ``scaleway_vpc_gateway_network`` documentation, which marks ``dhcp_id``,
``enable_dhcp``, ``static_address`` (and ``cleanup_dhcp``) deprecated: "In 2023, DHCP
functionality was moved from Public Gateways to Private Networks, DHCP fields are now
deprecated." and conflicting with ``ipam_config``
(https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/vpc_gateway_network.md);
Scaleway documentation, "Secure a cluster with a Private Network": full isolation needs a Public
Gateway "fully integrated with IPAM, and is not a legacy gateway"
(https://www.scaleway.com/en/docs/kubernetes/reference-content/secure-cluster-with-private-network/).
"""

from __future__ import annotations

# argument -> what to write instead
LEGACY_ARGUMENTS: dict[str, str] = {
    "dhcp_id": "ipam_config { push_default_route = true } (DHCP now belongs to the private network)",
    "static_address": "ipam_config { ipam_ip_id = ... } with a reserved IPAM IP",
    "enable_dhcp": "ipam_config { push_default_route = true }",
}
