"""What the Kapsule API offers per Kubernetes minor: feature gates, admission plugins, kubelet
arguments.

Source: the Kapsule API's ``ListVersions``/``GetVersion`` answers (``available_feature_gates``,
``available_admission_plugins``, ``available_kubelet_args``;
https://www.scaleway.com/en/developers/api/kubernetes/#path-versions-list-all-available-versions),
as recorded between 2025-10 and 2026-07 in the Scaleway Terraform provider's test cassettes
(https://github.com/scaleway/terraform-provider-scaleway/tree/v2.81.0/internal/services/k8s/testdata),
and the API's refusal of other kubelet arguments ("kubelet argument node-labels is not available
for this version", https://github.com/scaleway/crossplane-provider-scaleway/issues/194). Minors
outside 1.31 to 1.35 were not recorded: nothing is known about them. 1.34.1 did not offer
``MutatingAdmissionPolicy`` yet and 1.34.6 did; the patch that added it is not known, so 1.34
counts as offering it.
"""

from __future__ import annotations

_COMMON_GATES = ("HPAScaleToZero", "CPUManagerPolicyAlphaOptions", "ImageVolume")
FEATURE_GATES: dict[tuple[int, int], frozenset[str]] = {
    (1, 31): frozenset({*_COMMON_GATES, "InPlacePodVerticalScaling", "SidecarContainers"}),
    (1, 32): frozenset({*_COMMON_GATES, "InPlacePodVerticalScaling", "SidecarContainers", "DRAAdminAccess",
                        "DRAResourceClaimDeviceStatus", "DynamicResourceAllocation", "PodLevelResources"}),
    (1, 33): frozenset({*_COMMON_GATES, "DRAAdminAccess", "DynamicResourceAllocation", "PodLevelResources"}),
    (1, 34): frozenset({*_COMMON_GATES, "MutatingAdmissionPolicy"}),
    (1, 35): frozenset({*_COMMON_GATES, "MutatingAdmissionPolicy"}),
}
_PLUGINS = frozenset({"AlwaysPullImages", "PodNodeSelector", "PodTolerationRestriction"})
ADMISSION_PLUGINS: dict[tuple[int, int], frozenset[str]] = dict.fromkeys(FEATURE_GATES, _PLUGINS)

# The same sixteen keys for every recorded minor (KubeletConfiguration field names, camelCase).
_KUBELET_ARGS = frozenset({
    "containerLogMaxFiles", "containerLogMaxSize", "cpuCFSQuota", "cpuCFSQuotaPeriod", "cpuManagerPolicy",
    "cpuManagerPolicyOptions", "enableDebuggingHandlers", "evictionHard", "evictionMinimumReclaim",
    "imageGCHighThresholdPercent", "imageGCLowThresholdPercent", "maxParallelImagePulls", "maxPods",
    "registryBurst", "registryPullQPS", "serializeImagePulls",
})
KUBELET_ARGS: dict[tuple[int, int], frozenset[str]] = dict.fromkeys(FEATURE_GATES, _KUBELET_ARGS)

TABLES = {"feature_gates": FEATURE_GATES, "admission_plugins": ADMISSION_PLUGINS, "kubelet_args": KUBELET_ARGS}
RECORDED: tuple[tuple[int, int], ...] = tuple(sorted(FEATURE_GATES))  # the minors whose offers are known


def offered(table: str, minor: tuple[int, int] | None) -> frozenset[str] | None:
    """What the API offers for ``minor``; with ``minor`` None (not known), only what every
    recorded minor offers is certain and what none offers is certainly refused, so the union is
    returned for the caller to judge against; None for a minor outside the records."""
    by_minor = TABLES[table]
    if minor is None:
        return frozenset().union(*by_minor.values())
    return by_minor.get(minor)


def closest(name: str, choices: frozenset[str]) -> str | None:
    """The offered name a misspelt one most likely meant (``max-pods`` -> ``maxPods``)."""
    import difflib  # only when a diff or a suggestion is asked for

    folded = {c.lower(): c for c in choices}
    key = name.replace("-", "").replace("_", "").lower()
    if key in folded:
        return folded[key]
    match = difflib.get_close_matches(key, list(folded), n=1, cutoff=0.75)
    return folded[match[0]] if match else None
