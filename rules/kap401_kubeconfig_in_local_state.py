"""Cluster credentials in a local state file.

## What it does
Reports a root module that creates a Kapsule cluster while keeping its Terraform state in a local file.

## Why is this bad
The Scaleway provider reads the full, non-redacted kubeconfig of every `scaleway_k8s_cluster` it
manages and records it in the state: the `kubeconfig` attribute holds the API server address,
the CA certificate and the cluster admin token. Marking the attribute sensitive (provider 2.12
and later) only hides it from plan output; the state file still holds the token in clear text.
With no `backend` or `cloud` block, or with `backend "local"`, that state is `terraform.tfstate`
on the disk of whoever ran the apply, a file that is easily copied, kept as a CI artifact or
committed by mistake; anyone who reads it holds admin rights on the cluster until the token is
reset. A remote backend with access control (Scaleway Object Storage speaks the S3
protocol), or OpenTofu's client-side state encryption, keeps the token off local disks.

The rule looks at root modules (a module no scanned module calls that has a provider block, a
backend or `cloud` block, a lock file or a tfvars file) that declare a cluster themselves or
through the local modules they call. A backend block of another type counts as remote even when
it is empty, a partial configuration completed by `terraform init -backend-config=...`.
Directories driven by Terragrunt, which usually generates the backend, are exempt, and so is a
root whose files could not all be parsed. A backend file that a script or a CI job writes before
`terraform init` is not in the repository, so kapsulint cannot see it: say so with a suppression
comment on the finding's line, or with a `[[per-path]]` entry (README, "Per-path settings").

Source: Scaleway Terraform provider, `internal/services/k8s/cluster.go` (kubeconfig schema and
read) and issue scaleway/terraform-provider-scaleway#4171 (https://github.com/scaleway/terraform-provider-scaleway/issues/4171).

## Example
```hcl
terraform {
  required_providers {
    scaleway = { source = "scaleway/scaleway" }
  }
}

resource "scaleway_k8s_cluster" "main" {
  # ...
}
```

## Use instead
```hcl
terraform {
  required_providers {
    scaleway = { source = "scaleway/scaleway" }
  }

  backend "s3" {
    bucket                      = "acme-terraform-state"
    key                         = "kapsule/prod.tfstate"
    region                      = "fr-par"
    endpoints                   = { s3 = "https://s3.fr-par.scw.cloud" }
    skip_credentials_validation = true
    skip_region_validation      = true
    skip_requesting_account_id  = true
  }
}
```

## References
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
- [Scaleway provider: state on Object Storage](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs)
- [Terraform backend configuration](https://developer.hashicorp.com/terraform/language/backend)
- [OpenTofu state and plan encryption](https://opentofu.org/docs/language/state/encryption/)
- [terraform-provider-scaleway#4171](https://github.com/scaleway/terraform-provider-scaleway/issues/4171)
"""

from collections.abc import Iterator

from kapsulint.api import (
    UNKNOWN,
    Block,
    Finding,
    ModuleCall,
    ModuleInstance,
    Project,
    Related,
    ResourceInstance,
    finding,
)
from kapsulint.kapsule import clusters

ID = "KAP401"
NAME = "kubeconfig-in-local-state"
SEVERITY = "error"
SECURITY = True

FIX_HINT = (
    'store the state remotely, e.g. terraform { backend "s3" { ... } } on Scaleway Object Storage '
    "(endpoint https://s3.fr-par.scw.cloud), or encrypt it with OpenTofu state encryption"
)


def _first(blocks: list[Block]) -> Block:
    """The first of some blocks, in file order."""
    return min(blocks, key=lambda b: (b.loc.path, b.loc.line, b.loc.column))


def _created_clusters(instance: ModuleInstance) -> list[ResourceInstance]:
    """The clusters this module instance certainly creates, itself or through its module calls."""
    found: list[ResourceInstance] = []
    for resource in instance.module.resources.values():
        if resource.mode == "managed" and resource.type in clusters.CLUSTER_RESOURCES:
            created = [i for i in instance.resource_instances(resource) if i.key is not UNKNOWN]
            found.extend(created[:1])
    for name in instance.module.calls:
        for child in instance.child_instances(name):
            if not child.address.endswith("[?]"):  # an Unknown count or for_each: may not exist
                found.extend(_created_clusters(child))
    return found


def _root_instances(project: Project) -> Iterator[ModuleInstance]:
    seen = set()
    for instance in project.instances():
        module = instance.module
        if module.root and module.path not in seen:
            seen.add(module.path)
            yield instance


def check(project: Project) -> Iterator[Finding]:
    for instance in _root_instances(project):
        module = instance.module
        if module.terragrunt or module.broken:
            continue
        if any(t.children("encryption") for t in module.terraform_blocks):
            continue
        local = [b for b in module.backends if b.labels[:1] == ["local"]]
        if module.clouds or len(local) < len(module.backends):
            continue
        direct: list[ResourceInstance] = []
        through: list[tuple[ModuleCall, ResourceInstance]] = []  # (module call in the root, cluster instance)
        for resource in module.resources.values():
            if resource.mode == "managed" and resource.type in clusters.CLUSTER_RESOURCES:
                direct.extend(i for i in instance.resource_instances(resource) if i.key is not UNKNOWN)
        for name, module_call in module.calls.items():
            for child in instance.child_instances(name):
                if not child.address.endswith("[?]"):
                    through.extend((module_call, c) for c in _created_clusters(child))
        if not direct and not through:
            continue
        direct.sort(key=lambda i: (i.block.loc.path, i.block.loc.line))
        through.sort(key=lambda pair: (pair[0].block.loc.path, pair[0].block.loc.line))
        cluster = direct[0] if direct else through[0][1]
        call = None if direct else through[0][0]

        related = [Related(cluster.block.loc, f"{cluster.address} stores its admin kubeconfig in the state")]
        if local:
            loc, reason = _first(local).loc, 'backend "local"'
        elif module.terraform_blocks:
            loc, reason = _first(module.terraform_blocks).loc, "no backend or cloud block"
        else:
            loc, reason = (cluster.block.loc if call is None else call.block.loc), "no terraform block with a backend"
        if call is not None and call.block.loc != loc:
            related.append(Related(call.block.loc, f"module.{call.name} creates the cluster"))
        related = [r for r in related if r.loc != loc]

        where = project.relative(module.path)
        yield finding(
            loc,
            f'root module "{where}" creates {cluster.address} but keeps its state in a local '
            f"terraform.tfstate ({reason}): the cluster admin token is stored there in plain text",
            subject=f"{where}",
            related=related,
            logical=f"{where}:terraform.backend",
            fix=FIX_HINT,
        )
