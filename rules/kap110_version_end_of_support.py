"""Kubernetes minor version deprecated or past end of support.

## What it does
Reports a cluster whose `version` is a Kubernetes minor that Scaleway's support calendar marks
deprecated (a warning) or past its end of support (an error) on the lint date.

## Why is this bad
Scaleway supports each Kubernetes minor for about fourteen months. At deprecation the version is
removed from the creation options: a new cluster, or one recreated from the same code, cannot be
created with it. At end of support it is no longer supported, and "within the next 30 days"
Scaleway upgrades the cluster itself to the latest patch of the next supported minor, on its own
schedule, not in your maintenance window and without a chance to test workloads first. The next
`terraform plan` then wants to take the cluster back to the written version, which the API
refuses (versions only go up).

The lint date is today in UTC, or `--today YYYY-MM-DD`, or the configuration key `today`, so CI
runs and tests are reproducible. The calendar is kept as dated facts, from the edition of
Scaleway's table checked on 2026-12-01 and earlier editions (1.27 to 1.36): the table's "end of
support" is the deprecation here, its "end of life" the end of support. A minor older than 1.27
is past end of support. After those facts, versions the table did not yet list (1.37 and later)
are not judged (KAP013 notes each one, where it is written), and a future edition that moves dates is not known
until kapsulint's facts are updated. The version is read as `x.y` or `x.y.z`; `"latest"`, an
absent version and a value kapsulint cannot compute stay silent. Pool `version`s are not judged.

Source: Scaleway documentation, "Version support policy"
(https://www.scaleway.com/en/docs/kubernetes/reference-content/version-support-policy/,
https://github.com/scaleway/docs-content/blob/main/pages/kubernetes/reference-content/version-support-policy.mdx).

## Example
```hcl
resource "scaleway_k8s_cluster" "main" {
  version = "1.31"
}
```

## Use instead
```hcl
resource "scaleway_k8s_cluster" "main" {
  version = "1.34"
}
```

## Fix
For a minor version that auto-upgrade follows (`version = "1.31"` with `auto_upgrade { enable =
true }`), writes the next minor, `"1.32"`, where the version is written and nothing else reads it,
when that minor is supported on the lint date: Kapsule upgrades one minor at a time, so a cluster
several minors behind gets no fix (each step is a planned upgrade of its own). No fix for a full
release (`"1.31.5"`: which patch of the next minor to pin is the author's choice), or when
kapsulint does not know the next minor.

Unsafe: `terraform plan` shows the cluster's version updated in place, and applying it upgrades
the control plane (and, with `upgrade_pools`, the pools) to the next minor; read its changelog
and the deprecated APIs first.

## References
- [Kapsule version support policy](https://www.scaleway.com/en/docs/kubernetes/reference-content/version-support-policy/)
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
"""

import datetime
from collections.abc import Iterator

from kapsulint.api import (
    Finding,
    Fix,
    Project,
    Severity,
    finding,
    fix,
    literal_edit,
    shown,
    shown_text,
)
from kapsulint.kapsule import clusters, version_calendar
from kapsulint.kapsule.version_calendar import State

ID = "KAP110"
NAME = "version-end-of-support"
SEVERITY = "warning"
FIX = "unsafe"


def _today(project: Project) -> datetime.date:
    given = getattr(project.options, "today", None)
    return given if given is not None else datetime.datetime.now(datetime.UTC).date()


def check(project: Project) -> Iterator[Finding]:
    today = _today(project)
    for cluster in clusters.clusters(project):
        version = cluster.kubernetes_version
        if version is None or len(version) < 2:
            continue
        minor = (version[0], version[1])
        judged = version_calendar.status(minor, today)
        if judged is None or judged.state is State.SUPPORTED:
            continue
        state, dates = judged
        loc, related = cluster.version_location()
        if loc is None:
            continue
        instance = cluster.instance
        address = instance.resource.address
        written_version = instance.arg("version")
        name = shown_text(written_version, f"{minor[0]}.{minor[1]}")
        written = shown(written_version)
        if state is State.END_OF_SUPPORT:
            since = f" on {dates.end_of_support.isoformat()}" if dates is not None else ""
            message = (f"{address} runs Kubernetes {written}: {name} reached end of support{since}, so "
                       "Scaleway upgrades the cluster to the next minor itself within 30 days")
            level = Severity.ERROR
        else:
            assert dates is not None  # a deprecated minor is listed, with its dates
            message = (f"{address} runs Kubernetes {written}: {name} is deprecated since "
                       f"{dates.deprecation.isoformat()} (no new cluster can use it) and reaches end of "
                       f"support on {dates.end_of_support.isoformat()}")
            level = None
        yield finding(
            loc,
            message,
            subject=address,
            instance=instance.address,
            related=related,
            logical=f"{address}.version",
            fix="upgrade version to a supported minor, one minor at a time",
            level=level,
            autofix=_upgrade(project, cluster, minor, today),
        )


def _upgrade(project: Project, cluster: clusters.Cluster, minor: tuple[int, int], today: datetime.date) -> Fix | None:
    """Upgrade to the next supported minor, for a cluster that auto-upgrade keeps on a minor line (a
    fix must leave no finding)."""
    if cluster.version_is_minor() is not True or cluster.auto_upgrade()[0] is not True:
        return None
    following = version_calendar.next_supported_minor(minor, today)
    if following is None:
        return None
    text = f"{following[0]}.{following[1]}"
    version = cluster.instance.arg("version")
    return fix("unsafe", f'set version = "{text}"', literal_edit(project, version, f'"{text}"'))
