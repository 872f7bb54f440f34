"""Auto-upgrade with a patch-pinned version.

## What it does
Reports a cluster that turns auto-upgrade on while its `version` is not a bare minor version `x.y`.

## Why is this bad
Kapsule's auto-upgrade only moves a cluster between patch releases of one minor version, so the
Scaleway provider wants to be told the minor line to follow, not an exact release. When
`auto_upgrade { enable = true }` is combined with a full release such as `"1.35.2"`, or with any
string that does not split into exactly two dot-separated parts (`"latest"`, `"1"`), the plan
stops with "only minor version x.y can be used with auto upgrade enabled" before anything is
created or changed. Writing `x.y` is the intended form: the provider picks the newest patch of
that minor line when it creates the cluster and keeps `x.y` in the state, so the patch upgrades
Scaleway applies later never show up as drift.

Source: Scaleway Terraform provider, `internal/services/k8s/cluster.go` (CustomizeDiff, Create
and Update) and `docs/resources/k8s_cluster.md`; Scaleway documentation, version support policy
(https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_cluster.md, https://www.scaleway.com/en/docs/kubernetes/reference-content/version-support-policy/).

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

## Fix
Writes the minor line of the release, `"1.35.3"` becoming `"1.35"`, where the version is written:
the cluster's own argument, or the variable default, local, module argument or tfvars assignment
it comes from when nothing else reads that value. No fix for a version with no minor line to keep
(`"latest"`, `"1"`), a computed one, or one that other expressions read too.

Safe: the plan fails today, so nothing was applied with this configuration; with `"1.35"` the
provider creates the cluster on the newest patch of 1.35, which is what auto-upgrade would apply
within a maintenance window anyway; an existing cluster stays on its minor line and gets only
the patch releases the author turned auto-upgrade on for.

## References
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
- [Kapsule version support policy](https://www.scaleway.com/en/docs/kubernetes/reference-content/version-support-policy/)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, Related, finding, fix, literal_edit, shown
from kapsulint.kapsule import clusters

ID = "KAP102"
NAME = "auto-upgrade-needs-minor-version"
SEVERITY = "error"
FIX = "safe"


def check(project: Project) -> Iterator[Finding]:
    for cluster in clusters.clusters(project):
        enabled, enable = cluster.auto_upgrade()
        if enabled is not True or cluster.version_is_minor() is not False:
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
