"""Cluster on the shared control plane.

## What it does
Reports a cluster that gets the free, mutualized control plane by omission: `type` is absent (or
null), so Scaleway applies the default `kapsule` offer. A `type` that is written, even `"kapsule"`
or `"multicloud"`, is a deliberate choice and is not reported; the rule fires once per cluster
block.

## Why is this bad
When `type` is left out, or set to `kapsule` or `multicloud`, Scaleway gives the cluster its
mutualized control-plane offer. It costs nothing, but it comes with no SLA, a single (resilient)
API server replica instead of two, an etcd database capped at 55 MB (200 MB on dedicated
offers), no audit logs and, for Kapsule, at most 150 nodes. A restart of that one API server, or
an etcd that fills up with many objects (CRDs, secrets, config maps), stops deployments,
autoscaling and controllers until it recovers. The recorded API answers describe the Kapsule
offer only: that the Kosmos `multicloud` offer has the same figures is not confirmed.

That is fine for development and tests; a production cluster is better served by a dedicated
offer (`kapsule-dedicated-4`, `-8` or `-16`; `multicloud-dedicated-*` for Kosmos), which
Scaleway backs with a 99.5 % SLA. Dedicated offers are billed hourly with a 30-day commitment,
and a later change of `type` to a lower tier is refused during that period. This is advice, so
the rule is a note: suppress it for clusters where the shared control plane is a deliberate
choice, or write `type = "kapsule"` to say so in the code. It stays silent when `type` cannot be
known before apply.

Source: Scaleway documentation, "Kubernetes control plane offers" and the Kapsule FAQ; the
`available-types` answer of the Kapsule API recorded in the Scaleway Terraform provider's test
cassettes (https://www.scaleway.com/en/docs/kubernetes/reference-content/kubernetes-control-plane-offers/).

## Example
```hcl
resource "scaleway_k8s_cluster" "main" {
  name    = "prod"
  version = "1.35"
  cni     = "cilium"
  # no type: the mutualized control plane
}
```

## Use instead
```hcl
resource "scaleway_k8s_cluster" "main" {
  name    = "prod"
  type    = "kapsule-dedicated-4"
  version = "1.35"
  cni     = "cilium"
}
```

## References
- [Kubernetes control plane offers](https://www.scaleway.com/en/docs/kubernetes/reference-content/kubernetes-control-plane-offers/)
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, finding
from kapsulint.kapsule import clusters

ID = "KAP106"
NAME = "shared-control-plane"
SEVERITY = "note"


def check(project: Project) -> Iterator[Finding]:
    for cluster in clusters.clusters(project):
        if cluster.type_value.raw is not None:
            continue  # a written type, even "kapsule", is a deliberate choice
        instance = cluster.instance
        address = instance.resource.address
        yield finding(
            instance.block.loc,
            f'{address} has no type, so it gets the default "kapsule" offer: the mutualized control '
            "plane has no SLA, one API server replica and an etcd capped at 55 MB",
            subject=address,
            instance=instance.address,
            logical=f"{address}.type",
            fix='write type = "kapsule" to keep the shared control plane on purpose, or for '
            'production a dedicated one such as type = "kapsule-dedicated-4" (30-day commitment)',
        )
