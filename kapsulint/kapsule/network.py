"""Private networks, their subnets and the Public Gateways attached to them.

The questions the network rules ask: which ``scaleway_vpc_private_network`` a cluster sits on,
which subnets that network has, and whether a Public Gateway gives it a default route out.

Sources: https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_cluster.md (``pod_cidr`` defaults to 100.64.0.0/15, ``service_cidr``
to 10.32.0.0/20, ``private_network_id``), https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/vpc_private_network.md and
https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/vpc_gateway_network.md (``scaleway_vpc_private_network.ipv4_subnet``,
``scaleway_vpc_gateway_network``: ``ipam_config.push_default_route`` has no default and so is
false, ``enable_masquerade`` defaults to true),
https://www.scaleway.com/en/docs/kubernetes/reference-content/secure-cluster-with-private-network/ (private nodes need a Public Gateway with
dynamic NAT, i.e. masquerade, and an advertised default route).
"""

from __future__ import annotations

import ipaddress

from kapsulint.api import UNKNOWN, Loc, Project, ResourceInstance, Val
from kapsulint.kapsule.clusters import Cluster

PRIVATE_NETWORK = "scaleway_vpc_private_network"
GATEWAY_NETWORK = "scaleway_vpc_gateway_network"
PUBLIC_GATEWAY = "scaleway_vpc_public_gateway"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


# -- certainty --------------------------------------------------------------------------------


def exists_for_certain(instance: ResourceInstance) -> bool:
    """The instance certainly exists: no Unknown ``count``/``for_each`` on it or its module calls."""
    return instance.key is not UNKNOWN and "[?]" not in instance.module.address


# -- private network of a cluster -------------------------------------------------------------


def private_network_of(value: Val) -> ResourceInstance | None:
    """The managed private network instance a ``private_network_id`` value refers to.

    None when it is a literal id, a data source, an Unknown variable, or an instance whose
    ``count``/``for_each`` key is Unknown: kapsulint cannot tell which network that is.
    """
    if value.ref is None:
        return None
    instance: ResourceInstance
    instance, _ = value.ref
    if instance.type != PRIVATE_NETWORK or instance.resource.mode != "managed":
        return None
    if instance.key is UNKNOWN:
        return None
    return instance


def cluster_private_network(cluster: Cluster) -> ResourceInstance | None:
    """The private network the cluster's ``private_network_id`` refers to, when the scan holds it."""
    return private_network_of(cluster.instance.arg("private_network_id"))


def _same_resource(a: ResourceInstance, b: ResourceInstance) -> bool:
    return a.module is b.module and a.resource is b.resource


def _same_instance(a: ResourceInstance, b: ResourceInstance) -> bool:
    return _same_resource(a, b) and a.key is not UNKNOWN and b.key is not UNKNOWN and a.key == b.key


# -- subnets ----------------------------------------------------------------------------------


class Subnet:
    """One subnet written on a private network (``ipv4_subnet`` or ``ipv6_subnets``)."""

    value: Val  # the ``subnet`` argument, with the location of the text that gave it
    network: Network
    block_type: str

    def __init__(self, value: Val, network: Network, block_type: str) -> None:
        self.value = value
        self.network = network
        self.block_type = block_type


def parse_cidr(value: Val) -> Network | None:
    """A known CIDR string as a network (host bits allowed), else None."""
    text = value.text() if value.known and isinstance(value.raw, str) else None
    if not text:
        return None
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        return None


def subnets(network: ResourceInstance) -> list[Subnet]:
    """The subnets written on a private network whose value is a known CIDR.

    A network with no ``ipv4_subnet`` gets one chosen by Scaleway, which kapsulint cannot know.
    """
    found: list[Subnet] = []
    for block_type in ("ipv4_subnet", "ipv6_subnets"):
        for block in network.nested(block_type):
            value = block.arg("subnet")
            parsed = parse_cidr(value)
            if parsed is not None and value.loc is not None:
                found.append(Subnet(value, parsed, block_type))
    return found


def overlaps(a: Network, b: Network) -> bool:
    return a.version == b.version and a.overlaps(b)


# -- Public Gateway attachments ---------------------------------------------------------------


