"""Facts about node pool options Kapsule accepts: container runtime, placement groups.

Sources:
- Scaleway documentation, "Version support policy": "Containerd is the only runtime supported by
  Scaleway Kubernetes products."
  (https://www.scaleway.com/en/docs/kubernetes/reference-content/version-support-policy/)
- Scaleway Go SDK, ``api/k8s/v1/k8s_sdk.go``, ``CreatePoolRequest.PlacementGroupID``: "placement
  groups are limited to 20 instances"
  (https://github.com/scaleway/scaleway-sdk-go/blob/master/api/k8s/v1/k8s_sdk.go)
"""

from __future__ import annotations

SUPPORTED_RUNTIME = "containerd"
PLACEMENT_GROUP_MAX_NODES = 20


def is_supported_runtime(text: str) -> bool:
    return text.strip().lower() == SUPPORTED_RUNTIME
