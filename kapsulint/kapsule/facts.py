"""Scaleway Kapsule product facts: pure data and small pure lookups.

Nothing here parses Terraform or YAML and nothing imports beyond the standard
library. Every group of facts names where it comes from (a repository and file,
or a documentation page, by URL at a tag or commit where it is a repository);
facts the research could not confirm from a primary source say UNVERIFIED, and
the lookups answer ``None`` ("unknown") for them rather than guessing.

Short source names used below:

* TF: github.com/scaleway/terraform-provider-scaleway (HEAD b2d45ed4, v2.81.0)
* SDK: github.com/scaleway/scaleway-sdk-go, ``api/k8s/v1/k8s_sdk.go``
* CCM: github.com/scaleway/scaleway-cloud-controller-manager (v0.36.2)
* CSI: github.com/scaleway/scaleway-csi
* DOCS: github.com/scaleway/docs-content and https://www.scaleway.com/en/docs/
* CASSETTES: recorded API responses under TF ``internal/services/*/testdata/``
"""

from __future__ import annotations

import re
from typing import Iterable, NamedTuple

__all__ = [
    # node types
    "normalize_node_type",
    "InstanceType",
    "INSTANCE_TYPES",
    "KNOWN_FAMILIES",
    "SHARED_VCPU_FAMILIES",
    "DEDICATED_VCPU_FAMILIES",
    "UNVERIFIED_VCPU_FAMILIES",
    "END_OF_LIFE_FAMILIES",
    "INELIGIBLE_NODE_TYPES",
    "EXTERNAL_NODE_TYPE",
    "WINDOWS_NODE_TYPE_SUFFIX",
    "node_type_family",
    "instance_type",
    "is_shared_vcpu",
    "is_external_node_type",
    "is_windows_node_type",
    "ineligibility_reason",
    "is_known_node_type",
    "suggest_node_type",
    # cluster types
    "ClusterType",
    "CLUSTER_TYPES",
    "DEFAULT_CLUSTER_TYPE",
    "cluster_type",
    "is_kosmos_type",
    "is_kapsule_type",
    # labels, tags, taints
    "POOL_NAME_LABEL",
    "TAG_LABEL_PREFIX",
    "TAINT_TAG_PREFIX",
    "NOPREFIX_TAG_PREFIX",
    "INSTANCE_TYPE_LABEL",
    "ZONE_LABEL",
    "REGION_LABEL",
    "CSI_ZONE_LABEL",
    "OS_LABEL",
    "ARCH_LABEL",
    "HOSTNAME_LABEL",
    "EXCLUDE_FROM_LB_LABEL",
    "EXCLUDE_FROM_LB_LABEL_VALUE",
    "WELL_KNOWN_NODE_LABELS",
    "UNVERIFIED_AUTOMATIC_LABELS",
    "TAINT_EFFECTS",
    "labels_from_tags",
    "taints_from_tags",
    "automatic_node_labels",
    # load balancer annotations
    "SCW_LB_ANNOTATION_PREFIX",
    "LB_PROXY_PROTOCOL_V1",
    "LB_PROXY_PROTOCOL_V2",
    "LB_SEND_PROXY_V2",
    "LB_IP_IDS",
    "LB_ZONE",
    "LB_EXTERNALLY_MANAGED",
    "LB_PRIVATE",
    "LB_USE_HOSTNAME",
    "LB_ID",
    "LB_TYPE",
    "LB_HEALTH_CHECK_FROM_SERVICE",
    "LB_FORCE_INTERNAL_IP",
    "DEPRECATED_LB_ANNOTATIONS",
    "FOREIGN_CLOUD_ANNOTATION_PREFIXES",
    "is_scaleway_lb_annotation",
    "is_foreign_cloud_annotation",
    # zones and regions
    "region_of_zone",
    "first_zone_of_region",
    # provider features
    "PROVIDER_FEATURES",
    "supports",
    # CNIs
    "KAPSULE_CNIS",
    "KOSMOS_CNIS",
    "SDK_CNIS",
    "CNI_NONE",
    "CILIUM_NATIVE",
    "CILIUM_NATIVE_MIN_K8S",
    "is_supported_cni",
    # cluster and pool defaults
    "DEFAULT_POD_CIDR",
    "DEFAULT_SERVICE_CIDR",
    "DEFAULT_SERVICE_DNS_IP",
    "AUTO_UPGRADE_DAYS",
    "MAINTENANCE_HOUR_RANGE",
    "POOL_AUTOHEALING_DEFAULT",
    "PLACEMENT_GROUP_MAX_INSTANCES",
    "ROOT_VOLUME_MIN_GB",
]


# ---------------------------------------------------------------------------
# Node types
# ---------------------------------------------------------------------------


