"""Root volume the node type or the API refuses.

## What it does
Reports a Kapsule node pool whose `root_volume_type` is `l_ssd` on a node type without local
storage or `b_ssd`, or whose `root_volume_size_in_gb` is under 20 GB or above what the volume
type allows.

## Why is this bad
A pool's root volume is fixed at creation and cannot change in place (both arguments replace the
pool), and the API judges it only at apply:
- `l_ssd` is the Instance's local SSD, which only some node types have (DEV1, GP1, RENDER and the
  end-of-life families); block-only types such as PRO2, PLAY2 or POP2 refuse it.
- `b_ssd` is the legacy remote block storage, not available for new pools: use `sbs_5k` or
  `sbs_15k`.
- a root volume is at least 20 GB; on `l_ssd` it is at most the node type's local storage (40 GB
  on DEV1-M), on Block Storage (`sbs_5k`, `sbs_15k`) at most 10 000 GB.

The node type's local storage comes from the Instance types kapsulint knows; an unknown node type,
a volume type left to the API's default and values kapsulint cannot compute are not judged. Pools
of Kosmos clusters and `external` pools are out of scope. Each finding points at the value at
fault: the `root_volume_type` or the `root_volume_size_in_gb`.

Source: Scaleway Go SDK, `api/k8s/v1/k8s_sdk.go` (`PoolVolumeType`,
https://github.com/scaleway/scaleway-sdk-go/blob/v1.0.0-beta.37/api/k8s/v1/k8s_sdk.go), the provider's
`root_volume_type` and `root_volume_size_in_gb`
(https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_pool.md),
and the Instance types' local storage
(https://www.scaleway.com/en/docs/instances/reference-content/instances-datasheet/).

## Example
```hcl
resource "scaleway_k8s_pool" "apps" {
  cluster_id       = scaleway_k8s_cluster.main.id
  node_type        = "PRO2-S"
  size             = 3
  root_volume_type = "l_ssd"
}
```

## Use instead
```hcl
resource "scaleway_k8s_pool" "apps" {
  cluster_id             = scaleway_k8s_cluster.main.id
  node_type              = "PRO2-S"
  size                   = 3
  root_volume_type       = "sbs_5k"
  root_volume_size_in_gb = 50
}
```

## Fix
For a size out of range, writes the nearest size the API accepts (20 GB for a smaller one, the
limit for a larger one) where the size is written, when nothing else reads that value. Unsafe:
both arguments force a new pool, so `terraform plan` shows the pool replaced. No fix for the
volume type: `sbs_5k` or `sbs_15k`, or another node type, is a choice of cost and performance.

## References
- [scaleway_k8s_pool](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_pool)
- [Instances datasheet](https://www.scaleway.com/en/docs/instances/reference-content/instances-datasheet/)
"""

from collections.abc import Iterator
from fractions import Fraction

from kapsulint.api import (
    Finding,
    Fix,
    Loc,
    Project,
    Related,
    Val,
    finding,
    fix,
    literal_edit,
    number,
    shown,
)
from kapsulint.kapsule import clusters, node_types, pool_options

ID = "KAP210"
NAME = "root-volume-invalid"
SEVERITY = "error"
FIX = "unsafe"

_REPLACES = " (changing it replaces the pool)"


def _loc(pool: clusters.Pool, name: str, value: Val) -> Loc | None:
    written = pool.instance.block.attr(name)
    return value.loc or (written.value_loc if written is not None else None)


def _n(value: int | Fraction) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _type_problem(volume: str, node_type: str | None) -> tuple[str, str] | None:
    if volume == pool_options.LEGACY_BLOCK_VOLUME:
        return ("b_ssd is the legacy block storage, not available for new pools",
                'use root_volume_type = "sbs_5k" or "sbs_15k"' + _REPLACES)
    known = node_types.instance_type(node_type) if node_type else None
    if volume == pool_options.LOCAL_VOLUME and known is not None and known.local_volume_max_gb == 0:
        return (f"{known.name} has no local storage, so it cannot boot from l_ssd",
                'use root_volume_type = "sbs_5k" or "sbs_15k", or a node type with local storage' + _REPLACES)
    return None


def _size_limit(volume: str | None, node_type: str | None) -> tuple[int, str] | None:
    if volume in pool_options.BLOCK_STORAGE_VOLUMES:
        return pool_options.BLOCK_ROOT_VOLUME_MAX_GB, f"a {volume} root volume holds"
    known = node_types.instance_type(node_type) if node_type else None
    if volume == pool_options.LOCAL_VOLUME and known is not None and known.local_volume_max_gb > 0:
        return known.local_volume_max_gb, f"the local storage of {known.name} holds"
    return None


def _size_fix(project: Project, size: Val, meant: int) -> Fix | None:
    return fix("unsafe", f"set root_volume_size_in_gb = {meant}", literal_edit(project, size, str(meant)))


def check(project: Project) -> Iterator[Finding]:
    for pool in clusters.pools(project):
        if pool.in_kapsule_scope is not True:
            continue
        instance = pool.instance
        address = instance.resource.address
        node_type = pool.normalized_node_type
        kind = instance.arg("root_volume_type")
        volume = (kind.text() or "").strip().lower() if kind.known and isinstance(kind.raw, str) else None
        kind_loc = _loc(pool, "root_volume_type", kind)
        related = []
        if pool.node_type.loc is not None:
            related.append(Related(pool.node_type.loc, "the node type of the pool"))
        problem = _type_problem(volume, node_type) if volume else None
        if problem is not None and kind_loc is not None:
            why, hint = problem
            yield finding(
                kind_loc,
                f"{address} uses root_volume_type {shown(kind)}: {why}",
                subject=address,
                instance=instance.address,
                related=related,
                logical=f"{address}.root_volume_type",
                fix=hint,
            )
        size = instance.arg("root_volume_size_in_gb")
        amount = number(size) if size.known and size.raw is not None else None
        size_loc = _loc(pool, "root_volume_size_in_gb", size)
        if amount is None or size_loc is None:
            continue
        limit = _size_limit(volume, node_type) if problem is None else None
        if amount < pool_options.ROOT_VOLUME_MIN_GB:
            message = (f"root_volume_size_in_gb of {address} is {_n(amount)}: a pool's root volume is at "
                       f"least {pool_options.ROOT_VOLUME_MIN_GB} GB")
            hint = f"set root_volume_size_in_gb to {pool_options.ROOT_VOLUME_MIN_GB} or more" + _REPLACES
            meant = pool_options.ROOT_VOLUME_MIN_GB
        elif limit is not None and amount > limit[0]:
            message = (f"root_volume_size_in_gb of {address} is {_n(amount)}: {limit[1]} at most "
                       f"{limit[0]} GB")
            hint = f"set root_volume_size_in_gb to {limit[0]} or less" + _REPLACES
            meant = limit[0]
            if kind_loc is not None:
                related.append(Related(kind_loc, "the root volume type"))
        else:
            continue
        yield finding(
            size_loc,
            message,
            subject=address,
            instance=instance.address,
            related=related,
            logical=f"{address}.root_volume_size_in_gb",
            fix=hint,
            autofix=_size_fix(project, size, meant),
        )
