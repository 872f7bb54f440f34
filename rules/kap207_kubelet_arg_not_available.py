"""Kubelet argument Kapsule does not accept.

## What it does
Reports a `kubelet_args` key of a Kapsule node pool that the Kapsule API does not offer for the
cluster's Kubernetes version.

## Why is this bad
Kapsule does not pass `kubelet_args` to the kubelet as command-line flags: it accepts a short list
of KubeletConfiguration fields, spelt in camelCase (`maxPods`, `evictionHard`,
`containerLogMaxSize`, `cpuManagerPolicy`, ...). The provider checks no key, so anything else,
such as the flags `node-labels` or `register-with-taints` or the kebab-case `max-pods`, passes
`terraform plan` and the API refuses the pool at apply ("kubelet argument node-labels is not
available for this version"). Node labels and taints have their own pool arguments (`labels`,
`taints`, or `tags`).

The accepted keys are those the API listed for Kubernetes 1.31 to 1.35 (the same sixteen for
each). When the cluster's version is not known (not in the scan, `"latest"`, computed), a key none
of those versions accepts is still reported; for a version outside 1.31 to 1.35 nothing is judged.
Pools of Kosmos clusters and `external` pools are out of scope. The finding points at the key,
with the closest accepted key in the fix when there is one.

Source: the Kapsule API's `available_kubelet_args` per version
(https://www.scaleway.com/en/developers/api/kubernetes/#path-versions-list-all-available-versions),
recorded in the Scaleway Terraform provider's test cassettes
(https://github.com/scaleway/terraform-provider-scaleway/tree/v2.81.0/internal/services/k8s/testdata),
and the API's refusal of `node-labels`
(https://github.com/scaleway/crossplane-provider-scaleway/issues/194).

## Example
```hcl
resource "scaleway_k8s_pool" "apps" {
  cluster_id = scaleway_k8s_cluster.main.id
  node_type  = "POP2-4C-16G"
  size       = 3
  kubelet_args = {
    "max-pods"    = "60"
    "node-labels" = "role=apps"
  }
}
```

## Use instead
```hcl
resource "scaleway_k8s_pool" "apps" {
  cluster_id = scaleway_k8s_cluster.main.id
  node_type  = "POP2-4C-16G"
  size       = 3
  labels     = { role = "apps" }
  kubelet_args = {
    maxPods = "60"
  }
}
```

## Fix
Renames a misspelt key to the accepted one it most likely meant (`max-pods` becoming `maxPods`:
the same letters up to case, `-` and `_`, or a close spelling), where the map is written, keeping
its quoting and re-aligning the `=` signs as `terraform fmt` does. No fix for `node-labels` and
`register-with-taints` (moving them to the pool's `labels` and `taints` rewrites their syntax),
for a key with no close accepted one, or for a map computed or read by other expressions too.

Unsafe: the pool's kubelet configuration changes, which Kapsule applies to its nodes, and a close
spelling is a guess; read the change before applying it.

## References
- [scaleway_k8s_pool](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_pool)
- [Kapsule API: list available versions](https://www.scaleway.com/en/developers/api/kubernetes/#path-versions-list-all-available-versions)
"""

from collections.abc import Iterator

from kapsulint.api import (
    SENSITIVE_VALUE,
    Finding,
    Fix,
    Project,
    Val,
    finding,
    fix,
    key_edit,
    written_text,
)
from kapsulint.kapsule import clusters, version_features

ID = "KAP207"
NAME = "kubelet-arg-not-available"
SEVERITY = "error"
FIX = "unsafe"

_OWN_ARGUMENTS = {"node-labels": "labels", "register-with-taints": "taints"}


def check(project: Project) -> Iterator[Finding]:
    for pool in clusters.pools(project):
        if pool.in_kapsule_scope is not True:
            continue
        args = pool.instance.arg("kubelet_args")
        if not args.known or not args.is_object:
            continue
        cluster = pool.cluster
        version = cluster.kubernetes_version if cluster is not None else None
        minor = (version[0], version[1]) if version is not None and len(version) >= 2 else None
        accepted = version_features.offered("kubelet_args", minor)
        if accepted is None:
            continue
        address = pool.instance.resource.address
        on = f"Kubernetes {minor[0]}.{minor[1]}" if minor is not None else "any Kubernetes version it offers"
        for key, _ in args.items():
            if key in accepted:
                continue
            loc = args.key_loc(key)
            if loc is None:
                continue
            hidden = bool(args.sensitive)  # the keys of a sensitive map are sensitive too
            own = None if hidden else _OWN_ARGUMENTS.get(key.strip().lstrip("-"))
            meant = None if hidden else version_features.closest(key, accepted)
            autofix = None
            if own is not None:
                hint = f"remove it and use the pool's {own} argument"
            elif meant is not None:
                hint = f"write {meant}"
                autofix = _rename(project, args, key, meant)
            else:
                hint = "remove it; Kapsule accepts: " + ", ".join(sorted(accepted))
            yield finding(
                loc,
                f"kubelet_args of {address} sets {SENSITIVE_VALUE if hidden else repr(key)}, which Kapsule does not "
                f"accept on {on}: the API refuses the pool",
                subject=address,
                instance=pool.instance.address,
                logical=f"{address}.kubelet_args.{key}",
                fix=hint,
                autofix=autofix,
            )


def _rename(project: Project, args: Val, key: str, meant: str) -> Fix | None:
    """The key renamed where it is written, quoted as it was."""
    loc = args.key_loc(key)
    written = written_text(project, loc) if loc is not None else None
    if not written:
        return None
    text = f'"{meant}"' if written.startswith('"') else meant
    return fix("unsafe", f"write {meant}", key_edit(project, args, key, text))