def normalize_node_type(s: str) -> str:
    """Return the canonical spelling of a node type: upper case, ``_`` -> ``-``.

    The provider compares ``node_type`` ignoring case and treating ``_`` and
    ``-`` alike (TF ``internal/dsf`` ``IgnoreCaseAndHyphen``; its root-volume
    validator upper-cases and swaps ``_`` for ``-``), so ``pro2_xxs`` and
    ``PRO2-XXS`` are one type. Surrounding whitespace is dropped.
    """
    return s.strip().upper().replace("_", "-")


class InstanceType(NamedTuple):
    """One Instance commercial type as Kapsule sees it.

    ``shared`` is True for shared vCPUs, False for dedicated ones and None when
    no primary source says (UNVERIFIED). ``kapsule_eligible`` is False when the
    Kapsule API refuses the type, None when unverified, True when nothing
    contradicts its use. ``local_volume_max_gb`` is 0 for block-only types
    (``root_volume_type = "l_ssd"`` is refused on them). ``file_storage`` tells
    whether the API reports File Storage capability (``max_file_systems > 0``).
    """

    name: str
    family: str
    vcpus: int
    ram_gib: float
    arch: str
    shared: bool | None
    end_of_life: bool
    kapsule_eligible: bool | None
    gpu: str | None = None
    local_volume_max_gb: int = 0
    file_storage: bool = False


# vCPU kind per family.
# Source: DOCS pages/instances/reference-content/instances-datasheet.mdx
# (6f704e55), general-purpose.mdx (393dafd6), specialized.mdx (47dc5b17),
# historical-offers.mdx and PR scaleway/docs-content#6631 (START1/VC1/X64 were
# shared), the 2026 datasheet (STANDARD3 dedicated). KAP301 judges by
# this shared list.
SHARED_VCPU_FAMILIES: frozenset[str] = frozenset(
    {"DEV1", "GP1", "PLAY2", "PRO2", "COPARM1", "BASIC2", "STARDUST1", "START1", "VC1", "X64"}
)
DEDICATED_VCPU_FAMILIES: frozenset[str] = frozenset(
    {"POP2", "POP2-HC", "POP2-HM", "POP2-HN", "STANDARD3", "ENT1"}
)
# UNVERIFIED: no primary source states the vCPU kind of these families.
# BASIC3 is probably shared (like BASIC2), STANDARD2/COMPUTE3/MEMORY3 probably
# dedicated; the GPU families have no statement at all. Lookups return None.
UNVERIFIED_VCPU_FAMILIES: frozenset[str] = frozenset(
    {"BASIC3", "STANDARD2", "COMPUTE3", "MEMORY3", "RENDER", "L4", "L40S", "H100", "H100-SXM", "B300-SXM"}
)

# End-of-life families. Source: DOCS historical-offers.mdx (6cbcb8bf) for ENT1;
# PR scaleway/docs-content#6631 and CASSETTES (``end_of_service: true``) for
# START1, VC1, X64. ENT1 appears in no 2026 server-type listing, so no sizes of
# it are recorded below (family-level facts only).
END_OF_LIFE_FAMILIES: frozenset[str] = frozenset({"START1", "VC1", "X64", "ENT1"})

# Types Kapsule refuses for lack of memory. Source: SDK
# ``CreatePoolRequest.NodeType`` doc and TF docs/resources/k8s_pool.md ("DEV1-S,
# PLAY2-PICO, STARDUST"); the notes infer a threshold of <= 2 GiB RAM.
INELIGIBLE_NODE_TYPES: frozenset[str] = frozenset({"DEV1-S", "PLAY2-PICO", "STARDUST1-S"})

# Special node type for Kosmos pools of machines from other clouds (SDK doc).
EXTERNAL_NODE_TYPE = "external"

# Windows images of POP2 types. Not usable as Kapsule nodes (the node OS is
# Linux) - UNVERIFIED, so their eligibility is None.
WINDOWS_NODE_TYPE_SUFFIX = "-WIN"

# Families whose sizes follow the family name without a hyphen (VC1S, VC1M...).
_UNHYPHENATED_FAMILIES = frozenset({"VC1"})


