"""Who can reach a cluster's API server: ``scaleway_k8s_acl`` and its rules.

A Kapsule cluster is created with one ACL rule that allows ``0.0.0.0/0``. A
``scaleway_k8s_acl`` (one per cluster; its id is the cluster's) replaces that rule set with its
``acl_rules`` (``ip`` CIDRs, or ``scaleway_ranges = true`` for Scaleway's own ranges), or with
``no_ip_allowed = true`` for full isolation; deleting the ACL resource brings back an allow-all
rule. Sources: the provider's ``internal/services/k8s/acl.go`` and its documentation
(https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_acl.md).
The resource is available from provider 2.54 (``provider_features.PROVIDER_FEATURES["k8s_acl"]``).
"""

from __future__ import annotations

import ipaddress

from kapsulint.api import UNKNOWN, Project, ResourceInstance, Val
from kapsulint.kapsule.clusters import cluster_of

ACL = "scaleway_k8s_acl"


def _key(instance: ResourceInstance) -> tuple[int, str, int]:
    """A cluster instance's identity: a second block of its address (KAP006) is another cluster,
    which references (an ACL's ``cluster_id``) never reach."""
    return (id(instance.module), instance.address, instance.resource.definition)


class AclIndex:
    """The ACLs of the scan, by the cluster their ``cluster_id`` refers to."""

    by_cluster: dict[tuple[int, str, int], list[ResourceInstance]]
    # ACL instances whose cluster kapsulint cannot name (an Unknown or literal cluster_id):
    # any cluster may be the one they protect.
    unattached: list[ResourceInstance]

    def __init__(
        self,
        by_cluster: dict[tuple[int, str, int], list[ResourceInstance]] | None = None,
        unattached: list[ResourceInstance] | None = None,
    ) -> None:
        self.by_cluster = {} if by_cluster is None else by_cluster
        self.unattached = [] if unattached is None else unattached

    def acls_of(self, cluster: ResourceInstance) -> list[ResourceInstance]:
        return self.by_cluster.get(_key(cluster), [])


def acl_index(project: Project) -> AclIndex:
    index = AclIndex()
    for instance in project.resources(ACL):
        if instance.written:  # count = 0: no ACL exists
            continue
        cluster = cluster_of(instance.arg("cluster_id"))
        if cluster is None or cluster.key is UNKNOWN:
            index.unattached.append(instance)
        else:
            index.by_cluster.setdefault(_key(cluster), []).append(instance)
    return index


def is_any_address(cidr: str) -> bool | None:
    """Whether a CIDR covers every address (a /0 of IPv4 or IPv6); None when it is no CIDR."""
    try:
        network = ipaddress.ip_network(cidr.strip(), strict=False)
    except ValueError:
        return None
    return network.prefixlen == 0


def open_rules(acl: ResourceInstance) -> list[Val]:
    """The ``ip`` values of an ACL's rules that admit any address (``0.0.0.0/0``, ``::/0``)."""
    found = []
    for rule in acl.nested("acl_rules"):
        ip = rule.arg("ip")
        if not ip.known or not isinstance(ip.raw, str) or ip.loc is None:
            continue
        if is_any_address(ip.raw):
            found.append(ip)
    return found
