"""Pool version ignored or behind its cluster.

## What it does
Reports a pool `version` that the cluster's `upgrade_pools` makes the provider ignore, or that is
an older minor than its cluster's `version`.

## Why is this bad
Since provider 2.77.0 a pool can be given its own `version`, but the provider takes it into
account only when the cluster sets `upgrade_pools = false` (its default is `true`: the cluster's
upgrades carry the pools along). With `upgrade_pools` left on, a pool `version` that is not the
cluster's is not what the pool runs: the author reads one version in the code while the nodes
run another, and the plan shows a difference at every refresh. With `upgrade_pools = false` the
pool keeps the version written; one older minor than the cluster's means kubelets behind the API
server, which Kubernetes' version skew policy bounds, and which the next cluster upgrade widens.
At creation a pool always starts on the cluster's version.

A pool `version` read from the cluster's own `version` (`scaleway_k8s_cluster.main.version`, or one
variable written for both) moves with it and is not reported. Versions kapsulint cannot compute
stay silent. The finding points at the pool's `version`.

Source: Scaleway Terraform provider, `docs/resources/k8s_pool.md` ("For the field to be properly
taken into account, the `upgrade_pools` field of the cluster must be set to `false`") and
`docs/resources/k8s_cluster.md` (`upgrade_pools`, defaults to `true`),
https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_pool.md;
Kubernetes version skew policy, https://kubernetes.io/releases/version-skew-policy/.

## Example
```hcl
resource "scaleway_k8s_cluster" "main" {
  version = "1.35.3"
}

resource "scaleway_k8s_pool" "apps" {
  cluster_id = scaleway_k8s_cluster.main.id
  version    = "1.34.2"
}
```

## Use instead
```hcl
resource "scaleway_k8s_cluster" "main" {
  version       = "1.35.3"
  upgrade_pools = false # pools are upgraded one by one
}

resource "scaleway_k8s_pool" "apps" {
  cluster_id = scaleway_k8s_cluster.main.id
  version    = scaleway_k8s_cluster.main.version
}
```

## References
- [scaleway_k8s_pool](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_pool)
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
- [Kubernetes version skew policy](https://kubernetes.io/releases/version-skew-policy/)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, Related, finding, shown
from kapsulint.kapsule import clusters

ID = "KAP211"
NAME = "pool-version-out-of-step"
SEVERITY = "warning"


def check(project: Project) -> Iterator[Finding]:
    for pool in clusters.pools(project):
        cluster = pool.cluster
        if not pool.is_resource or cluster is None or pool.instance.block.attr("version") is None:
            continue
        version = pool.instance.arg("version")
        cluster_version = cluster.instance.arg("version")
        if not version.known or version.loc is None or version.raw is None:
            continue
        if cluster_version.loc is not None and version.loc == cluster_version.loc:
            continue  # one written value for both: they move together
        upgrade = cluster.instance.arg("upgrade_pools")
        upgrades_pools = True if upgrade.raw is None else (upgrade.is_true() if upgrade.known else None)
        address = pool.instance.resource.address
        cluster_address = cluster.instance.resource.address
        related = [Related(upgrade.loc if upgrade.loc is not None else cluster.instance.block.loc,
                           "upgrade_pools = true" if upgrade.raw is not None else "upgrade_pools is not set (true)")]
        if upgrades_pools is True:
            if version.text() == cluster_version.text() and cluster_version.known:
                continue  # the same version, written twice
            message = (f"{address} sets version {shown(version)}, which the provider ignores: "
                       f"{cluster_address} upgrades its pools (upgrade_pools defaults to true)")
            hint = f"set upgrade_pools = false on {cluster_address}, or drop the pool's version"
        elif upgrades_pools is False:
            pool_minor = clusters.parse_kubernetes_version(version.text() or "")
            cluster_minor = cluster.kubernetes_version
            if pool_minor is None or cluster_minor is None or pool_minor[:2] >= cluster_minor[:2]:
                continue
            related = [Related(cluster.version_location()[0] or cluster.instance.block.loc, "the cluster's version")]
            message = (f"{address} stays on Kubernetes {shown(version)}, a minor behind {cluster_address} "
                       f"({shown(cluster_version)}): its kubelets lag the API server until the pool is upgraded")
            hint = "upgrade the pool's version to the cluster's minor"
        else:
            continue
        yield finding(
            version.loc,
            message,
            subject=address,
            instance=pool.instance.address,
            related=related,
            logical=f"{address}.version",
            fix=hint,
        )
