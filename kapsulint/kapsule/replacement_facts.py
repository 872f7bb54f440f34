"""Which arguments force a replacement, in which provider versions, and the provider regressions
that make a change replace (or break) what it should not.

Read from the providers' schemas at every release tag the facts cover (scaleway/scaleway v2.40.0
to v2.81.0, hashicorp/helm v2.0.0 to v3.1.2): an argument with ``ForceNew: true`` (SDKv2), or the
``RequiresReplace`` plan modifier (plugin framework), makes Terraform destroy and create the
resource when its value changes; a ``CustomizeDiff`` that calls ``diff.ForceNew`` does so under a
condition, said here in words. Sources, at the tags:

- scaleway_k8s_cluster: https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/services/k8s/cluster.go
  (and https://github.com/scaleway/terraform-provider-scaleway/blob/v2.40.0/internal/services/k8s/cluster.go):
  ``cni`` ForceNew; ``pod_cidr``, ``service_cidr``, ``service_dns_ip`` ForceNew since they exist
  (v2.61.0, https://github.com/scaleway/terraform-provider-scaleway/pull/3366);
  ``autoscaler_config.skip_nodes_with_local_storage`` and ``log_level`` ForceNew from v2.76.0
  (https://github.com/scaleway/terraform-provider-scaleway/pull/4022) until v2.81.0
  (https://github.com/scaleway/terraform-provider-scaleway/pull/4251); the CustomizeDiff on ``type``
  (``ListClusterAvailableTypes``) and on ``private_network_id``.
- scaleway_k8s_pool: https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/services/k8s/pool.go:
  ``cluster_id``, ``name``, ``node_type``, ``container_runtime``, ``placement_group_id``,
  ``root_volume_type``, ``root_volume_size_in_gb``, ``public_ip_disabled`` ForceNew;
  ``security_group_id`` ForceNew from v2.57.0 (https://github.com/scaleway/terraform-provider-scaleway/pull/3196)
  to v2.67.0, editable from v2.67.1 (https://github.com/scaleway/terraform-provider-scaleway/pull/3606).
- ``zone``, ``region``, ``project_id``: the shared schemas, ForceNew at every tag
  (https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/locality/zonal/schemas.go,
  https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/locality/regional/schemas.go,
  https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/services/account/schemas.go).
- scaleway_lb_ip: https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/services/lb/ip.go:
  ``zone``, ``project_id``, ``is_ipv6`` ForceNew.
- helm_release: ``name`` and ``namespace``, ForceNew in v2
  (https://github.com/hashicorp/terraform-provider-helm/blob/v2.17.0/helm/resource_release.go) and
  RequiresReplace in v3 (https://github.com/hashicorp/terraform-provider-helm/blob/v3.1.2/helm/resource_helm_release.go).

Between the tags checked nothing else forces a replacement of these resources. A version outside
the checked range is unknown: the lookups answer None for it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

Version = tuple[int, int, int]

SCALEWAY = "scaleway/scaleway"
HELM = "hashicorp/helm"
CLUSTER = "scaleway_k8s_cluster"
POOL = "scaleway_k8s_pool"
LB_IP = "scaleway_lb_ip"
HELM_RELEASE = "helm_release"

# The release tags read, first and last, per provider.
CHECKED: dict[str, tuple[Version, Version]] = {
    SCALEWAY: ((2, 40, 0), (2, 81, 0)),
    HELM: ((2, 0, 0), (3, 1, 2)),
}
PROVIDER_OF: dict[str, str] = {CLUSTER: SCALEWAY, POOL: SCALEWAY, LB_IP: SCALEWAY, HELM_RELEASE: HELM}
_BLOB = "https://github.com/scaleway/terraform-provider-scaleway/blob"


class Replacing(NamedTuple):
    """An argument whose change replaces the resource from ``since`` (the oldest release checked,
    when it always did) until ``fixed_in`` (the first release where it is changed in place again;
    None: still replacing in the newest release checked). ``when`` is the condition of a
    CustomizeDiff, in words; None means any change. A nested argument is a dotted path
    (``autoscaler_config.log_level``)."""

    resource: str
    argument: str
    since: Version
    source: str
    fixed_in: Version | None = None
    when: str | None = None

    def holds(self, version: Version) -> bool:
        return self.since <= version and (self.fixed_in is None or version < self.fixed_in)


_FIRST = CHECKED[SCALEWAY][0]
_CLUSTER_GO = f"{_BLOB}/v2.81.0/internal/services/k8s/cluster.go"
_POOL_GO = f"{_BLOB}/v2.81.0/internal/services/k8s/pool.go"
_LB_IP_GO = f"{_BLOB}/v2.81.0/internal/services/lb/ip.go"
_ZONAL = f"{_BLOB}/v2.81.0/internal/locality/zonal/schemas.go"
_REGIONAL = f"{_BLOB}/v2.81.0/internal/locality/regional/schemas.go"
_ACCOUNT = f"{_BLOB}/v2.81.0/internal/services/account/schemas.go"
_AUTOSCALER_PR = "https://github.com/scaleway/terraform-provider-scaleway/pull/4022"
_HELM_V3 = "https://github.com/hashicorp/terraform-provider-helm/blob/v3.1.2/helm/resource_helm_release.go"

REPLACING: tuple[Replacing, ...] = (
    Replacing(CLUSTER, "cni", _FIRST, _CLUSTER_GO),
    Replacing(CLUSTER, "region", _FIRST, _REGIONAL),
    Replacing(CLUSTER, "project_id", _FIRST, _ACCOUNT),
    Replacing(CLUSTER, "pod_cidr", (2, 61, 0), _CLUSTER_GO),
    Replacing(CLUSTER, "service_cidr", (2, 61, 0), _CLUSTER_GO),
    Replacing(CLUSTER, "service_dns_ip", (2, 61, 0), _CLUSTER_GO),
    Replacing(CLUSTER, "autoscaler_config.skip_nodes_with_local_storage", (2, 76, 0), _AUTOSCALER_PR, (2, 81, 0)),
    Replacing(CLUSTER, "autoscaler_config.log_level", (2, 76, 0), _AUTOSCALER_PR, (2, 81, 0)),
    Replacing(CLUSTER, "type", _FIRST, _CLUSTER_GO, when=(
        "when the API does not offer the new type to this cluster in place: Kapsule to Kosmos or back, or a "
        "lower dedicated offer during its 30-day commitment")),
    Replacing(CLUSTER, "private_network_id", _FIRST, _CLUSTER_GO, when=(
        "when the cluster already has a private network and another one is given; setting one on a cluster "
        "without one migrates it in place")),
    Replacing(POOL, "cluster_id", _FIRST, _POOL_GO),
    Replacing(POOL, "name", _FIRST, _POOL_GO),
    Replacing(POOL, "node_type", _FIRST, _POOL_GO),
    Replacing(POOL, "container_runtime", _FIRST, _POOL_GO),
    Replacing(POOL, "placement_group_id", _FIRST, _POOL_GO),
    Replacing(POOL, "root_volume_type", _FIRST, _POOL_GO),
    Replacing(POOL, "root_volume_size_in_gb", _FIRST, _POOL_GO),
    Replacing(POOL, "public_ip_disabled", _FIRST, _POOL_GO),
    Replacing(POOL, "zone", _FIRST, _ZONAL),
    Replacing(POOL, "region", _FIRST, _REGIONAL),
    Replacing(POOL, "security_group_id", (2, 57, 0), "https://github.com/scaleway/terraform-provider-scaleway/pull/3606",
              (2, 67, 1)),
    Replacing(LB_IP, "zone", _FIRST, _ZONAL),
    Replacing(LB_IP, "project_id", _FIRST, _ACCOUNT),
    Replacing(LB_IP, "is_ipv6", _FIRST, _LB_IP_GO),
    Replacing(HELM_RELEASE, "name", CHECKED[HELM][0], _HELM_V3),
    Replacing(HELM_RELEASE, "namespace", CHECKED[HELM][0], _HELM_V3),
)


def covers(resource: str, version: Version | None) -> bool:
    """Whether the facts know the provider release ``version`` of ``resource``'s provider."""
    provider = PROVIDER_OF.get(resource)
    if provider is None or version is None:
        return False
    first, last = CHECKED[provider]
    return first <= version <= last


