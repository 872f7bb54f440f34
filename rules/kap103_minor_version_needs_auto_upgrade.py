"""Minor version without auto-upgrade.

## What it does
Reports a cluster whose `version` is a bare minor version `x.y` while auto-upgrade is not enabled.

## Why is this bad
A minor version such as `"1.35"` tells Kapsule which line to follow and leaves the patch release
to the auto-upgrade feature; the Scaleway provider accepts that form only when
`auto_upgrade { enable = true }` is set. Without the `auto_upgrade` block, or with
`enable = false`, every plan fails with "minor version x.y must only be used with auto upgrade
enabled", so the cluster can be neither created nor updated. The provider tells the two forms
apart by the number of dot-separated parts in the string.

Source: Scaleway Terraform provider, `internal/services/k8s/cluster.go` (CustomizeDiff, Create
and Update) and `docs/resources/k8s_cluster.md` (https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_cluster.md).

## Example
```hcl
resource "scaleway_k8s_cluster" "main" {
  version = "1.35"
}
```

## Use instead
Let Kapsule apply patch releases inside the maintenance window:
```hcl
resource "scaleway_k8s_cluster" "main" {
  version = "1.35"

  auto_upgrade {
    enable                        = true
    maintenance_window_start_hour = 3
    maintenance_window_day        = "sunday"
  }
}
```
or pin an exact release and upgrade it yourself:
```hcl
resource "scaleway_k8s_cluster" "main" {
  version = "1.35.3"
}
```

## Fix
By what the author meant. A cluster with no `auto_upgrade` block asked for a minor line, so the
fix adds a complete block that turns auto-upgrade on, on any day (the Kapsule API's default
day, https://www.scaleway.com/en/developers/api/kubernetes/#path-clusters-create-a-new-cluster)
from midnight UTC (the API documents no default hour, so the fix writes the field's zero value):

```hcl
  auto_upgrade {
    enable                        = true
    maintenance_window_start_hour = 0
    maintenance_window_day        = "any"
  }
```

A block with `enable = false` says auto-upgrade was turned off on purpose: the release to pin is
then the author's choice (kapsulint does not know which patch releases exist), so no fix is
offered. Nor is one when the cluster's block is shared by module instances whose versions
kapsulint cannot tell are all minor ones.

Unsafe: the cluster gets an auto-upgrade policy and a maintenance window, in which Kapsule
upgrades it to each new patch release from then on; pick a window that suits the workloads.

## References
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
- [Kapsule version support policy](https://www.scaleway.com/en/docs/kubernetes/reference-content/version-support-policy/)
"""

from kapsulint.api import Project, Related, finding, fix, insert_block, shown
from kapsulint.kapsule import clusters

ID = "KAP103"
NAME = "minor-version-needs-auto-upgrade"
SEVERITY = "error"
FIX = "unsafe"

AUTO_UPGRADE_BLOCK = """auto_upgrade {
  enable                        = true
  maintenance_window_start_hour = 0
  maintenance_window_day        = "any"
}
"""


def _auto_upgrade_fix(project: Project, cluster: clusters.Cluster, enable):
    """The block to add when there is none, and every instance of the cluster's block uses a minor version."""
    instance = cluster.instance
    if enable is not None:
        return None  # enable = false: turned off on purpose
    written = instance.block.attr("version")
    calls = sum(1 for other in project.instances() if other.module is instance.module.module)
    if (written is None or not written.is_literal) and calls != 1:
        return None
    return fix("unsafe", "add an auto_upgrade block with enable = true, any day from 00:00 UTC",
               insert_block(project, instance.block, AUTO_UPGRADE_BLOCK))


def check(project: Project):
    for cluster in clusters.clusters(project):
        if cluster.version_is_minor() is not True:
            continue
        enabled, enable = cluster.auto_upgrade()
        if enabled is not False:
            continue  # enabled, or Unknown (a dynamic block, a missing enable is KAP109's)
        loc, related = cluster.version_location()
        if loc is None:
            continue
        if enable is not None and enable.loc is not None:
            related.append(Related(enable.loc, "auto-upgrade is disabled here"))
        state = "auto-upgrade disabled" if enable is not None else "no auto_upgrade block"
        instance = cluster.instance
        address = instance.resource.address
        yield finding(
            loc,
            f"{address} uses the minor version {shown(instance.arg('version'))} with {state}: the Scaleway "
            'provider accepts "x.y" only when auto_upgrade.enable is true, and the plan fails',
            subject=address,
            instance=instance.address,
            related=related,
            logical=f"{address}.version",
            fix="enable auto-upgrade: an auto_upgrade block with enable = true and its maintenance window "
            '(start hour and day), or pin a full release such as "1.35.3"',
            autofix=_auto_upgrade_fix(project, cluster, enable),
        )