def _make_types() -> dict[str, InstanceType]:
    """Build the catalogue of commercial types.

    Source: union of ``GET /instance/v1/zones/{zone}/products/servers``
    responses in CASSETTES (k8s ``pool-validate-root-volume`` fr-par-1
    2026-04-14; instance ``server-*`` recordings 2026-07-30), as tabled in
    https://www.scaleway.com/en/docs/instances/reference-content/instances-datasheet/. Recordings cover some zones only: this is not an
    availability map.
    """
    out: dict[str, InstanceType] = {}

    def add(
        name: str,
        family: str,
        vcpus: int,
        ram: float,
        arch: str = "x86_64",
        *,
        gpu: str | None = None,
        local: int = 0,
        fs: bool = False,
        eol: bool = False,
    ) -> None:
        if family in SHARED_VCPU_FAMILIES:
            shared: bool | None = True
        elif family in DEDICATED_VCPU_FAMILIES:
            shared = False
        else:
            shared = None
        if eol or name in INELIGIBLE_NODE_TYPES:
            eligible: bool | None = False
        elif name.endswith(WINDOWS_NODE_TYPE_SUFFIX):
            eligible = None
        else:
            eligible = True
        out[name] = InstanceType(
            name=name,
            family=family,
            vcpus=vcpus,
            ram_gib=float(ram),
            arch=arch,
            shared=shared,
            end_of_life=eol,
            kapsule_eligible=eligible,
            gpu=gpu,
            local_volume_max_gb=local,
            file_storage=fs,
        )

    # Cost-optimized / learning, shared vCPUs, local volumes allowed.
    for name, c, r, local in (
        ("DEV1-S", 2, 2, 20),
        ("DEV1-M", 3, 4, 40),
        ("DEV1-L", 4, 8, 80),
        ("DEV1-XL", 4, 12, 120),
    ):
        add(name, "DEV1", c, r, local=local)
    for name, c, r, local in (
        ("GP1-XS", 4, 16, 150),
        ("GP1-S", 8, 32, 300),
        ("GP1-M", 16, 64, 600),
        ("GP1-L", 32, 128, 600),
        ("GP1-XL", 48, 256, 600),
    ):
        add(name, "GP1", c, r, local=local)
    add("STARDUST1-S", "STARDUST1", 1, 1, local=10)
    for name, c, r in (("PLAY2-PICO", 1, 2), ("PLAY2-NANO", 2, 4), ("PLAY2-MICRO", 4, 8)):
        add(name, "PLAY2", c, r)
    for name, c, r in (
        ("PRO2-XXS", 2, 8),
        ("PRO2-XS", 4, 16),
        ("PRO2-S", 8, 32),
        ("PRO2-M", 16, 64),
        ("PRO2-L", 32, 128),
    ):
        add(name, "PRO2", c, r)
    for c, r in ((2, 8), (4, 16), (8, 32), (16, 64), (32, 128)):
        add(f"COPARM1-{c}C-{r}G", "COPARM1", c, r, "arm64")

    basic_sizes = (
        (2, 4), (2, 8), (4, 8), (4, 16), (6, 12), (6, 24),
        (8, 16), (8, 32), (12, 24), (12, 48), (16, 32), (16, 64),
    )
    for c, r in basic_sizes:
        add(f"BASIC2-A{c}C-{r}G", "BASIC2", c, r, "arm64")
    for c, r in basic_sizes:
        add(f"BASIC3-X{c}C-{r}G", "BASIC3", c, r, fs=True)

    compute_sizes = (
        (2, 4), (4, 8), (6, 12), (8, 16), (12, 24), (16, 32), (24, 48), (32, 64), (48, 96), (64, 128), (96, 192),
    )
    for c, r in compute_sizes:
        add(f"COMPUTE3-X{c}C-{r}G", "COMPUTE3", c, r, fs=True)
    for c, r in ((2, 16), (4, 32), (6, 48), (8, 64), (12, 96), (16, 128), (32, 256), (48, 384)):
        add(f"MEMORY3-X{c}C-{r}G", "MEMORY3", c, r, fs=True)
    standard_sizes = ((2, 8), (4, 16), (6, 24), (8, 32), (12, 48), (16, 64), (24, 96), (32, 128), (48, 192), (64, 256))
    for c, r in standard_sizes:
        add(f"STANDARD2-A{c}C-{r}G", "STANDARD2", c, r, "arm64", fs=True)
    for c, r in standard_sizes:
        add(f"STANDARD3-X{c}C-{r}G", "STANDARD3", c, r, fs=True)

    # Production / workload optimized, dedicated vCPUs, block storage only.
    for c, r in standard_sizes:
        add(f"POP2-{c}C-{r}G", "POP2", c, r, fs=True)
    for c, r in ((2, 4), (4, 8), (6, 12), (8, 16), (12, 24), (16, 32), (24, 48), (32, 64), (48, 96), (64, 128)):
        add(f"POP2-HC-{c}C-{r}G", "POP2-HC", c, r, fs=True)
    for c, r in ((2, 16), (4, 32), (6, 48), (8, 64), (12, 96), (16, 128), (24, 192), (32, 256), (48, 384), (64, 512)):
        add(f"POP2-HM-{c}C-{r}G", "POP2-HM", c, r, fs=True)
    for name, c, r in (("POP2-HN-3", 2, 4), ("POP2-HN-5", 4, 8), ("POP2-HN-10", 4, 8)):
        add(name, "POP2-HN", c, r, fs=True)
    # Windows variants: POP2 hardware (dedicated; unverified for -WIN).
    for c, r in ((2, 8), (4, 16), (8, 32), (16, 64), (32, 128)):
        add(f"POP2-{c}C-{r}G-WIN", "POP2", c, r)

    # GPU types: vCPU kind UNVERIFIED.
    add("RENDER-S", "RENDER", 10, 42, gpu="1x P100", local=400)
    for n, c, r in ((1, 8, 48), (2, 16, 96), (4, 32, 192), (8, 64, 384)):
        add(f"L4-{n}-24G", "L4", c, r, gpu=f"{n}x L4", fs=True)
    for n, c, r in ((1, 8, 96), (2, 16, 192), (4, 32, 384), (8, 64, 768)):
        add(f"L40S-{n}-48G", "L40S", c, r, gpu=f"{n}x L40S", fs=True)
    for n, c, r in ((1, 24, 240), (2, 48, 480)):
        add(f"H100-{n}-80G", "H100", c, r, gpu=f"{n}x H100-PCIe", fs=True)
    for n, c, r in ((2, 32, 240), (4, 64, 480), (8, 128, 960)):
        add(f"H100-SXM-{n}-80G", "H100-SXM", c, r, gpu=f"{n}x H100-SXM", fs=True)
    for n, c, r in ((2, 56, 960), (4, 112, 1920), (8, 224, 3840)):
        add(f"B300-SXM-{n}-288G", "B300-SXM", c, r, gpu=f"{n}x B300-SXM", fs=True)

    # End of life (API ``end_of_service: true``), shared vCPUs.
    for name, c, r, local in (
        ("START1-XS", 1, 1, 25),
        ("START1-S", 2, 2, 50),
        ("START1-M", 4, 4, 100),
        ("START1-L", 8, 8, 200),
    ):
        add(name, "START1", c, r, local=local, eol=True)
    for name, c, r, local in (("VC1S", 2, 2, 50), ("VC1M", 4, 4, 100), ("VC1L", 6, 8, 200)):
        add(name, "VC1", c, r, local=local, eol=True)
    for name, c, r, local in (
        ("X64-15GB", 6, 15, 200),
        ("X64-30GB", 8, 30, 400),
        ("X64-60GB", 10, 60, 700),
        ("X64-120GB", 12, 120, 800),
    ):
        add(name, "X64", c, r, local=local, eol=True)
    return out