@lru_cache(maxsize=256)  # the facts are constants: asked once per pool, answered once per version
def replacing(resource: str, version: Version | None) -> tuple[Replacing, ...] | None:
    """The facts that hold for ``resource`` at ``version``; None when the version is not covered."""
    if not covers(resource, version):
        return None
    assert version is not None
    return tuple(fact for fact in REPLACING if fact.resource == resource and fact.holds(version))


@lru_cache(maxsize=256)
def replacing_arguments(resource: str, version: Version | None, conditional: bool = False) -> frozenset[str] | None:
    """The arguments whose any change replaces ``resource`` at ``version`` (with ``conditional``,
    those that replace under a condition too); None when the version is not covered."""
    facts = replacing(resource, version)
    if facts is None:
        return None
    return frozenset(f.argument for f in facts if conditional or f.when is None)


def ever_replacing(resource: str, conditional: bool = False) -> frozenset[str]:
    """The arguments that replace ``resource`` in some release checked: what may replace it when
    the version is not known."""
    return frozenset(f.argument for f in REPLACING if f.resource == resource and (conditional or f.when is None))


def always_replacing(resource: str) -> frozenset[str]:
    """The arguments whose any change replaces ``resource`` in every release checked."""
    first, _ = CHECKED[PROVIDER_OF[resource]]
    return frozenset(f.argument for f in REPLACING
                     if f.resource == resource and f.when is None and f.since == first and f.fixed_in is None)


