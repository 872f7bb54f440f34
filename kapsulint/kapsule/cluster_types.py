"""Cluster types: the control-plane offers of Kapsule and Kosmos, their node limits and SLA."""

from __future__ import annotations

from typing import NamedTuple


class ClusterType(NamedTuple):
    """A control-plane offer. ``max_nodes`` and ``max_etcd_mb`` None mean no source states the
    limit."""

    name: str
    max_nodes: int | None
    dedicated: bool
    kosmos: bool
    sla: bool
    verified: bool = True
    commitment_days: int = 0
    max_etcd_mb: int | None = None


# Sources: the API's ``available-types`` answer recorded in the provider's tests
# (https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/services/k8s/testdata/cluster-type-change.cassette.yaml,
# 2026-07-03) and "Kubernetes control plane offers"
# (https://www.scaleway.com/en/docs/kubernetes/reference-content/kubernetes-control-plane-offers/,
# https://github.com/scaleway/docs-content/blob/c04a3a90/pages/kubernetes/reference-content/kubernetes-control-plane-offers.mdx):
# 150 / 250 / 500 / 500 nodes, SLA 99.5 % and a 30-day commitment on dedicated offers; the etcd
# quota, the answer's ``max_etcd_size`` (55000000 bytes on "kapsule", 200000000 on the dedicated
# offers, "multicloud-dedicated-8" and "-16" included), which the offers page states as 55 MB and
# 200 MB. The limits of "multicloud" and "multicloud-dedicated-4" are in neither recorded answer:
# they are None, so no limit rule fires on them.
CLUSTER_TYPES: dict[str, ClusterType] = {
    t.name: t
    for t in (
        ClusterType("kapsule", 150, dedicated=False, kosmos=False, sla=False, max_etcd_mb=55),
        ClusterType(
            "kapsule-dedicated-4", 250, dedicated=True, kosmos=False, sla=True, commitment_days=30, max_etcd_mb=200
        ),
        ClusterType(
            "kapsule-dedicated-8", 500, dedicated=True, kosmos=False, sla=True, commitment_days=30, max_etcd_mb=200
        ),
        ClusterType(
            "kapsule-dedicated-16", 500, dedicated=True, kosmos=False, sla=True, commitment_days=30, max_etcd_mb=200
        ),
        ClusterType("multicloud", None, dedicated=False, kosmos=True, sla=False, verified=False),
        ClusterType(
            "multicloud-dedicated-4", None, dedicated=True, kosmos=True, sla=True, verified=False, commitment_days=30
        ),
        ClusterType(
            "multicloud-dedicated-8", 500, dedicated=True, kosmos=True, sla=True, commitment_days=30, max_etcd_mb=200
        ),
        ClusterType(
            "multicloud-dedicated-16", 500, dedicated=True, kosmos=True, sla=True, commitment_days=30, max_etcd_mb=200
        ),
    )
}

# The API's offer when ``type`` is omitted (mutualized control plane).
DEFAULT_CLUSTER_TYPE = "kapsule"


def cluster_type(name: str | None) -> ClusterType | None:
    """Facts for a cluster ``type`` (None or "" means the default), else None."""
    if name is None or not name.strip():
        return CLUSTER_TYPES[DEFAULT_CLUSTER_TYPE]
    return CLUSTER_TYPES.get(name.strip().lower())


def is_kosmos_type(name: str | None) -> bool:
    """True for Kosmos (``multicloud*``) cluster types; the default is Kapsule."""
    return name is not None and name.strip().lower().startswith("multicloud")


def is_kapsule_type(name: str | None) -> bool:
    """True for Kapsule cluster types (``kapsule*``, or ``type`` unset)."""
    return name is None or not name.strip() or name.strip().lower().startswith("kapsule")



def is_mutualized(name: str | None) -> bool | None:
    """Whether a control plane is mutualized (shared), by the provider's own test: its type does
    not contain "dedicated" (``validatePoolSize`` in the provider's pool.go,
    https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/services/k8s/pool.go);
    the default type is; None when the type is Unknown."""
    if name is None:
        return None
    return "dedicated" not in (name.strip().lower() or DEFAULT_CLUSTER_TYPE)
