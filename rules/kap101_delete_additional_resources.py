"""Cluster with delete_additional_resources = true.

## What it does
Reports a cluster with `delete_additional_resources = true`.

## Why is this bad
When Terraform destroys a cluster with this flag, Scaleway also deletes what the cluster created
around it: every Block Storage volume of its persistent volumes (including those of a `retain`
storage class), the load balancers named after the cluster, and its private network when nothing
else uses it. A `terraform destroy` of the wrong workspace, or a replacement forced by a changed
argument, then loses data that should have outlived the cluster. The argument is required since
provider 2.10, so it is often set to `true` without thinking.

Source: Scaleway Terraform provider, `docs/resources/k8s_cluster.md` and
`internal/services/k8s/cluster.go` (https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_cluster.md).

## Example
```hcl
resource "scaleway_k8s_cluster" "main" {
  delete_additional_resources = true
}
```

## Use instead
```hcl
resource "scaleway_k8s_cluster" "main" {
  delete_additional_resources = false
}
```

## Fix
Replaces the `true` with `false` where it is written: the cluster's own argument, or the
variable default, local, module argument or tfvars assignment it comes from when nothing else
reads that value. No fix when the value is computed (`var.env == "prod" ? false : true`) or read
by other expressions too, since changing it there would change them as well.

Unsafe: the argument is only read when the cluster is deleted, so `terraform plan` shows an
in-place update of the cluster that changes nothing on Scaleway, but it changes what a later
`terraform destroy` does. The volumes, load balancers and private network the cluster created
are then kept, and billed, until someone deletes them: a throwaway cluster (a CI or preview
environment) may have relied on the cleanup.

## References
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, finding, fix, literal_edit
from kapsulint.kapsule import clusters

ID = "KAP101"
NAME = "delete-additional-resources"
SEVERITY = "warning"
FIX = "unsafe"


def check(project: Project) -> Iterator[Finding]:
    for cluster in clusters.clusters(project):
        value = cluster.instance.arg("delete_additional_resources")
        if value.is_true() and value.loc is not None:
            yield finding(
                value.loc,
                f"{cluster.instance.resource.address} deletes its volumes, load balancers and private "
                "network when destroyed (delete_additional_resources = true)",
                subject=cluster.instance.resource.address,
                instance=cluster.instance.address,
                logical=f"{cluster.instance.resource.address}.delete_additional_resources",
                fix="set delete_additional_resources = false",
                autofix=fix("unsafe", "set delete_additional_resources = false",
                            literal_edit(project, value, "false")),
            )