def fact_for(resource: str, argument: str, version: Version | None) -> Replacing | None:
    """The fact that makes ``argument`` (a dotted path, list indexes left out) replace ``resource``
    at ``version``; None when none holds or the version is not covered."""
    for fact in replacing(resource, version) or ():
        if fact.argument == argument:
            return fact
    return None


# -- regressions ------------------------------------------------------------------------------------


class Regression(NamedTuple):
    """A provider bug of the releases from ``since`` up to (not including) ``fixed_in``: writing one
    of ``arguments`` (dotted paths) on ``resource`` there has the effect ``what`` says."""

    key: str
    resource: str
    arguments: tuple[str, ...]
    since: Version
    fixed_in: Version
    what: str
    fixed: str  # how the fix reads in a message ("editable in place from 2.81.0")
    upgrade: str  # the releases to upgrade to ("2.81.0 or later")
    sources: tuple[str, ...]

    def holds(self, version: Version | None) -> bool | None:
        """Whether ``version`` has the bug; None when the version is unknown, or is a pre-release of
        the release that brought the bug or its fix (it may hold either)."""
        if version is None:
            return None
        release = tuple(version[:3])
        if getattr(version, "prerelease", "") and release in (self.since, self.fixed_in):
            return None
        return self.since <= version < self.fixed_in


REGRESSIONS: tuple[Regression, ...] = (
    Regression(
        "autoscaler-fields-force-new", CLUSTER,
        ("autoscaler_config.skip_nodes_with_local_storage", "autoscaler_config.log_level"),
        (2, 76, 0), (2, 81, 0),
        "is ForceNew: changing it destroys and recreates the whole cluster",
        "editable in place from 2.81.0", "2.81.0 or later",
        ("https://github.com/scaleway/terraform-provider-scaleway/pull/4022",
         "https://github.com/scaleway/terraform-provider-scaleway/pull/4251",
         "https://github.com/scaleway/terraform-provider-scaleway/issues/4062"),
    ),
    Regression(
        "autoscaler-defaults-force-new", CLUSTER, ("autoscaler_config",),
        (2, 76, 0), (2, 77, 1),
        "gives skip_nodes_with_local_storage and log_level defaults (true, 2) that are ForceNew: an existing "
        "cluster whose autoscaler holds other values is planned for replacement without any edit",
        "no defaults from 2.77.1", "2.77.1 or later",
        ("https://github.com/scaleway/terraform-provider-scaleway/pull/4132",
         f"{_BLOB}/v2.77.0/internal/services/k8s/cluster.go"),
    ),
    Regression(
        "startup-taints-overwrite-taints", POOL, ("startup_taints", "taints"),
        (2, 76, 0), (2, 81, 1),
        "loses its taints when it is created (or replaced) with both taints and startup_taints: the create "
        "request sends the startup taints as the reconciled taints",
        "fixed after 2.81.0", "a release after 2.81.0",
        ("https://github.com/scaleway/terraform-provider-scaleway/issues/4266",
         "https://github.com/scaleway/terraform-provider-scaleway/pull/4267",
         f"{_BLOB}/v2.81.0/internal/services/k8s/pool.go"),
    ),
    Regression(
        "security-group-force-new", POOL, ("security_group_id",),
        (2, 57, 0), (2, 67, 1),
        "is ForceNew: changing it destroys and recreates the pool",
        "editable in place from 2.67.1", "2.67.1 or later",
        ("https://github.com/scaleway/terraform-provider-scaleway/pull/3606",
         f"{_BLOB}/v2.67.0/internal/services/k8s/pool.go"),
    ),
)


def regressions(resource: str, version: Version | None) -> tuple[Regression, ...]:
    """The regressions of ``resource`` that ``version`` has (none when the version is unknown)."""
    return tuple(r for r in REGRESSIONS if r.resource == resource and r.holds(version) is True)


def regression_for(resource: str, argument: str, version: Version | None) -> Regression | None:
    """The regression that makes ``argument`` replace ``resource`` at ``version``, if any."""
    for regression in regressions(resource, version):
        if argument in regression.arguments:
            return regression
    return None


def version_text(version: Version) -> str:
    text = getattr(version, "text", None)
    return text if isinstance(text, str) else ".".join(str(part) for part in version)


__all__ = [
    "CHECKED",
    "REGRESSIONS",
    "REPLACING",
    "Regression",
    "Replacing",
    "always_replacing",
    "covers",
    "ever_replacing",
    "fact_for",
    "regression_for",
    "regressions",
    "replacing",
    "replacing_arguments",
    "version_text",
]
