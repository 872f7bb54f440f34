"""CA certificate not base64-decoded.

## What it does
Reports a `helm` or `kubernetes` provider given a Kapsule cluster's `cluster_ca_certificate` without `base64decode()`.

## Why is this bad
The `kubeconfig` of a `scaleway_k8s_cluster` (resource or data source) exports
`cluster_ca_certificate` base64-encoded, as it appears in a kubeconfig file. The `kubernetes`
and `helm` providers expect the PEM certificate itself in their `cluster_ca_certificate`
argument, so the encoded value makes every connection to the API server fail, and the plan or
apply of every Kubernetes resource and Helm release with it. Scaleway's own examples wrap the
value in `base64decode()`.

The rule follows the value through locals, variables, module outputs and the `triggers` of a
`null_resource` (the pattern Scaleway documents to wait for the first pool), and is satisfied
by a `base64decode()` anywhere on that path. It checks `provider "kubernetes"`, and
`provider "helm"` in both forms: the `kubernetes { ... }` block of Helm provider 2.x and the
`kubernetes = { ... }` attribute of 3.x.

Source: Scaleway Terraform provider, `docs/resources/k8s_cluster.md` (kubeconfig attributes and
the provider configuration example) and `internal/services/k8s/cluster.go` (https://github.com/scaleway/terraform-provider-scaleway/issues/4171, https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_cluster.md).

## Example
```hcl
provider "helm" {
  kubernetes = {
    host                   = scaleway_k8s_cluster.main.kubeconfig[0].host
    token                  = scaleway_k8s_cluster.main.kubeconfig[0].token
    cluster_ca_certificate = scaleway_k8s_cluster.main.kubeconfig[0].cluster_ca_certificate
  }
}
```

## Use instead
```hcl
provider "helm" {
  kubernetes = {
    host                   = scaleway_k8s_cluster.main.kubeconfig[0].host
    token                  = scaleway_k8s_cluster.main.kubeconfig[0].token
    cluster_ca_certificate = base64decode(scaleway_k8s_cluster.main.kubeconfig[0].cluster_ca_certificate)
  }
}
```

## Fix
Wraps the provider's argument in `base64decode()` where the provider block writes it (also when
the value comes through a local, a variable or a module output, so those other readers keep the
encoded form). No fix when the argument is the whole `kubernetes = local.object` of Helm 3 (the
member is not written there), or when the expression also reads an already decoded certificate.
Safe: a provider's configuration is no infrastructure; `terraform plan` then connects to the API
server instead of failing, and shows no change caused by the fix.

## References
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
- [Kubernetes provider configuration](https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs)
- [Helm provider configuration](https://registry.terraform.io/providers/hashicorp/helm/latest/docs)
- [Terraform base64decode function](https://developer.hashicorp.com/terraform/language/functions/base64decode)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, Related, finding, fix, wrap_edit
from kapsulint.kapsule import kubeconfig

ID = "KAP405"
NAME = "ca-certificate-not-decoded"
SEVERITY = "error"
FIX = "safe"

ARGUMENT = kubeconfig.CA_CERTIFICATE


def check(project: Project) -> Iterator[Finding]:
    for instance in project.instances():
        where = project.relative(instance.module.path)
        for block in instance.module.providers:
            if block.labels[:1] not in (["helm"], ["kubernetes"]):
                continue
            label = block.labels[0]
            alias = block.attr("alias")
            name = f'provider "{label}"'
            if alias is not None and alias.is_literal:
                name += f' (alias "{alias.literal_value}")'
            for loc, expression, suffix in kubeconfig.ca_certificate_places(block):
                certificates = [u for u in kubeconfig.uses_in(instance, expression, suffix) if u.field == ARGUMENT]
                uses = [u for u in certificates if not u.decoded]
                if not uses:
                    continue
                autofix = None
                if not suffix and len(uses) == len(certificates):
                    autofix = fix("safe", "wrap the value in base64decode()", wrap_edit(project, loc, "base64decode"))
                related = [Related(u.loc, f"read from {u.reference}, base64-encoded") for u in uses if u.loc != loc]
                yield finding(
                    loc,
                    f"{name} gets cluster_ca_certificate from {uses[0].reference}, which is base64-encoded: "
                    "without base64decode() the provider cannot verify the API server and every "
                    "connection fails",
                    subject=name,
                    related=related,
                    logical=f"{where}:{name}.{ARGUMENT}",
                    fix="wrap the value in base64decode()",
                    autofix=autofix,
                )
