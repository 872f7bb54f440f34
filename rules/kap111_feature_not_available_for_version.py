"""Feature gate or admission plugin the cluster's version does not offer.

## What it does
Reports a `feature_gates` or `admission_plugins` entry of a cluster that the Kapsule API does not
offer for the cluster's Kubernetes version.

## Why is this bad
Kapsule lets a cluster enable only the feature gates and admission plugins its version lists; the
provider checks no entry, so a gate the version does not offer (one Kubernetes graduated or
removed, a gate of a newer version, a misspelling) passes `terraform plan` and the API refuses the
cluster at apply, or refuses the upgrade that moves it to a version without the gate. The lists
change between minors: `InPlacePodVerticalScaling` and `SidecarContainers` are offered up to 1.32,
`DynamicResourceAllocation` on 1.32 and 1.33, `MutatingAdmissionPolicy` from 1.34.

The lists are those the API gave for Kubernetes 1.31 to 1.35. When the version is not known
(`"latest"`, computed), an entry no recorded version offers is still reported; for a version
outside 1.31 to 1.35 nothing is judged. The finding points at the entry.

Source: the Kapsule API's `available_feature_gates` and `available_admission_plugins` per
version (https://www.scaleway.com/en/developers/api/kubernetes/#path-versions-list-all-available-versions),
recorded in the Scaleway Terraform provider's test cassettes
(https://github.com/scaleway/terraform-provider-scaleway/tree/v2.81.0/internal/services/k8s/testdata).

## Example
```hcl
resource "scaleway_k8s_cluster" "main" {
  version       = "1.34"
  feature_gates = ["SidecarContainers"]
}
```

## Use instead
```hcl
resource "scaleway_k8s_cluster" "main" {
  version       = "1.34"
  feature_gates = ["HPAScaleToZero"]
}
```

## Fix
Replaces a misspelt name by the offered one it most likely meant (`PodNodeSelektor` becoming
`PodNodeSelector`: the same letters up to case, `-` and `_`, or a close spelling), where the list
is written. No fix for a name with no close offered one (removing it is the author's call), nor
for a list computed or read by other expressions too.

Unsafe: the API applies the corrected feature gate or admission plugin to the running control
plane, and a close spelling is a guess; read the change before applying it.

## References
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
- [Kapsule API: list available versions](https://www.scaleway.com/en/developers/api/kubernetes/#path-versions-list-all-available-versions)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, finding, fix, literal_edit, shown_text
from kapsulint.kapsule import clusters, version_features

ID = "KAP111"
NAME = "feature-not-available-for-version"
SEVERITY = "error"
FIX = "unsafe"

_WHAT = {"feature_gates": "feature gate", "admission_plugins": "admission plugin"}


def check(project: Project) -> Iterator[Finding]:
    for cluster in clusters.clusters(project):
        version = cluster.kubernetes_version
        minor = (version[0], version[1]) if version is not None and len(version) >= 2 else None
        address = cluster.instance.resource.address
        for argument, what in _WHAT.items():
            entries = cluster.instance.arg(argument)
            if not entries.known or not entries.is_list:
                continue
            offered = version_features.offered(argument, minor)
            if offered is None:
                continue
            on = f"Kubernetes {minor[0]}.{minor[1]}" if minor is not None else "any version Kapsule offers"
            for entry in entries.elements():
                name = entry.text() if entry.known and isinstance(entry.raw, str) else None
                if name is None or name in offered or entry.loc is None:
                    continue
                hidden = entry.contains_sensitive()  # no name close to a sensitive one
                meant = None if hidden else version_features.closest(name, offered)
                hint = f"write {meant}" if meant is not None else f"remove it; {on} offers: " + ", ".join(sorted(offered))
                autofix = None
                if meant is not None:
                    autofix = fix("unsafe", f"write {meant}", literal_edit(project, entry, f'"{meant}"'))
                yield finding(
                    entry.loc,
                    f"{address} enables the {what} {shown_text(entry, repr(name))}, which Kapsule does not offer "
                    f"on {on}: "
                    "the API refuses it",
                    subject=address,
                    instance=cluster.instance.address,
                    logical=f"{address}.{argument}.{name}",
                    fix=hint,
                    autofix=autofix,
                )