INSTANCE_TYPES: dict[str, InstanceType] = _make_types()

# Every family name the facts know, with or without recorded sizes.
KNOWN_FAMILIES: frozenset[str] = frozenset(
    {t.family for t in INSTANCE_TYPES.values()}
    | SHARED_VCPU_FAMILIES
    | DEDICATED_VCPU_FAMILIES
    | UNVERIFIED_VCPU_FAMILIES
    | END_OF_LIFE_FAMILIES
)
# Longest first, so "POP2-HC-4C-8G" resolves to POP2-HC before POP2.
_FAMILIES_LONGEST_FIRST: tuple[str, ...] = tuple(sorted(KNOWN_FAMILIES, key=lambda f: (-len(f), f)))


def node_type_family(node_type: str) -> str | None:
    """Return the family of a node type (longest known family prefix), or None.

    ``"POP2-HC-4C-8G"`` -> ``"POP2-HC"``, ``"pro2_xxs"`` -> ``"PRO2"``,
    ``"VC1S"`` -> ``"VC1"``. An unknown size of a known family still answers
    the family (``"PRO2-XXL"`` -> ``"PRO2"``).
    """
    n = normalize_node_type(node_type)
    if not n:
        return None
    known = INSTANCE_TYPES.get(n)
    if known is not None:
        return known.family
    for fam in _FAMILIES_LONGEST_FIRST:
        if n == fam or n.startswith(fam + "-"):
            return fam
        if fam in _UNHYPHENATED_FAMILIES and n.startswith(fam) and n[len(fam):].isalpha():
            return fam
    return None


def instance_type(node_type: str) -> InstanceType | None:
    """Return the recorded facts for a node type (any spelling), or None."""
    return INSTANCE_TYPES.get(normalize_node_type(node_type))


def is_shared_vcpu(node_type: str) -> bool | None:
    """True for a shared-vCPU family, False for a documented dedicated one.

    None when the family is unknown or its vCPU kind is unverified (BASIC3,
    STANDARD2, COMPUTE3, MEMORY3, GPU types, an unknown string). The shared
    list is the one KAP301 documents.
    """
    fam = node_type_family(node_type)
    if fam in SHARED_VCPU_FAMILIES:
        return True
    if fam in DEDICATED_VCPU_FAMILIES:
        return False
    return None


def is_external_node_type(node_type: str) -> bool:
    """True for the Kosmos ``external`` node type (any case)."""
    return node_type.strip().lower() == EXTERNAL_NODE_TYPE