class GatewayNetwork:
    """A ``scaleway_vpc_gateway_network``: a Public Gateway attached to a private network."""

    instance: ResourceInstance

    def __init__(self, instance: ResourceInstance) -> None:
        self.instance = instance

    @property
    def push_default_route(self) -> bool | None:
        """``ipam_config { push_default_route }``: true, false (also when absent), None if Unknown."""
        blocks = self.instance.nested("ipam_config")
        if not blocks:
            written = self.instance.arg("ipam_config")  # JSON syntax may give the block as a value
            if written.raw is None:
                return False
            if not written.known:
                return None
            items = written.elements() if written.is_list else [written]
            values = [item.get("push_default_route") for item in items]
        else:
            values = [block.arg("push_default_route") for block in blocks]
        if any(v.is_true() for v in values):
            return True
        if any(not v.known for v in values):
            return None
        if all(v.raw is None or v.is_false() for v in values):
            return False
        return None

    @property
    def masquerade(self) -> bool | None:
        """``enable_masquerade`` (default true); None when Unknown."""
        value = self.instance.arg("enable_masquerade")
        if value.raw is None or value.is_true():
            return True
        if value.is_false():
            return False
        return None

    @property
    def routes_out(self) -> bool | None:
        """Gives the network a NATed default route: push_default_route and masquerade both on."""
        route, nat = self.push_default_route, self.masquerade
        if route is False or nat is False:
            return False
        if route is True and nat is True:
            return True
        return None

    def shortfalls(self) -> list[str]:
        """Short phrases for what this attachment lacks."""
        found = []
        if self.push_default_route is False:
            found.append("pushes no default route")
        if self.masquerade is False:
            found.append("does not masquerade (enable_masquerade = false)")
        return found

    def problems(self) -> list[tuple[Loc, str]]:
        """Where this attachment falls short of a default route out, as (location, explanation)."""
        found: list[tuple[Loc, str]] = []
        if self.push_default_route is False:
            blocks = self.instance.nested("ipam_config")
            if blocks:
                value = blocks[0].arg("push_default_route")
                loc = value.loc or blocks[0].loc
                found.append((loc, f"{self.instance.address} does not set ipam_config {{ push_default_route = true }}"))
            else:
                found.append((self.instance.block.loc,
                              f"{self.instance.address} has no ipam_config {{ push_default_route = true }}"))
        if self.masquerade is False:
            value = self.instance.arg("enable_masquerade")
            found.append((value.loc or self.instance.block.loc,
                          f"{self.instance.address} sets enable_masquerade = false (no dynamic NAT)"))
        return found


def gateway_networks(project: Project) -> list[GatewayNetwork]:
    return [GatewayNetwork(i) for i in project.resources(GATEWAY_NETWORK) if not i.written]


def attachment(gateway: GatewayNetwork, network: ResourceInstance) -> bool | None:
    """Whether this gateway network is attached to ``network``: True, False, or None (cannot tell)."""
    value = gateway.instance.arg("private_network_id")
    if value.raw is None:
        return False
    if value.ref is None:
        return None  # a literal id, a variable with no value: it may be this network
    target, _ = value.ref
    if target.type != PRIVATE_NETWORK or target.resource.mode != "managed":
        return None  # a data source may look this network up
    if _same_instance(target, network):
        return True
    if _same_resource(target, network) and (target.key is UNKNOWN or network.key is UNKNOWN):
        return None
    return False


class Egress:
    """The answer to "does a Public Gateway route this private network out?"."""

    status: bool | None  # True, False (certainly not), None (cannot tell)
    attached: list[GatewayNetwork]  # attached, but not routing out

    def __init__(self, status: bool | None, attached: list[GatewayNetwork] | None = None) -> None:
        self.status = status
        self.attached = [] if attached is None else attached


def default_route(project: Project, network: ResourceInstance,
                  gateways: list[GatewayNetwork] | None = None) -> Egress:
    """Whether ``network`` has a Public Gateway attached with push_default_route and masquerade.

    False only when that absence is certain: the network's root module and what it calls were
    read whole (``Project.complete_for``), and every gateway network of that root is known not to
    be attached, or known to be attached without a default route. Gateways of other root modules
    are other applies: they neither supply the route nor make its absence uncertain.
    """
    if gateways is None:
        gateways = gateway_networks(project)
    uncertain = not project.complete_for(network.module)
    lacking: list[GatewayNetwork] = []
    root = network.module.root
    for gateway in gateways:
        if gateway.instance.module.root is not root:
            continue
        attached = attachment(gateway, network)
        if attached is False:
            continue
        routes = gateway.routes_out
        if attached is True and routes is True and exists_for_certain(gateway.instance):
            return Egress(True)
        if attached is True and routes is False:
            lacking.append(gateway)
            continue
        uncertain = True
    return Egress(None if uncertain else False, lacking)

