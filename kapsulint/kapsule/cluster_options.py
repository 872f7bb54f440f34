"""Facts about cluster arguments: the CNIs each cluster kind supports, the pod and service CIDR
defaults, and the auto-upgrade maintenance window."""

from __future__ import annotations

# Sources: "Version support policy" ("Kubernetes Kapsule only supports cilium and calico as CNI.
# Kubernetes Kosmos only supports kilo as CNI",
# https://www.scaleway.com/en/docs/kubernetes/reference-content/version-support-policy/); the
# API's ``available_cnis`` recorded in the provider's tests (cilium_native offered from 1.34,
# https://github.com/scaleway/terraform-provider-scaleway/tree/v2.81.0/internal/services/k8s/testdata); the ``CNI`` enum of
# https://github.com/scaleway/scaleway-sdk-go/blob/v1.0.0-beta.37/api/k8s/v1/k8s_sdk.go ("none": "only available through a ticket and is not covered by support").
KAPSULE_CNIS: frozenset[str] = frozenset({"cilium", "calico", "cilium_native"})
KOSMOS_CNIS: frozenset[str] = frozenset({"kilo"})
CNI_NONE = "none"
CILIUM_NATIVE = "cilium_native"
CILIUM_NATIVE_MIN_K8S: tuple[int, int] = (1, 34)


def is_supported_cni(cni: str, *, kosmos: bool, k8s_version: tuple[int, ...] | None) -> bool | None:
    """Whether a cluster may use ``cni`` (as KAP107 judges it).

    Kapsule: cilium and calico; cilium_native from Kubernetes 1.34 (None when
    the version is unknown); ``none`` is exempt (True). Kosmos: kilo only.
    """
    c = cni.strip().lower()
    if kosmos:
        return c in KOSMOS_CNIS
    if c == CNI_NONE:
        return True
    if c == CILIUM_NATIVE:
        if k8s_version is None:
            return None
        return tuple(k8s_version[:2]) >= CILIUM_NATIVE_MIN_K8S
    return c in KAPSULE_CNIS


# The API's defaults when ``pod_cidr`` and ``service_cidr`` are unset
# (https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_cluster.md).
DEFAULT_POD_CIDR = "100.64.0.0/15"
DEFAULT_SERVICE_CIDR = "10.32.0.0/20"

# The ``auto_upgrade`` block's validators (https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/services/k8s/cluster.go).
AUTO_UPGRADE_DAYS: frozenset[str] = frozenset(
    {"any", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
)
MAINTENANCE_HOUR_RANGE: tuple[int, int] = (0, 23)  # inclusive, UTC
