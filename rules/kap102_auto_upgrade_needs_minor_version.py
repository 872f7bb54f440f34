"""Auto-upgrade with a patch-pinned version.

## What it does
Reports a cluster that turns auto-upgrade on while its `version` is not a bare minor version `x.y`.

## Why is this bad
Kapsule's auto-upgrade only moves a cluster between patch releases of one minor version, so the
Scaleway provider wants to be told the minor line to follow, not an exact release. When
`auto_upgrade { enable = true }` is combined with a full release such as `"1.35.2"`, or with any
string that does not split into exactly two dot-separated parts (`"latest"`, `"1"`), the plan
stops with "only minor version x.y can be used with auto upgrade enabled" before anything is
created or changed. A version read from the `scaleway_k8s_version` data source's `name` is such a
release too: whatever `name` asks for (`"latest"`, `"1.35.2"`), the provider overwrites it when it
reads the data source with the release it found, always `x.y.z`. Since provider 2.63.0 the data
source also exports `major_minor_only`, that release's `x.y`, made for this case. Writing `x.y` is the intended form: the provider picks the newest patch of
that minor line when it creates the cluster and keeps `x.y` in the state, so the patch upgrades
Scaleway applies later never show up as drift.

Source: Scaleway Terraform provider, `internal/services/k8s/cluster.go` (CustomizeDiff, Create
and Update) and `docs/resources/k8s_cluster.md`; Scaleway documentation, version support policy
(https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_cluster.md, https://www.scaleway.com/en/docs/kubernetes/reference-content/version-support-policy/);
`internal/services/k8s/k8s_version_data_source.go`
(https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/services/k8s/k8s_version_data_source.go,
https://github.com/scaleway/terraform-provider-scaleway/pull/3458).

## Example
```hcl
resource "scaleway_k8s_cluster" "main" {
  version = "1.35.3"

  auto_upgrade {
    enable                        = true
    maintenance_window_start_hour = 3
    maintenance_window_day        = "sunday"
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

A version from the data source:

```hcl
data "scaleway_k8s_version" "latest" {
  name = "latest"
}

resource "scaleway_k8s_cluster" "main" {
  version = data.scaleway_k8s_version.latest.name # resolved to "1.36.1"

  auto_upgrade {
    enable                        = true
    maintenance_window_start_hour = 3
    maintenance_window_day        = "sunday"
  }
}
```

is written instead `version = data.scaleway_k8s_version.latest.major_minor_only` (provider 2.63.0
and later).

## Fix
Writes the minor line of the release, `"1.35.3"` becoming `"1.35"`, where the version is written:
the cluster's own argument, or the variable default, local, module argument or tfvars assignment
it comes from when nothing else reads that value. For the data source's `name`, writes its
`major_minor_only` instead, where the reference is written, when the module's provider version
(2.63.0 or later) has it. No fix for a version with no minor line to keep
(`"latest"`, `"1"`), a computed one, or one that other expressions read too.

Safe: the plan fails today, so nothing was applied with this configuration; with `"1.35"` the
provider creates the cluster on the newest patch of 1.35, which is what auto-upgrade would apply
within a maintenance window anyway; an existing cluster stays on its minor line and gets only
the patch releases the author turned auto-upgrade on for.

## References
- [scaleway_k8s_version data source](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/data-sources/k8s_version)
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
- [Kapsule version support policy](https://www.scaleway.com/en/docs/kubernetes/reference-content/version-support-policy/)
"""

from collections.abc import Iterator

from kapsulint.api import (
    Finding,
    Project,
    Related,
    Val,
    finding,
    fix,
    literal_edit,
    reference_edit,
    shown,
)
from kapsulint.kapsule import clusters, k8s_versions, provider_features

ID = "KAP102"
NAME = "auto-upgrade-needs-minor-version"
SEVERITY = "error"
FIX = "safe"


def check(project: Project) -> Iterator[Finding]:
    for cluster in clusters.clusters(project):
        enabled, enable = cluster.auto_upgrade()
        if enabled is not True or cluster.version_is_minor() is not False:
            continue
        source = cluster.version_source()
        if source is not None:
            yield _from_data_source(project, cluster, source, enable)
            continue
        loc, related = cluster.version_location()
        if loc is None:
            continue
        if enable is not None and enable.loc is not None:
            related.append(Related(enable.loc, "auto-upgrade is enabled here"))
        instance = cluster.instance
        version = instance.arg("version")
        parts = (version.text() or "").split(".")
        autofix = None
        if len(parts) >= 2 and all(p.isdigit() for p in parts[:2]) and not version.contains_sensitive():
            minor = f"{parts[0]}.{parts[1]}"
            hint = f'set version = "{minor}" (the minor line; patches are applied by auto-upgrade)'
            autofix = fix("safe", f'set version = "{minor}"', literal_edit(project, version, f'"{minor}"'))
        else:
            hint = 'set version to a minor version "x.y", e.g. "1.35"'
        address = instance.resource.address
        yield finding(
            loc,
            f"{address} enables auto-upgrade with version {shown(version)}: the Scaleway provider "
            'then accepts only a minor version "x.y" and the plan fails',
            subject=address,
            instance=instance.address,
            related=related,
            logical=f"{address}.version",
            fix=hint,
            autofix=autofix,
        )


def _from_data_source(project: Project, cluster: clusters.Cluster, source: k8s_versions.VersionSource,
                      enable: Val | None) -> Finding:
    """The version is the data source's ``name``: the release x.y.z the provider resolved."""
    instance = cluster.instance
    address = instance.resource.address
    related = []
    written = instance.block.attr("version")
    if written is not None and written.value_loc != source.loc:
        related.append(Related(written.value_loc, "the version the cluster uses"))
    if enable is not None and enable.loc is not None:
        related.append(Related(enable.loc, "auto-upgrade is enabled here"))
    has_minor = provider_features.supports("k8s_version_major_minor_only", cluster.provider_version)
    autofix = None
    if has_minor is True:
        hint = f"use {source.minor_reference} (the release's x.y)"
        edit = reference_edit(project, Val(None, source.loc), source.minor_reference)
        autofix = fix("safe", f"use {source.minor_reference}", edit)
    elif has_minor is False:
        hint = f"upgrade the scaleway provider to 2.63.0 or later and use {source.minor_reference}"
    else:
        hint = f"use {source.minor_reference} (scaleway provider 2.63.0 or later)"
    return finding(
        source.loc,
        f"{address} enables auto-upgrade with version {source.address}.name, which the provider sets "
        'to the full release x.y.z it resolved: it then accepts only a minor version "x.y" and the plan fails',
        subject=address,
        instance=instance.address,
        related=related,
        logical=f"{address}.version",
        fix=hint,
        autofix=autofix,
    )
