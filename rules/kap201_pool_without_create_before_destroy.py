"""Pool without create_before_destroy.

## What it does
Reports a Kapsule node pool that lacks `lifecycle { create_before_destroy = true }`.

## Why is this bad
Many pool arguments cannot be changed in place: `node_type`, `zone`, `region`, `cluster_id`,
`container_runtime`, `placement_group_id`, the root volume type and size, `public_ip_disabled`
and `name` all make Terraform replace the pool, and with provider 2.57.0 to 2.67.0
`security_group_id` too (the message names the arguments of the provider version in use). By default Terraform destroys the old pool first
and only then creates the new one, so every node of the pool is drained and deleted while nothing
can take its workloads: the pods stay Pending until the new nodes have booted and joined the
cluster. For the only pool of a cluster, that is a full outage of the applications.

With `create_before_destroy`, the new pool is up before the old one goes away. The Kapsule API
refuses two pools with the same name in one cluster, so the new pool needs a different name:
from provider 2.78 `name` is optional and the provider generates one when it is left out; before
2.78 `name` is required, so it has to change with the replacement (built from `node_type`, or
with a `random_id` suffix whose keepers are the replacing arguments). The suggested fix follows
the provider version kapsulint finds (lock file, else `required_providers`).

`create_before_destroy` alone does not keep the pods running, though: once the new pool exists,
Terraform deletes the old one, and its nodes are drained only briefly before their pods are
stopped, whether or not the new nodes can take them yet (provider issue #4198,
https://github.com/scaleway/terraform-provider-scaleway/issues/4198). What keeps workloads up is
around the lifecycle block: `wait_for_pool_ready = true` (the default) on the new pool, so the old
one goes only after the new nodes are ready; replicas and PodDisruptionBudgets for what must stay
up; and for a planned change of node type, the provider's migration workflow: add the new pool,
`kubectl drain` the old pool's nodes, then remove the old pool
(https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_pool.md,
"Upgrading a pool").

The rule judges the pool block as written, whatever its `count` or `for_each`. Pools of Kosmos
clusters (`type = "multicloud*"`) and `node_type = "external"` pools are out of its scope.

Source: Scaleway Terraform provider, `internal/services/k8s/pool.go` at each release from v2.40.0
to v2.81.0 (ForceNew arguments; `security_group_id` editable from v2.67.1, PR #3606) and
`docs/resources/k8s_pool.md` (the `name` argument and the `lifecycle` example); optional pool
name in v2.78.0 (PR #4164). See https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_pool.md.

## Example
```hcl
resource "scaleway_k8s_pool" "system" {
  cluster_id = scaleway_k8s_cluster.main.id
  name       = "system"
  node_type  = "PRO2-S"
  size       = 3
}
```

## Use instead
```hcl
resource "scaleway_k8s_pool" "system" {
  cluster_id = scaleway_k8s_cluster.main.id
  node_type  = "PRO2-S"
  size       = 3

  lifecycle {
    create_before_destroy = true
  }
}
```

## Fix
Adds `lifecycle { create_before_destroy = true }` to the pool (or sets it in the pool's
`lifecycle` block). That is **safe** when the pool has no `name` or a name that changes with the
replacement (generated, or built from every replacing argument written, as KAP202 judges it):
`terraform plan` shows no change afterwards, since `lifecycle` is read by Terraform only, and the
hint then says only that. With a fixed `name`, the new pool could not be created beside the old one (KAP202), so the
fix also removes `name` where the provider generates one (from 2.78): the name changes, which
replaces the pool, so that fix is **unsafe** (`--unsafe-fixes`). Before provider 2.78 the name is
required and there is no automatic fix.

## References
- [scaleway_k8s_pool](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_pool)
- [The lifecycle meta-argument](https://developer.hashicorp.com/terraform/language/meta-arguments/lifecycle)
"""

from collections.abc import Iterator

