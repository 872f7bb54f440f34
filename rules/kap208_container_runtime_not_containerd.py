"""Container runtime other than containerd.

## What it does
Reports a Kapsule node pool whose `container_runtime` is not `containerd`.

## Why is this bad
Scaleway's documentation states that containerd is the only runtime supported by Scaleway
Kubernetes products. The provider and the API's enum still list `docker` and `crio`, so the value
passes `terraform plan`, but the API offers only `containerd` for every current Kubernetes
version: the pool is refused at creation, or, on an old pool, keeps a runtime Scaleway no longer
supports. `container_runtime` cannot change in place, so correcting it replaces the pool and its
nodes.

The rule judges pools of Kapsule clusters (a pool whose cluster is not in the scan counts as
Kapsule) and skips `node_type = "external"` pools. `null` or an absent `container_runtime` is
the provider's default, `containerd`; a value kapsulint cannot compute stays silent.

Source: Scaleway documentation, "Version support policy"
(https://www.scaleway.com/en/docs/kubernetes/reference-content/version-support-policy/), and the
provider's `container_runtime` argument
(https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_pool.md).

## Example
```hcl
resource "scaleway_k8s_pool" "apps" {
  cluster_id        = scaleway_k8s_cluster.main.id
  node_type         = "POP2-4C-16G"
  size              = 3
  container_runtime = "docker"
}
```

## Use instead
```hcl
resource "scaleway_k8s_pool" "apps" {
  cluster_id = scaleway_k8s_cluster.main.id
  node_type  = "POP2-4C-16G"
  size       = 3
}
```

## Fix
Removes `container_runtime` from the pool when the runtime is written there (containerd is the
provider's default), or writes `"containerd"` where the value comes from: the variable default,
local, module argument or tfvars assignment, when nothing else reads it. No fix for a computed
value or one that other expressions read too.

Unsafe: `container_runtime` forces a new pool, so `terraform plan` shows the pool replaced: its
nodes are drained and deleted (with `create_before_destroy`, after the new ones are up).

## References
- [scaleway_k8s_pool](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_pool)
- [Kapsule version support policy](https://www.scaleway.com/en/docs/kubernetes/reference-content/version-support-policy/)
"""

from kapsulint.api import Project, Related, finding, fix, literal_edit, remove_attribute, shown
from kapsulint.kapsule import clusters, pool_options

ID = "KAP208"
NAME = "container-runtime-not-containerd"
SEVERITY = "error"
FIX = "unsafe"


def check(project: Project):
    for pool in clusters.pools(project):
        if pool.in_kapsule_scope is not True:
            continue
        instance = pool.instance
        runtime = instance.arg("container_runtime")
        text = runtime.text()
        if not runtime.known or text is None or not isinstance(runtime.raw, str):
            continue
        if pool_options.is_supported_runtime(text):
            continue
        written = instance.block.attr("container_runtime")
        loc = runtime.loc or (written.value_loc if written is not None else None)
        if loc is None:
            continue
        related = []
        if written is not None and written.value_loc != loc:
            related.append(Related(written.value_loc, "the runtime the pool uses"))
        address = instance.resource.address
        if written is not None and written.value_loc == loc:
            autofix = fix("unsafe", "remove container_runtime (containerd is the default)",
                          remove_attribute(project, written))
        else:
            autofix = fix("unsafe", 'set container_runtime to "containerd"', literal_edit(project, runtime, '"containerd"'))
        yield finding(
            loc,
            f"{address} uses container_runtime {shown(runtime)}: containerd is the only runtime "
            "Kapsule supports",
            subject=address,
            instance=instance.address,
            related=related,
            logical=f"{address}.container_runtime",
            fix='remove container_runtime or set it to "containerd" (changing it replaces the pool)',
            autofix=autofix,
        )
