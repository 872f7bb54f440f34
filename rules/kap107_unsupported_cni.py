"""CNI the cluster type does not support.

## What it does
Reports a cluster whose `cni` is not one its kind of cluster supports.

## Why is this bad
Scaleway supports a short list of network plugins per product: Kapsule runs `cilium` or `calico`,
and `cilium_native` from Kubernetes 1.34 (the API offers it only from that minor version); Kosmos
(`type = "multicloud*"`) runs only `kilo`, which exists for Kosmos alone. The provider checks
`cni` against the API's whole list with a mere warning, so a wrong value gets through the plan
and fails at creation, or leaves a cluster on a plugin Scaleway does not support: clusters still
on `weave` or `flannel` cannot be upgraded any more. `cni` cannot change in place, so fixing it
later means replacing the cluster.

`none` is exempt on Kapsule: it is granted through a support ticket to bring your own plugin and
is not covered by support. The Kubernetes version comes from the cluster's `version` (`x.y` or
`x.y.z`); when it is `"latest"` or not known before apply, `cilium_native` is not judged. The
rule is silent when `cni` is not known; when `type` is not known, it reports only a plugin that
neither Kapsule nor Kosmos accepts.

Source: the Scaleway Go SDK's CNI enum and its notes
(https://github.com/scaleway/scaleway-sdk-go/blob/v1.0.0-beta.37/api/k8s/v1/k8s_sdk.go), the per-version `available_cnis` of the Kapsule API recorded in the
Scaleway Terraform provider's tests (https://github.com/scaleway/terraform-provider-scaleway/tree/v2.81.0/internal/services/k8s/testdata),
the provider's `cluster.go` validation, and Scaleway documentation, "Version support policy" and "Kapsule and
Kosmos differences" (https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_cluster.md, https://www.scaleway.com/en/docs/kubernetes/reference-content/understanding-differences-kapsule-kosmos/).

## Example
```hcl
resource "scaleway_k8s_cluster" "main" {
  version = "1.33"
  cni     = "cilium_native"
}
```

## Use instead
```hcl
resource "scaleway_k8s_cluster" "main" {
  version = "1.34"
  cni     = "cilium_native"
}
```

## References
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
- [Kapsule version support policy](https://www.scaleway.com/en/docs/kubernetes/reference-content/version-support-policy/)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, Related, finding, shown
from kapsulint.kapsule import cluster_options, clusters

ID = "KAP107"
NAME = "unsupported-cni"
SEVERITY = "error"

_REPLACES = " (changing cni replaces the cluster)"


def _verdict(cni: str, kosmos: bool | None, version: tuple[int, ...] | None) -> bool | None:
    """False when the CNI is certainly unsupported, True or None otherwise."""
    if kosmos is not None:
        return cluster_options.is_supported_cni(cni, kosmos=kosmos, k8s_version=version)
    as_kapsule = cluster_options.is_supported_cni(cni, kosmos=False, k8s_version=version)
    as_kosmos = cluster_options.is_supported_cni(cni, kosmos=True, k8s_version=version)
    if as_kapsule is False and as_kosmos is False:
        return False
    return None


def check(project: Project) -> Iterator[Finding]:
    for cluster in clusters.clusters(project):
        instance = cluster.instance
        cni = instance.arg("cni")
        text = cni.text()
        if not cni.known or text is None or not isinstance(cni.raw, str):
            continue
        kosmos = cluster.is_kosmos
        version = cluster.kubernetes_version
        if _verdict(text, kosmos, version) is not False:
            continue
        written = instance.block.attr("cni")
        loc = cni.loc or (written.value_loc if written is not None else None)
        if loc is None:
            continue
        address = instance.resource.address
        related = []
        if written is not None and written.value_loc != loc:
            related.append(Related(written.value_loc, "the cni the cluster uses"))
        name = text.strip().lower()
        if kosmos:
            why = "Kosmos clusters support only kilo"
            fix = 'set cni = "kilo"' + _REPLACES
        elif kosmos is None:
            why = "neither Kapsule nor Kosmos supports it"
            fix = 'use cni = "cilium" or "calico" on Kapsule, "kilo" on Kosmos' + _REPLACES
        elif name == cluster_options.CILIUM_NATIVE:
            why = "cilium_native needs Kubernetes 1.34 or later"
            version_value = instance.arg("version")
            if version_value.loc is not None:
                runs = f"the cluster runs Kubernetes {shown(version_value)}"
                related.append(Related(version_value.loc, runs))
            fix = 'set version to "1.34" or later, or use cni = "cilium"' + _REPLACES
        elif name in cluster_options.KOSMOS_CNIS:
            why = "kilo is only available on Kosmos (multicloud) clusters"
            fix = 'use cni = "cilium" or "calico"' + _REPLACES
        else:
            why = "Kapsule supports cilium and calico (cilium_native from Kubernetes 1.34)"
            fix = 'use cni = "cilium" or "calico"' + _REPLACES
        yield finding(
            loc,
            f"{address} uses cni {shown(cni)}: {why}",
            subject=address,
            instance=instance.address,
            related=related,
            logical=f"{address}.cni",
            fix=fix,
        )
