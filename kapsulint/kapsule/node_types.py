"""Node types: the Instance commercial types Kapsule pools run on, their vCPU kind, memory,
architecture, local volume and eligibility, and the questions rules ask about a pool's
``node_type`` (its family, whether Kapsule refuses it, a did-you-mean, the configured extra types).

Every node-type fact of kapsulint lives here. The configuration may add types kapsulint does not
know yet (``extra-node-types`` in ``.kapsulint.toml``, README "Configuration").
"""

from __future__ import annotations

from typing import NamedTuple

from kapsulint.api import Project


def normalize_node_type(s: str) -> str:
    """Return the canonical spelling of a node type: upper case, ``_`` -> ``-``.

    The provider compares ``node_type`` ignoring case and treating ``_`` and
    ``-`` alike (``IgnoreCaseAndHyphen``, https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/dsf/strings.go;
    its root-volume validator upper-cases and swaps ``_`` for ``-``), so ``pro2_xxs``
    and ``PRO2-XXS`` are one type. Surrounding whitespace is dropped.
    """
    return s.strip().upper().replace("_", "-")


class InstanceType(NamedTuple):
    """One Instance commercial type as Kapsule sees it.

    ``shared`` is True for shared vCPUs, False for dedicated ones and None when
    no public source says. ``kapsule_eligible`` is False when the Kapsule API
    refuses the type, None when no source says, True when nothing
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


# vCPU kind per family. Sources: the Instances datasheet
# (https://github.com/scaleway/docs-content/blob/6f704e55/pages/instances/reference-content/instances-datasheet.mdx,
# https://www.scaleway.com/en/docs/instances/reference-content/instances-datasheet/: STANDARD3
# dedicated), the general-purpose and specialized pages
# (https://github.com/scaleway/docs-content/blob/393dafd6/pages/instances/reference-content/general-purpose.mdx,
# https://github.com/scaleway/docs-content/blob/47dc5b17/pages/instances/reference-content/specialized.mdx) and the historical
# offers (https://github.com/scaleway/docs-content/pull/6631: START1, VC1 and X64 were shared).
# KAP301 judges by this shared list.
SHARED_VCPU_FAMILIES: frozenset[str] = frozenset(
    {"DEV1", "GP1", "PLAY2", "PRO2", "COPARM1", "BASIC2", "STARDUST1", "START1", "VC1", "X64"}
)
DEDICATED_VCPU_FAMILIES: frozenset[str] = frozenset(
    {"POP2", "POP2-HC", "POP2-HM", "POP2-HN", "STANDARD3", "ENT1"}
)
# No public source states the vCPU kind of these families (BASIC3 is probably shared like
# BASIC2, STANDARD2/COMPUTE3/MEMORY3 probably dedicated; nothing is said of the GPU families):
# lookups answer None.
VCPU_KIND_UNSTATED_FAMILIES: frozenset[str] = frozenset(
    {"BASIC3", "STANDARD2", "COMPUTE3", "MEMORY3", "RENDER", "L4", "L40S", "H100", "H100-SXM", "B300-SXM"}
)

# GPU families (the GPU types recorded in ``_make_types``). Kapsule installs NVIDIA's GPU operator,
# whose Node Feature Discovery publishes a NodeFeature object per node, on every GPU pool ("How to
# use the NVIDIA GPU operator on Kapsule and Kosmos with GPU Instances",
# https://www.scaleway.com/en/docs/kubernetes/how-to/use-nvidia-gpu-operator/,
# https://github.com/scaleway/docs-content/blob/02e3c336/pages/kubernetes/how-to/use-nvidia-gpu-operator.mdx).
GPU_FAMILIES: frozenset[str] = frozenset({"RENDER", "L4", "L40S", "H100", "H100-SXM", "B300-SXM"})

# End-of-life families: ENT1 by the historical offers page
# (https://github.com/scaleway/docs-content/blob/6cbcb8bf/pages/instances/reference-content/historical-offers.mdx); START1, VC1 and X64
# by https://github.com/scaleway/docs-content/pull/6631 and the API's ``end_of_service: true``
# (the server types recorded in the provider's tests, see ``_make_types``). ENT1 appears in no
# 2026 server-type listing, so no sizes of it are recorded below (family-level facts only).
END_OF_LIFE_FAMILIES: frozenset[str] = frozenset({"START1", "VC1", "X64", "ENT1"})

# Types Kapsule refuses for lack of memory: "Nodes with insufficient memory are not eligible
# (DEV1-S, PLAY2-PICO, STARDUST)" (``CreatePoolRequest.NodeType``, https://github.com/scaleway/scaleway-sdk-go/blob/v1.0.0-beta.37/api/k8s/v1/k8s_sdk.go;
# https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_pool.md). All three have 2 GiB of RAM or less.
INELIGIBLE_NODE_TYPES: frozenset[str] = frozenset({"DEV1-S", "PLAY2-PICO", "STARDUST1-S"})

# Special node type for Kosmos pools of machines from other clouds ("'external' is a special
# node type used to provision instances from other cloud providers in a Kosmos Cluster", https://github.com/scaleway/scaleway-sdk-go/blob/v1.0.0-beta.37/api/k8s/v1/k8s_sdk.go).
EXTERNAL_NODE_TYPE = "external"

# Windows images of POP2 types. Probably not usable as Kapsule nodes (the node OS is Linux),
# but no source says so: their eligibility is None.
WINDOWS_NODE_TYPE_SUFFIX = "-WIN"

# Families whose sizes follow the family name without a hyphen (VC1S, VC1M...).
_UNHYPHENATED_FAMILIES = frozenset({"VC1"})


def _make_types() -> dict[str, InstanceType]:
    """Build the catalogue of commercial types.

    Source: the union of the ``GET /instance/v1/zones/{zone}/products/servers`` answers
    recorded in the provider's tests at v2.81.0
    (https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/services/k8s/testdata/pool-validate-root-volume.cassette.yaml,
    fr-par-1, 2026-04-14, and the server-type recordings of
    https://github.com/scaleway/terraform-provider-scaleway/tree/v2.81.0/internal/services/instance/testdata,
    2026-07-30), as tabled in
    https://www.scaleway.com/en/docs/instances/reference-content/instances-datasheet/.
    The recordings cover some zones only: this is not an availability map.
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
    # Windows variants: POP2 hardware (dedicated; eligibility unknown for -WIN).
    for c, r in ((2, 8), (4, 16), (8, 32), (16, 64), (32, 128)):
        add(f"POP2-{c}C-{r}G-WIN", "POP2", c, r)

    # GPU types: vCPU kind unstated.
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
    | VCPU_KIND_UNSTATED_FAMILIES
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

    None when the family is unknown or no source states its vCPU kind (BASIC3,
    STANDARD2, COMPUTE3, MEMORY3, GPU types, an unknown string). The shared
    list is the one KAP301 documents.
    """
    fam = node_type_family(node_type)
    if fam in SHARED_VCPU_FAMILIES:
        return True
    if fam in DEDICATED_VCPU_FAMILIES:
        return False
    return None


def is_gpu_node_type(node_type: str) -> bool | None:
    """True for a type of a GPU family (a recorded type, or an unknown size of the family), False
    for a type of another known family, None for a type whose family the facts do not know."""
    family = node_type_family(node_type)
    if family is None:
        return None
    return family in GPU_FAMILIES


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


def is_end_of_life(node_type: str) -> bool:
    """True for a type of an end-of-life family (START1, VC1, X64, ENT1), any spelling."""
    return node_type_family(node_type) in END_OF_LIFE_FAMILIES


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
    import difflib  # only when a suggestion is asked for

    close = difflib.get_close_matches(n, candidates, n=1, cutoff=0.5)
    if close:
        return close[0]
    return None


def extra_node_types(project: Project) -> frozenset[str]:
    """The configured ``extra-node-types``, in canonical spelling (upper case, ``_`` -> ``-``)."""
    names = getattr(project.options, "extra_node_types", None) or ()
    return frozenset(normalize_node_type(name) for name in names if isinstance(name, str))


def known_node_type(project: Project, name: str) -> bool:
    """True when the facts record this commercial type or the configuration declares it.

    The comparison follows the provider: case-insensitive, ``_`` equal to ``-``.
    """
    return is_known_node_type(name) or normalize_node_type(name) in extra_node_types(project)


def eligible_alternative(node_type: str) -> str | None:
    """The smallest Kapsule-eligible type of the same family with more memory, or None.

    For a type refused for lack of memory (``DEV1-S`` -> ``DEV1-M``, ``PLAY2-PICO`` ->
    ``PLAY2-NANO``); None when the family has no eligible member (STARDUST1, end-of-life
    families).
    """
    known = instance_type(node_type)
    family = node_type_family(node_type)
    if family is None:
        return None
    floor = known.ram_gib if known is not None else 0.0
    candidates = [
        t
        for t in INSTANCE_TYPES.values()
        if t.family == family and t.kapsule_eligible and not t.end_of_life and t.ram_gib > floor
    ]
    if not candidates:
        return None
    return min(candidates, key=lambda t: (t.ram_gib, t.vcpus, t.name)).name
