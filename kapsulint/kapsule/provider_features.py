"""The first scaleway provider release with each feature kapsulint's rules depend on."""

from __future__ import annotations

from kapsulint.kapsule.provider_releases import reached

# First scaleway provider release with each feature: the oldest release tag holding the pull
# request that added it (https://github.com/scaleway/terraform-provider-scaleway/releases).
PROVIDER_FEATURES: dict[str, tuple[int, int, int]] = {
    # delete_additional_resources became Required (https://github.com/scaleway/terraform-provider-scaleway/pull/1675).
    "delete_additional_resources_required": (2, 10, 0),
    # cluster kubeconfig marked Sensitive (https://github.com/scaleway/terraform-provider-scaleway/pull/1800, https://github.com/scaleway/terraform-provider-scaleway/issues/1790).
    "sensitive_kubeconfig": (2, 12, 0),
    # scaleway_k8s_acl resource: "feat(k8s): add cluster ACLs"
    # (https://github.com/scaleway/terraform-provider-scaleway/pull/3033, merged 2025-04-18),
    # first released in v2.54.0 (the oldest tag holding the commit).
    "k8s_acl": (2, 54, 0),
    # pool security_group_id (https://github.com/scaleway/terraform-provider-scaleway/pull/3196).
    "pool_security_group": (2, 57, 0),
    # scaleway_k8s_version exports major_minor_only (https://github.com/scaleway/terraform-provider-scaleway/pull/3458).
    "k8s_version_major_minor_only": (2, 63, 0),
    # pool sizes checked before a pool is created or resized: "a mutualized cluster cannot have less
    # than 1 node" (https://github.com/scaleway/terraform-provider-scaleway/pull/3852).
    "pool_size_validation": (2, 73, 0),
    # pool labels / taints / startup_taints (https://github.com/scaleway/terraform-provider-scaleway/pull/4031).
    "pool_labels_taints": (2, 76, 0),
    # pool version upgraded separately from the cluster (https://github.com/scaleway/terraform-provider-scaleway/pull/4103).
    "pool_version_upgrade": (2, 77, 0),
    # pool name optional and generated (https://github.com/scaleway/terraform-provider-scaleway/pull/4164, https://github.com/scaleway/terraform-provider-scaleway/issues/4171); before, it was
    # Required.
    "optional_pool_name": (2, 78, 0),
}


def supports(feature: str, version: tuple[int, ...] | None) -> bool | None:
    """Whether scaleway provider ``version`` has ``feature``; None when the version is unknown, or
    is a pre-release between the feature's first release and the release before it
    (``2.54.0-rc1`` for ``k8s_acl``), which may or may not have it.

    ``version`` may have one to three components (missing ones count as 0).
    An unknown feature name raises KeyError: it is a programming error.
    """
    return reached("scaleway/scaleway", version, PROVIDER_FEATURES[feature])
