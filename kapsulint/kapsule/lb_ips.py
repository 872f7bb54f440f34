"""Reserved load balancer IPs (``scaleway_lb_ip``) as a Service's values name them.

A Service reserves its address with the ``scw-loadbalancer-ip-ids`` annotation (IP ids) or the
deprecated ``spec.loadBalancerIP`` (an address). The Scaleway CCM looks the IP up in the
load balancer's zone: the ``scw-loadbalancer-zone`` annotation, else the first zone of the
cluster's region. LB flexible IPs belong to one Availability Zone.

Sources (https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/vpc_private_network.md, https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md):
- terraform-provider-scaleway: the ``id`` of ``scaleway_lb_ip`` is zoned, ``{zone}/{uuid}``;
  its ``zone`` argument defaults to the provider's zone.
- scaleway-cloud-controller-manager ``docs/loadbalancer-annotations.md`` and
  ``scaleway/loadbalancers.go`` (v0.36.2): ``ip-ids`` is split on commas and each item used as an
  IP id as written (so a zoned id is wrong: inferred from the code, not run); the zone annotation
  defaults to the first zone of the cluster's region; ``getLoadBalancerStaticIPIDs`` looks a
  ``loadBalancerIP`` up in that zone.
- Scaleway docs ``managing-load-balancer-ips.mdx``: without a reserved IP, deleting the load
  balancer deletes its address.
"""

from __future__ import annotations

from kapsulint.api import UNKNOWN, Project, ResourceInstance, Val, expression_at, provider_config
from kapsulint.kapsule import lb_annotation_keys, zones
from kapsulint.kapsule.kube_objects import LbService

LB_IP = "scaleway_lb_ip"

def lb_ip_of(value: Val) -> ResourceInstance | None:
    """The managed ``scaleway_lb_ip`` instance a value comes from (any of its attributes)."""
    ref = value.ref
    if ref is None or not isinstance(ref[0], ResourceInstance):
        return None
    instance = ref[0]
    if instance.resource.mode != "managed" or instance.resource.type != LB_IP:
        return None
    return instance


def zone_of(instance: ResourceInstance) -> Val:
    """The zone of a ``scaleway_lb_ip``: its ``zone`` argument, else its provider's ``zone``,
    else Unknown (the provider then reads its environment or configuration file)."""
    zone = instance.arg("zone")
    if zone.raw is not None:
        return zone
    found = provider_config(instance.module, "scaleway", instance.provider_alias)
    if found is not None:
        module, block = found
        zone = module.eval_attr(block, "zone")
        if zone.raw is not None:
            return zone
    return Val(UNKNOWN, instance.block.loc)


def zone_text(value: Val) -> str | None:
    """A known zone, lower-cased as the provider and the CCM read it; None when Unknown."""
    if not value.known:
        return None
    text = value.text()
    return text.strip().lower() if text is not None else None


# -- ip-ids ---------------------------------------------------------------------------------------


def ip_id_items(text: str) -> list[str]:
    """The ids of an ``ip-ids`` annotation, as the CCM splits it (commas)."""
    return [item.strip() for item in text.split(",") if item.strip()]


def zoned_literal_items(value: Val) -> list[str]:
    """The items of a known ``ip-ids`` value that carry a locality prefix (``fr-par-1/<uuid>``)."""
    text = value.text() if value.known else None
    if text is None:
        return []
    return [item for item in ip_id_items(text) if "/" in item]


def is_unsplit_lb_ip_id(project: Project, value: Val) -> bool:
    """The value is a ``scaleway_lb_ip``'s ``id`` passed on as is (a plain reference, possibly
    through locals, variables, module arguments or outputs), so it holds ``{zone}/{uuid}``.

    The evaluator keeps the resource reference of an Unknown through functions (``split``,
    ``element``, ``trimprefix``...), so the expression that produced the value is read: only a
    reference chain counts, a function call or an index into one does not.
    """
    instance = lb_ip_of(value)
    if instance is None or value.known or value.ref is None or value.ref[1] != "id" or value.loc is None:
        return False
    written = expression_at(project, value.loc)
    return written is not None and written.is_traversal


# -- the reserved IP of a Service -----------------------------------------------------------------


def reserved_lb_ip(service: LbService) -> tuple[ResourceInstance, Val] | None:
    """The ``scaleway_lb_ip`` a Service reserves, and the value naming it: ``ip-ids`` first (it
    takes priority over ``loadBalancerIP`` in the CCM), else ``loadBalancerIP``."""
    ip_ids = service.annotation(lb_annotation_keys.LB_IP_IDS)
    if ip_ids.raw is not None:
        instance = lb_ip_of(ip_ids)
        return (instance, ip_ids) if instance is not None else None
    address = service.load_balancer_ip
    instance = lb_ip_of(address)
    return (instance, address) if instance is not None else None


def cluster_region(service: LbService) -> str | None:
    """The region of the cluster the Service is applied to, when the scan knows it."""
    cluster = service.cluster()
    if cluster is None:
        return None
    instance = cluster.instance
    region = instance.arg("region")
    if region.raw is None:
        found = provider_config(instance.module, "scaleway", instance.provider_alias)
        if found is None:
            return None
        module, block = found
        region = module.eval_attr(block, "region")
    text = zone_text(region)
    return text or None


def default_lb_zone(service: LbService, ip_zone: str) -> str | None:
    """The zone the CCM creates the load balancer in without a zone annotation: the first zone
    of the cluster's region (the reserved IP's region when the cluster's is not known)."""
    region = cluster_region(service) or zones.region_of_zone(ip_zone)
    return zones.first_zone_of_region(region) if region else None


__all__ = [
    "LB_IP",
    "cluster_region",
    "default_lb_zone",
    "ip_id_items",
    "is_unsplit_lb_ip_id",
    "lb_ip_of",
    "reserved_lb_ip",
    "zone_of",
    "zone_text",
    "zoned_literal_items",
]