def is_windows_node_type(node_type: str) -> bool:
    """True for a Windows image type such as ``POP2-2C-8G-WIN``."""
    return normalize_node_type(node_type).endswith(WINDOWS_NODE_TYPE_SUFFIX)


def ineligibility_reason(node_type: str) -> str | None:
    """Why Kapsule refuses a node type, or None when nothing known forbids it.

    Covers the documented cases only: too little memory (DEV1-S, PLAY2-PICO,
    STARDUST1-S) and end-of-life families (START1, VC1, X64, ENT1).
    """
    n = normalize_node_type(node_type)
    if n in INELIGIBLE_NODE_TYPES:
        ram = INSTANCE_TYPES[n].ram_gib
        return f"{n} has too little memory ({ram:g} GiB) for a Kapsule node"
    fam = node_type_family(n)
    if fam in END_OF_LIFE_FAMILIES:
        return f"the {fam} range has reached its end of life and cannot be ordered"
    return None


def is_known_node_type(node_type: str) -> bool:
    """True when the facts record this exact commercial type (any spelling)."""
    return normalize_node_type(node_type) in INSTANCE_TYPES


def suggest_node_type(node_type: str) -> str | None:
    """Did-you-mean for an unknown size of a known family, else None.

    Candidates are the recorded types of the same family; usable ones
    (eligible, not end of life, not Windows) are preferred when there are any.
    """
    n = normalize_node_type(node_type)
    if not n or n in INSTANCE_TYPES:
        return None
    fam = node_type_family(n)
    if fam is None:
        return None
    members = [t for t in INSTANCE_TYPES.values() if t.family == fam]
    usable = [t.name for t in members if t.kapsule_eligible]
    candidates = usable or [t.name for t in members]
    if not candidates:
        return None
    import difflib  # only for an unknown name

    close = difflib.get_close_matches(n, candidates, n=1, cutoff=0.5)
    if close:
        return close[0]
    return None


# ---------------------------------------------------------------------------
# Cluster types (control-plane offers)
# ---------------------------------------------------------------------------


class ClusterType(NamedTuple):
    """A control-plane offer. ``max_nodes`` None means the limit is unverified."""

    name: str
    max_nodes: int | None
    dedicated: bool
    kosmos: bool
    sla: bool
    verified: bool = True
    commitment_days: int = 0