from kapsulint.api import (
    Block,
    Edit,
    Finding,
    Fix,
    Project,
    ResourceInstance,
    Version,
    finding,
    fix,
    insert_block,
    remove_attribute,
    replace_value,
    set_attribute,
)
from kapsulint.kapsule import (
    clusters,
    provider_features,
    replacement,
    replacement_facts,
)
from kapsulint.kapsule.replacement_facts import POOL

ID = "KAP201"
NAME = "pool-without-create-before-destroy"
SEVERITY = "warning"
FIX = "sometimes"

_ADD = "add lifecycle { create_before_destroy = true }"
_GENERATED = "drop the fixed name (the provider generates one)"
_DERIVED = "derive name from node_type or a random_id suffix"


def fix_for(version: tuple[int, ...] | None, named: bool = True, follows: bool | None = None) -> str:
    """The hint, from the facts the automatic fix uses: adding the lifecycle block is enough for a
    generated name and for one that follows every replacing argument (``follows``)."""
    if not named or follows is True:  # (a missing name before 2.78 is the provider's error)
        return _ADD
    optional = provider_features.supports("optional_pool_name", version)
    if optional is True:
        return f"{_ADD} and {_GENERATED}"
    if optional is False:
        return f"{_ADD} and {_DERIVED} (name is required before provider 2.78)"
    return f"{_ADD}; from provider 2.78 {_GENERATED}, before 2.78 {_DERIVED}"


def check(project: Project) -> Iterator[Finding]:
    for pool in clusters.pools(project):
        if pool.in_kapsule_scope is not True or not pool.is_resource:
            continue
        block = pool.instance.block
        if replacement.create_before_destroy(block):
            continue
        address = pool.instance.resource.address
        assert isinstance(pool.instance, ResourceInstance)  # is_resource: not a default_pool block
        follows = replacement.name_follows_replacement(pool.instance, "name", pool.provider_version)
        yield finding(
            block.loc,
            f"{address} has no lifecycle {{ create_before_destroy = true }}: a change to node_type, "
            f"zone or another replacing argument{_also(pool.provider_version)} deletes its nodes before the new "
            "pool exists",
            subject=address,
            instance=pool.instance.address,
            logical=f"{address}.lifecycle.create_before_destroy",
            fix=fix_for(pool.provider_version, block.attr("name") is not None, follows),
            autofix=autofix(project, pool, follows),
        )


def _also(version: Version | None) -> str:
    """`` (with provider 2.60.0, security_group_id too)``: the replacing arguments of that version
    beyond those of every release."""
    extra = sorted(replacement.pool_replacing_arguments(version) - replacement_facts.always_replacing(POOL))
    if not extra or version is None:
        return ""
    return f" (with provider {replacement_facts.version_text(version)}, {', '.join(extra)} too)"


def autofix(project: Project, pool: clusters.Pool, follows: bool | None) -> Fix | None:
    """``create_before_destroy = true``: safe when the pool's name changes with a replacement (or
    is generated); with a fixed name it also drops the name, where the provider generates one
    (2.78 and later), and that replaces the pool: unsafe."""
    block = pool.instance.block
    lifecycle = lifecycle_edit(project, block)
    name = block.attr("name")
    if name is None or follows is True:
        return fix("safe", "add lifecycle { create_before_destroy = true }", lifecycle)
    if provider_features.supports("optional_pool_name", pool.provider_version) is not True:
        return None  # the name is required: what it should be built from is the author's choice
    return fix("unsafe", "add lifecycle { create_before_destroy = true } and drop the fixed name "
               "(the pool is replaced)", lifecycle, remove_attribute(project, name))


def lifecycle_edit(project: Project, block: Block) -> Edit | tuple[Edit, ...] | None:
    """The edit that makes the block's lifecycle say ``create_before_destroy = true``."""
    lifecycle = block.child("lifecycle")
    if lifecycle is None:
        return insert_block(project, block, "lifecycle {\n  create_before_destroy = true\n}")
    written = lifecycle.attr("create_before_destroy")
    if written is None:
        return set_attribute(project, lifecycle, "create_before_destroy", "true")
    return replace_value(project, written, "true") if written.is_literal else None
