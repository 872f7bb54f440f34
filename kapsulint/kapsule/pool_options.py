"""Facts about node pool arguments: the container runtime, placement groups, root volumes (the
arguments whose change replaces a pool are facts by provider version, in
:mod:`kapsulint.kapsule.replacement_facts`).

Sources:
- Scaleway documentation, "Version support policy": "Containerd is the only runtime supported by
  Scaleway Kubernetes products."
  (https://www.scaleway.com/en/docs/kubernetes/reference-content/version-support-policy/)
- Scaleway Go SDK, ``api/k8s/v1/k8s_sdk.go``, ``CreatePoolRequest.PlacementGroupID``: "placement
  groups are limited to 20 instances"
  (https://github.com/scaleway/scaleway-sdk-go/blob/v1.0.0-beta.37/api/k8s/v1/k8s_sdk.go)
- The same SDK file, ``PoolVolumeType``: ``l_ssd`` is the node's local volume, "not available for
  all node types"; ``b_ssd`` is the legacy remote block storage, "Not available for new pools, use
  ``sbs_5k`` or ``sbs_15k`` instead"; and the provider's ``root_volume_size_in_gb`` (at least
  20 GB, the type's local size at most on ``l_ssd``, 10 000 GB at most on Block Storage)
  (https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_pool.md)
"""

from __future__ import annotations

SUPPORTED_RUNTIME = "containerd"
PLACEMENT_GROUP_MAX_NODES = 20


def is_supported_runtime(text: str) -> bool:
    return text.strip().lower() == SUPPORTED_RUNTIME


LOCAL_VOLUME = "l_ssd"
LEGACY_BLOCK_VOLUME = "b_ssd"
BLOCK_STORAGE_VOLUMES = frozenset({"sbs_5k", "sbs_15k"})
ROOT_VOLUME_MIN_GB = 20
BLOCK_ROOT_VOLUME_MAX_GB = 10_000