# Source: ``available-types`` response in CASSETTES
# (k8s/testdata/cluster-type-change.cassette.yaml, 2026-07-03) and DOCS
# kubernetes-control-plane-offers.mdx (c04a3a90): 150 / 250 / 500 / 500 nodes,
# SLA 99.5 % and a 30-day commitment on dedicated offers.
# UNVERIFIED: the limits of "multicloud" and "multicloud-dedicated-4" were not
# in the recordings (the notes guess kapsule / kapsule-dedicated-4 values);
# they are left as None so no limit rule fires on them.
CLUSTER_TYPES: dict[str, ClusterType] = {
    t.name: t
    for t in (
        ClusterType("kapsule", 150, dedicated=False, kosmos=False, sla=False),
        ClusterType("kapsule-dedicated-4", 250, dedicated=True, kosmos=False, sla=True, commitment_days=30),
        ClusterType("kapsule-dedicated-8", 500, dedicated=True, kosmos=False, sla=True, commitment_days=30),
        ClusterType("kapsule-dedicated-16", 500, dedicated=True, kosmos=False, sla=True, commitment_days=30),
        ClusterType("multicloud", None, dedicated=False, kosmos=True, sla=False, verified=False),
        ClusterType(
            "multicloud-dedicated-4", None, dedicated=True, kosmos=True, sla=True, verified=False, commitment_days=30
        ),
        ClusterType("multicloud-dedicated-8", 500, dedicated=True, kosmos=True, sla=True, commitment_days=30),
        ClusterType("multicloud-dedicated-16", 500, dedicated=True, kosmos=True, sla=True, commitment_days=30),
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


# ---------------------------------------------------------------------------
# Node labels, tags and taints
# ---------------------------------------------------------------------------

# Pool name label: de-facto (CCM scaleway/loadbalancers_test.go TestFilterNodes,
# widespread use); no official prose doc found (UNVERIFIED in docs).
POOL_NAME_LABEL = "k8s.scaleway.com/pool-name"
# Prefix of labels and taints made from pool tags (CCM scaleway/sync.go
# ``labelsPrefix``/``taintsPrefix``; DOCS kubernetes/api-cli/managing-tags.mdx).
TAG_LABEL_PREFIX = "k8s.scaleway.com/"
TAINT_TAG_PREFIX = "taint="
NOPREFIX_TAG_PREFIX = "noprefix="
# Labels set by the CCM from instance metadata (CCM instances.go
# InstanceMetadata) and the block CSI driver (CSI ZoneTopologyKey).
INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type"
ZONE_LABEL = "topology.kubernetes.io/zone"
REGION_LABEL = "topology.kubernetes.io/region"
CSI_ZONE_LABEL = "topology.csi.scaleway.com/zone"
# Labels the kubelet sets on every node.
# Source: https://kubernetes.io/docs/reference/node/node-labels
OS_LABEL = "kubernetes.io/os"
ARCH_LABEL = "kubernetes.io/arch"
HOSTNAME_LABEL = "kubernetes.io/hostname"
# Special tag turned into a label by the CCM (CCM docs/tags.md).
EXCLUDE_FROM_LB_LABEL = "node.kubernetes.io/exclude-from-external-load-balancers"
EXCLUDE_FROM_LB_LABEL_VALUE = "managed-by-scaleway-ccm"

# Labels every Kapsule node carries without being asked (https://www.scaleway.com/en/docs/kubernetes/api-cli/managing-tags/,
# plus the kubelet's preset labels).
WELL_KNOWN_NODE_LABELS: frozenset[str] = frozenset(
    {
        POOL_NAME_LABEL,
        INSTANCE_TYPE_LABEL,
        ZONE_LABEL,
        REGION_LABEL,
        CSI_ZONE_LABEL,
        OS_LABEL,
        ARCH_LABEL,
        HOSTNAME_LABEL,
    }
)
# UNVERIFIED automatic labels: seen in third-party or historical code only
# (``k8s.scaleway.com/managed`` in scaleway-csi pkg/migration, value unknown).
# Values are unknown, so a selector on them should evaluate to Unknown.
UNVERIFIED_AUTOMATIC_LABELS: frozenset[str] = frozenset(
    {
        "k8s.scaleway.com/managed",
        "k8s.scaleway.com/kapsule",
        "k8s.scaleway.com/pool",
        "k8s.scaleway.com/node",
        "k8s.scaleway.com/runtime",
    }
)

# Taint effects accepted in ``taint=`` tags (CCM sync.go tagTaintParser) and in
# pool ``taints`` (SDK enum).
TAINT_EFFECTS: tuple[str, ...] = ("NoSchedule", "PreferNoSchedule", "NoExecute")

# Tag parsing rules, from CCM scaleway/sync.go tagLabelParser: the tag is split
# on runs of ':', '=' or ' '; the key must be a qualified name (<= 63 chars),
# the value a valid label value; ``noprefix=`` keeps the key unprefixed and may
# carry one DNS-subdomain prefix (``noprefix=node.kubernetes.io/role=x``).
_TAG_SPLIT = re.compile(r"[:= ]+")
_NAME_RE = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")
_DNS_SUBDOMAIN_RE = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")


def _parse_label_tag(tag: str, *, require_equals: bool) -> tuple[str, str] | None:
    """Parse ``k=v`` or ``noprefix=[p/]k=v`` into (key, value), or None."""
    prefix = TAG_LABEL_PREFIX
    body = tag
    if body.startswith(NOPREFIX_TAG_PREFIX):
        prefix = ""
        body = body[len(NOPREFIX_TAG_PREFIX):]
        parts = body.split("/")
        if len(parts) > 2:
            return None
        if len(parts) == 2:
            dns_prefix, body = parts
            if not dns_prefix or len(dns_prefix) > 253 or not _DNS_SUBDOMAIN_RE.match(dns_prefix):
                return None
            prefix = dns_prefix + "/"
    # Kapsule documents only the ``foo=bar`` form as producing a label
    # (DOCS managing-tags.mdx); a plain tag such as "terraform" gives none.
    if require_equals and "=" not in body:
        return None
    pieces = _TAG_SPLIT.split(body)
    key = pieces[0]
    if not key or len(key) > 63 or not _NAME_RE.match(key):
        return None
    value = pieces[1] if len(pieces) > 1 else ""
    if value and (len(value) > 63 or not _NAME_RE.match(value)):
        return None
    return prefix + key, value


def labels_from_tags(tags: Iterable[str]) -> dict[str, str]:
    """Node labels Kapsule derives from a pool's ``tags``.

    ``k=v`` -> ``k8s.scaleway.com/k=v``; ``noprefix=k=v`` -> ``k=v``;
    the ``node.kubernetes.io/exclude-from-external-load-balancers`` tag -> that
    label with value ``managed-by-scaleway-ccm``. Plain tags, ``taint=`` tags
    and malformed keys or values give no label. Later tags win on a repeated
    key. Sources: DOCS managing-tags.mdx (ec032f8f), CCM docs/tags.md and
    scaleway/sync.go.
    """
    out: dict[str, str] = {}
    for tag in tags:
        if not isinstance(tag, str):
            continue
        tag = tag.strip()
        if not tag or tag.startswith(TAINT_TAG_PREFIX):
            continue
        if tag == EXCLUDE_FROM_LB_LABEL:
            out[EXCLUDE_FROM_LB_LABEL] = EXCLUDE_FROM_LB_LABEL_VALUE
            continue
        parsed = _parse_label_tag(tag, require_equals=True)
        if parsed is not None:
            out[parsed[0]] = parsed[1]
    return out


def taints_from_tags(tags: Iterable[str]) -> list[tuple[str, str, str]]:
    """Node taints Kapsule derives from a pool's ``tags``, as (key, value, effect).

    ``taint=k=v:Effect`` -> ``k8s.scaleway.com/k=v:Effect``;
    ``taint=noprefix=k=v:Effect`` -> ``k=v:Effect``. The effect is the text
    after the last ``:`` and must be one of NoSchedule, PreferNoSchedule or
    NoExecute, otherwise the tag is ignored (CCM sync.go tagTaintParser).
    """
    out: list[tuple[str, str, str]] = []
    for tag in tags:
        if not isinstance(tag, str):
            continue
        tag = tag.strip()
        if not tag.startswith(TAINT_TAG_PREFIX):
            continue
        body = tag[len(TAINT_TAG_PREFIX):]
        head, sep, effect = body.rpartition(":")
        if not sep or effect not in TAINT_EFFECTS:
            continue
        parsed = _parse_label_tag(head.replace(":", ""), require_equals=False)
        if parsed is None:
            continue
        item = (parsed[0], parsed[1], effect)
        if item not in out:
            out.append(item)
    return out


def region_of_zone(zone: str) -> str | None:
    """``fr-par-1`` -> ``fr-par``; None when the text is not zone-shaped."""
    z = zone.strip().lower()
    m = re.fullmatch(r"([a-z]{2}-[a-z]{3})-(\d+)", z)
    return m.group(1) if m else None


def first_zone_of_region(region: str) -> str:
    """The first zone of a region (``fr-par`` -> ``fr-par-1``).

    The CCM creates a Service's load balancer there unless the
    ``scw-loadbalancer-zone`` annotation says otherwise (CCM
    docs/loadbalancer-annotations.md: "the first zone of the cluster's
    region"). Zone names follow ``<region>-<n>`` from 1.
    """
    return f"{region.strip().lower()}-1"


_ARCH_LABEL_VALUES = {"x86_64": "amd64", "arm64": "arm64"}


def automatic_node_labels(
    *,
    pool_name: str | None = None,
    node_type: str | None = None,
    zone: str | None = None,
) -> dict[str, str]:
    """The automatic labels (with values) known for the nodes of one pool.

    Only what the inputs determine is returned: the pool name label, the
    instance type (canonical spelling), zone, region and CSI zone, ``linux``
    for the OS and the architecture of a recorded node type. The hostname
    differs per node and is never included.
    """
    labels: dict[str, str] = {OS_LABEL: "linux"}
    if pool_name:
        labels[POOL_NAME_LABEL] = pool_name
    if node_type and not is_external_node_type(node_type):
        n = normalize_node_type(node_type)
        labels[INSTANCE_TYPE_LABEL] = n
        t = INSTANCE_TYPES.get(n)
        if t is not None:
            labels[ARCH_LABEL] = _ARCH_LABEL_VALUES[t.arch]
    if zone:
        z = zone.strip().lower()
        labels[ZONE_LABEL] = z
        labels[CSI_ZONE_LABEL] = z
        region = region_of_zone(z)
        if region:
            labels[REGION_LABEL] = region
    return labels


# ---------------------------------------------------------------------------
# Load balancer Service annotations
# ---------------------------------------------------------------------------

# Source: CCM docs/loadbalancer-annotations.md and
# scaleway/loadbalancers_annotations.go @ bddc17f (v0.36.2).
SCW_LB_ANNOTATION_PREFIX = "service.beta.kubernetes.io/scw-loadbalancer-"
LB_PROXY_PROTOCOL_V1 = SCW_LB_ANNOTATION_PREFIX + "proxy-protocol-v1"
LB_PROXY_PROTOCOL_V2 = SCW_LB_ANNOTATION_PREFIX + "proxy-protocol-v2"
LB_SEND_PROXY_V2 = SCW_LB_ANNOTATION_PREFIX + "send-proxy-v2"  # deprecated
LB_IP_IDS = SCW_LB_ANNOTATION_PREFIX + "ip-ids"
LB_ZONE = SCW_LB_ANNOTATION_PREFIX + "zone"
LB_EXTERNALLY_MANAGED = SCW_LB_ANNOTATION_PREFIX + "externally-managed"
LB_PRIVATE = SCW_LB_ANNOTATION_PREFIX + "private"
LB_USE_HOSTNAME = SCW_LB_ANNOTATION_PREFIX + "use-hostname"
LB_ID = SCW_LB_ANNOTATION_PREFIX + "id"
LB_TYPE = SCW_LB_ANNOTATION_PREFIX + "type"
LB_HEALTH_CHECK_FROM_SERVICE = SCW_LB_ANNOTATION_PREFIX + "health-check-from-service"
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


# ---------------------------------------------------------------------------
# Terraform provider features by version
# ---------------------------------------------------------------------------

# First scaleway provider release with each feature. Sources: TF git history
# as cited in https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_cluster.md, https://github.com/scaleway/terraform-provider-scaleway/issues/4171.
PROVIDER_FEATURES: dict[str, tuple[int, int, int]] = {
    # delete_additional_resources became Required (commit b48ff1ac, #1675).
    "delete_additional_resources_required": (2, 10, 0),
    # cluster kubeconfig marked Sensitive (PR #1800, issue #1790).
    "sensitive_kubeconfig": (2, 12, 0),
    # scaleway_k8s_acl resource: "feat(k8s): add cluster ACLs"
    # (https://github.com/scaleway/terraform-provider-scaleway/pull/3033, merged 2025-04-18),
    # first released in v2.54.0 (the oldest tag holding the commit).
    "k8s_acl": (2, 54, 0),
    # pool security_group_id.
    "pool_security_group": (2, 57, 0),
    # pool labels / taints / startup_taints (PR #4031).
    "pool_labels_taints": (2, 76, 0),
    # separate pool version upgrades.
    "pool_version_upgrade": (2, 77, 0),
    # pool name optional and generated (PR #4164); before, it was Required.
    "optional_pool_name": (2, 78, 0),
}


def _as_version(version: Iterable[int]) -> tuple[int, int, int]:
    parts = [int(p) for p in version][:3]
    while len(parts) < 3:
        parts.append(0)
    return parts[0], parts[1], parts[2]


def supports(feature: str, version: tuple[int, ...] | None) -> bool | None:
    """Whether provider ``version`` has ``feature``; None when the version is unknown.

    ``version`` may have one to three components (missing ones count as 0).
    An unknown feature name raises KeyError: it is a programming error.
    """
    minimum = PROVIDER_FEATURES[feature]
    if version is None:
        return None
    return _as_version(version) >= minimum


# ---------------------------------------------------------------------------
# CNIs
# ---------------------------------------------------------------------------

# Source: DOCS version-support-policy ("Kapsule only supports cilium and
# calico ... Kosmos only supports kilo"); API ``available_cnis`` in CASSETTES
# (cilium_native offered from 1.34); SDK CNI enum.
KAPSULE_CNIS: frozenset[str] = frozenset({"cilium", "calico", "cilium_native"})
KOSMOS_CNIS: frozenset[str] = frozenset({"kilo"})
SDK_CNIS: frozenset[str] = frozenset({"cilium", "calico", "weave", "flannel", "kilo", "none", "cilium_native"})
CNI_NONE = "none"  # only through a support ticket, not covered by support (SDK)
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


# ---------------------------------------------------------------------------
# Cluster and pool defaults
# ---------------------------------------------------------------------------

# Source: TF cluster.go / docs k8s_cluster.md and CASSETTES (API defaults).
DEFAULT_POD_CIDR = "100.64.0.0/15"
DEFAULT_SERVICE_CIDR = "10.32.0.0/20"
DEFAULT_SERVICE_DNS_IP = "10.32.0.10"  # service CIDR network + 10

# auto_upgrade block (TF cluster.go schema validators).
AUTO_UPGRADE_DAYS: frozenset[str] = frozenset(
    {"any", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
)
MAINTENANCE_HOUR_RANGE: tuple[int, int] = (0, 23)  # inclusive, UTC

# Pool defaults and limits (TF pool.go, SDK).
POOL_AUTOHEALING_DEFAULT = False
PLACEMENT_GROUP_MAX_INSTANCES = 20
ROOT_VOLUME_MIN_GB = 20


# ---------------------------------------------------------------------------
# Pool replacement
# ---------------------------------------------------------------------------

# Pool arguments marked ForceNew: changing one makes Terraform destroy the pool
# and create a new one. Source: TF internal/services/k8s/pool.go schema and
# docs/resources/k8s_pool.md ("Updates to this field will recreate a new
# resource"), as tabled in https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_pool.md. ``name`` is ForceNew as well; the
# questions about a name (KAP202) leave it out of the inputs they follow.
POOL_REPLACING_ARGUMENTS: frozenset[str] = frozenset(
    {
        "cluster_id",
        "name",
        "node_type",
        "zone",
        "region",
        "container_runtime",
        "placement_group_id",
        "root_volume_type",
        "root_volume_size_in_gb",
        "public_ip_disabled",
    }
)


__all__ += ["POOL_REPLACING_ARGUMENTS"]
