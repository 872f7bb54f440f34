"""Incomplete auto_upgrade block.

## What it does
Reports an `auto_upgrade` block that lacks `enable`, `maintenance_window_start_hour` or
`maintenance_window_day`, or gives one of them a value the provider refuses.

## Why is this bad
The Scaleway provider treats the three settings of `auto_upgrade` as one unit: each is required
inside the block, and the cluster creation refuses a block where only some are set ("all field or
zero field of auto_upgrade must be set"). A block written as `auto_upgrade { enable = true }` to
turn patch upgrades on therefore breaks the plan. The start hour is an hour of the day in UTC,
from 0 to 23 (the window lasts two hours); the day is `any` or a weekday in lower case, `monday`
to `sunday`. Any other value is rejected by the provider's validation.

A missing setting is reported at the block header, a refused value where it is written. `null`
counts as missing. Blocks made by a `dynamic` block whose `for_each` is not known before apply
are not judged, nor are values that are not known.

Source: Scaleway Terraform provider, `internal/services/k8s/cluster.go` (the `auto_upgrade`
schema, its validators and the Create check) and `docs/resources/k8s_cluster.md`
(https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_cluster.md).

## Example
```hcl
resource "scaleway_k8s_cluster" "main" {
  version = "1.35"

  auto_upgrade {
    enable = true
  }
}
```

## Use instead
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

## References
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
- [Kapsule version support policy](https://www.scaleway.com/en/docs/kubernetes/reference-content/version-support-policy/)
"""

from kapsulint.api import Project, Related, finding, number, shown
from kapsulint.kapsule import cluster_options, clusters

ID = "KAP109"
NAME = "auto-upgrade-incomplete"
SEVERITY = "error"

FIELDS = ("enable", "maintenance_window_start_hour", "maintenance_window_day")


def _bad_hour(value) -> bool:
    amount = number(value)
    low, high = cluster_options.MAINTENANCE_HOUR_RANGE
    return amount is None or amount != int(amount) or not low <= amount <= high


def _bad_day(value) -> bool:
    return not isinstance(value.raw, str) or value.raw not in cluster_options.AUTO_UPGRADE_DAYS


def check(project: Project):
    for cluster in clusters.clusters(project):
        instance = cluster.instance
        address = instance.resource.address
        for block in cluster.auto_upgrade_blocks():
            values = {name: block.arg(name) for name in FIELDS}
            missing = [name for name, value in values.items() if value.known and value.raw is None]
            if missing:
                related = [
                    Related(values[name].loc, f"{name} is null here")
                    for name in missing
                    if values[name].loc is not None
                ]
                listed = " and ".join([", ".join(missing[:-1]), missing[-1]] if len(missing) > 1 else missing)
                yield finding(
                    block.loc,
                    f"the auto_upgrade block of {address} lacks {listed}: the Scaleway "
                    "provider wants enable, maintenance_window_start_hour and maintenance_window_day "
                    "together, or no block at all",
                    subject=address,
                    instance=instance.address,
                    related=related,
                    logical=f"{address}.auto_upgrade",
                    fix="set all three: enable, maintenance_window_start_hour (0-23, UTC) and "
                    'maintenance_window_day ("any" or "monday".."sunday")',
                )
            hour = values["maintenance_window_start_hour"]
            if hour.known and hour.raw is not None and hour.loc is not None and _bad_hour(hour):
                yield finding(
                    hour.loc,
                    f"maintenance_window_start_hour {shown(hour)} of {address} is not an hour from 0 "
                    "to 23: the Scaleway provider refuses it",
                    subject=address,
                    instance=instance.address,
                    logical=f"{address}.auto_upgrade.maintenance_window_start_hour",
                    fix="use an hour of the day in UTC, from 0 to 23",
                )
            day = values["maintenance_window_day"]
            if day.known and day.raw is not None and day.loc is not None and _bad_day(day):
                yield finding(
                    day.loc,
                    f"maintenance_window_day {shown(day)} of {address} is not one the Scaleway provider "
                    'accepts ("any" or "monday" to "sunday", in lower case)',
                    subject=address,
                    instance=instance.address,
                    logical=f"{address}.auto_upgrade.maintenance_window_day",
                    fix='use "any" or a weekday in lower case, such as "sunday"',
                )
