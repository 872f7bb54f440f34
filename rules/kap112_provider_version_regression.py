"""Argument hit by a regression of the provider version in use.

## What it does
Reports a cluster or pool argument that the scaleway provider version the module uses (its lock
file, else its version constraints) handles wrongly: a change that replaces what should be edited in
place, or a create that drops what was written.

## Why is this bad
Some provider releases shipped bugs that turn an ordinary edit into an outage:

- **2.76.0 to 2.80.x**: `autoscaler_config.skip_nodes_with_local_storage` and `log_level` are
  ForceNew: editing either destroys the whole cluster (control plane, pools, nodes) and creates a
  new one (provider PR #4022; editable in place from 2.81.0, PR #4251). In 2.76.0 and 2.77.0 they
  also had defaults (`true`, `2`), so an `autoscaler_config` block alone made Terraform plan to
  replace an existing cluster whose autoscaler held other values (defaults removed in 2.77.1,
  PR #4132).
- **2.76.0 to 2.81.0**: a pool created with both `taints` and `startup_taints` loses its regular
  taints: the create request sends the startup taints in their place (issue #4266, fixed by
  PR #4267 after 2.81.0). Every replacement of the pool creates it again.
- **2.57.0 to 2.67.0**: a new `security_group_id` replaces the pool instead of editing it
  (editable from 2.67.1, PR #3606).

kapsulint reads the version from `.terraform.lock.hcl` (what `terraform init` installed), else the
newest release the version constraints admit. With no version known, the rule stays silent.

## Example
```hcl
# .terraform.lock.hcl locks registry.terraform.io/scaleway/scaleway at version = "2.78.0"
resource "scaleway_k8s_cluster" "main" {
  # ...
  autoscaler_config {
    skip_nodes_with_local_storage = false
  }
}
```

## Use instead
Upgrade the provider past the regression (`terraform init -upgrade` with a constraint that admits
the fixed release), then make the change:
```hcl
terraform {
  required_providers {
    scaleway = {
      source  = "scaleway/scaleway"
      version = ">= 2.81.0"
    }
  }
}
```
Until then, leave the argument as it is in the state (or out), and create pools with `taints` only.

## References
- [Autoscaler fields ForceNew, provider PR #4022](https://github.com/scaleway/terraform-provider-scaleway/pull/4022)
- [Defaults removed, provider PR #4132](https://github.com/scaleway/terraform-provider-scaleway/pull/4132)
- [Edits without recreating the cluster, provider PR #4251](https://github.com/scaleway/terraform-provider-scaleway/pull/4251)
- [startup_taints overwrote taints on create, provider issue #4266](https://github.com/scaleway/terraform-provider-scaleway/issues/4266) and [PR #4267](https://github.com/scaleway/terraform-provider-scaleway/pull/4267)
- [security_group_id editable on existing pools, provider PR #3606](https://github.com/scaleway/terraform-provider-scaleway/pull/3606)
- [pool.go at v2.81.0](https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/services/k8s/pool.go), [cluster.go at v2.80.0](https://github.com/scaleway/terraform-provider-scaleway/blob/v2.80.0/internal/services/k8s/cluster.go)
"""

from typing import Iterator

from kapsulint.api import Block, Finding, Loc, Project, ProviderVersion, Related, ResourceInstance, finding
from kapsulint.kapsule import clusters, replacement_facts
from kapsulint.kapsule.provider_releases import resolved_provider_version
from kapsulint.kapsule.replacement_facts import CLUSTER, POOL, Regression, version_text

ID = "KAP112"
NAME = "provider-version-regression"
SEVERITY = "warning"

_AUTOSCALER_FIELDS = ("skip_nodes_with_local_storage", "log_level")


def check(project: Project) -> Iterator[Finding]:
    for cluster in clusters.clusters(project):
        instance = cluster.instance
        version = _version(instance)
        if version is None:
            continue
        for regression in replacement_facts.regressions(CLUSTER, version.version):
            yield from _autoscaler(instance, regression, version)
    for pool in clusters.pools(project):
        if not pool.is_resource or not isinstance(pool.instance, ResourceInstance):
            continue
        version = _version(pool.instance)
        if version is None:
            continue
        for regression in replacement_facts.regressions(POOL, version.version):
            yield from _pool(pool.instance, regression, version)


def _version(instance: ResourceInstance) -> ProviderVersion | None:
    return resolved_provider_version(instance.module, "scaleway", "scaleway/scaleway")


def _message(address: str, subject: str, regression: Regression, version: ProviderVersion) -> str:
    since = version_text(regression.since)
    return (f"{address}: with scaleway provider {version.text} ({version.origin}) {subject} {regression.what} "
            f"(a regression of {since} and later, {regression.fixed})")


def _related(version: ProviderVersion) -> list[Related]:
    return [Related(version.loc, "the provider version in use")] if version.loc is not None else []


def _fix(regression: Regression) -> str:
    return f"upgrade the scaleway provider to {regression.upgrade}"


def _autoscaler(instance: ResourceInstance, regression: Regression, version: ProviderVersion) -> Iterator[Finding]:
    address = instance.resource.address
    for block in _blocks(instance.block, "autoscaler_config"):
        written = [name for name in _AUTOSCALER_FIELDS if block.attr(name) is not None]
        if regression.key == "autoscaler-fields-force-new":
            for name in written:
                attribute = block.attr(name)
                assert attribute is not None
                yield finding(
                    attribute.loc,
                    _message(address, f"autoscaler_config.{name}", regression, version),
                    subject=address, instance=instance.address, related=_related(version),
                    logical=f"{address}.autoscaler_config.{name}.{regression.key}", fix=_fix(regression))
        elif regression.key == "autoscaler-defaults-force-new" and not written:
            yield finding(
                block.loc, _message(address, "autoscaler_config", regression, version),
                subject=address, instance=instance.address, related=_related(version),
                logical=f"{address}.autoscaler_config.{regression.key}", fix=_fix(regression))


def _pool(instance: ResourceInstance, regression: Regression, version: ProviderVersion) -> Iterator[Finding]:
    address = instance.resource.address
    block = instance.block
    if regression.key == "startup-taints-overwrite-taints":
        startup, taints = _first(block, "startup_taints"), _first(block, "taints")
        if startup is not None and taints is not None:
            related = [Related(taints, "the taints the pool loses"), *_related(version)]
            yield finding(startup, _message(address, "a pool", regression, version), subject=address,
                          instance=instance.address, related=related, logical=f"{address}.startup_taints.{regression.key}",
                          fix=f"{_fix(regression)}, or create the pool with taints only and add startup_taints after")
    elif regression.key == "security-group-force-new":
        attribute = block.attr("security_group_id")
        if attribute is None or instance.arg("security_group_id").is_null:
            return
        yield finding(attribute.loc, _message(address, "security_group_id", regression, version), subject=address,
                      instance=instance.address, related=_related(version),
                      logical=f"{address}.security_group_id.{regression.key}", fix=_fix(regression))


def _blocks(block: Block, block_type: str) -> list[Block]:
    """The nested blocks of a type as written, the content of ``dynamic`` ones included."""
    found = list(block.children(block_type))
    for dynamic in block.children("dynamic"):
        content = dynamic.child("content")
        if dynamic.labels[:1] == [block_type] and content is not None:
            found.append(content)
    return found


def _first(block: Block, block_type: str) -> Loc | None:
    """Where the block writes a nested block of a type (or a ``dynamic`` one making it)."""
    for child in block.children(block_type):
        return child.loc
    for dynamic in block.children("dynamic"):
        if dynamic.labels[:1] == [block_type]:
            return dynamic.loc
    return None
