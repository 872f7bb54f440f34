"""The names of the Scaleway load balancer annotations a Kubernetes Service carries, the
deprecated ones, and the prefixes of other clouds' annotations."""

from __future__ import annotations

# Source: https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md
# and scaleway/loadbalancers_annotations.go at the same tag.
SCW_LB_ANNOTATION_PREFIX = "service.beta.kubernetes.io/scw-loadbalancer-"
LB_PROXY_PROTOCOL_V1 = SCW_LB_ANNOTATION_PREFIX + "proxy-protocol-v1"
LB_PROXY_PROTOCOL_V2 = SCW_LB_ANNOTATION_PREFIX + "proxy-protocol-v2"
LB_SEND_PROXY_V2 = SCW_LB_ANNOTATION_PREFIX + "send-proxy-v2"  # deprecated
LB_IP_IDS = SCW_LB_ANNOTATION_PREFIX + "ip-ids"
LB_ZONE = SCW_LB_ANNOTATION_PREFIX + "zone"
LB_ID = SCW_LB_ANNOTATION_PREFIX + "id"  # an existing load balancer to use (``<zone>/<lb-id>``)
LB_EXTERNALLY_MANAGED = SCW_LB_ANNOTATION_PREFIX + "externally-managed"
LB_PRIVATE = SCW_LB_ANNOTATION_PREFIX + "private"
LB_USE_HOSTNAME = SCW_LB_ANNOTATION_PREFIX + "use-hostname"
LB_FORCE_INTERNAL_IP = SCW_LB_ANNOTATION_PREFIX + "force-internal-ip"  # deprecated

# Deprecated annotation -> its replacement (None: no replacement named).
DEPRECATED_LB_ANNOTATIONS: dict[str, str | None] = {
    LB_SEND_PROXY_V2: LB_PROXY_PROTOCOL_V2,
    LB_FORCE_INTERNAL_IP: None,
}

# Annotations meant for other clouds' load balancers: values carrying them are
# not Kapsule evidence and stay silent.
FOREIGN_CLOUD_ANNOTATION_PREFIXES: tuple[str, ...] = (
    "service.beta.kubernetes.io/aws-",
    "service.beta.kubernetes.io/oci-",
    "service.beta.kubernetes.io/azure-",
    "cloud.google.com/",
)


def is_scaleway_lb_annotation(key: str) -> bool:
    """True for a ``service.beta.kubernetes.io/scw-loadbalancer-*`` key."""
    return key.strip().startswith(SCW_LB_ANNOTATION_PREFIX)


def is_foreign_cloud_annotation(key: str) -> bool:
    """True for an annotation key of another cloud's load balancer."""
    k = key.strip()
    return any(k.startswith(p) for p in FOREIGN_CLOUD_ANNOTATION_PREFIXES)

