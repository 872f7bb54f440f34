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

## Fix
Completes the block with what is missing, aligned as `terraform fmt` aligns it:
`maintenance_window_day = "any"`, the Kapsule API's default day
(https://www.scaleway.com/en/developers/api/kubernetes/#path-clusters-create-a-new-cluster),
`maintenance_window_start_hour = 0` (midnight UTC: the API documents no default hour, so the fix
writes the field's zero value), and `enable` by what the version says the author meant: `true` for a minor version `"1.35"`
(which needs auto-upgrade), `false` for a full release `"1.35.3"` (which refuses it). A day
written in another case (`"Sunday"`) is lower-cased where it is written. No fix for an hour out of
range (which hour was meant is the author's call), a field written as `null`, a block made by
`dynamic`, an unknown version when `enable` is missing, or a value that other expressions read too.

Unsafe: the plan fails today, but the fix chooses a maintenance window, in which Kapsule upgrades
the cluster to new patch releases from then on (or turns auto-upgrade off); check that the
window suits the workloads.

## References
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
- [Kapsule version support policy](https://www.scaleway.com/en/docs/kubernetes/reference-content/version-support-policy/)
"""

from kapsulint.api import Project, Related, finding, fix, literal_edit, number, set_attribute, shown
from kapsulint.kapsule import cluster_options, clusters

ID = "KAP109"
NAME = "auto-upgrade-incomplete"
SEVERITY = "error"

FIX = "unsafe"

FIELDS = ("enable", "maintenance_window_start_hour", "maintenance_window_day")
DEFAULT_WINDOW = {"maintenance_window_start_hour": "0", "maintenance_window_day": '"any"'}


def _bad_hour(value) -> bool:
    amount = number(value)
    low, high = cluster_options.MAINTENANCE_HOUR_RANGE
    return amount is None or amount != int(amount) or not low <= amount <= high


def _bad_day(value) -> bool:
    return not isinstance(value.raw, str) or value.raw not in cluster_options.AUTO_UPGRADE_DAYS


def _enable_text(project: Project, cluster: clusters.Cluster) -> str | None:
    """``true`` for a minor version, ``false`` for a full release, when every instance of the
    cluster's block has that version; None otherwise."""
    instance = cluster.instance
    written = instance.block.attr("version")
    calls = sum(1 for other in project.instances() if other.module is instance.module.module)
    if (written is None or not written.is_literal) and calls != 1:
        return None
    minor = cluster.version_is_minor()
    if minor is None or (not minor and cluster.kubernetes_version is None):
        return None
    return "true" if minor else "false"


def _completion(project: Project, cluster: clusters.Cluster, block, missing: list[str]):
    """The missing fields set in the block (one insertion, so the run is aligned once)."""
    if block.dynamic:
        return None
    texts = dict(DEFAULT_WINDOW)
    enable = _enable_text(project, cluster) if "enable" in missing else None
    if enable is not None:
        texts["enable"] = enable
    if any(name not in texts for name in missing):
        return None
    first, *rest = missing
    # set_attribute indents the lines of a multi-line value like the first: the other fields
    # become the following lines of the same insertion, aligned together by the builder.
    text = texts[first] + "".join(f"\n{name} = {texts[name]}" for name in rest)
    return fix("unsafe", "set " + ", ".join(f"{name} = {texts[name]}" for name in missing),
               set_attribute(project, block.block, first, text))


def _day_fix(project: Project, day):
    meant = day.raw.strip().lower()
    if meant not in cluster_options.AUTO_UPGRADE_DAYS:
        return None
    return fix("unsafe", f'set maintenance_window_day = "{meant}"', literal_edit(project, day, f'"{meant}"'))


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
                    autofix=_completion(project, cluster, block, missing),
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
                    autofix=_day_fix(project, day),
                )
