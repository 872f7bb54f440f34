"""Helm provider v2 syntax on v3.

## What it does
Reports Helm provider v2 block syntax (`set {}`, `set_list {}`, `set_sensitive {}`,
`kubernetes {}`...) in a configuration that uses the Helm provider 3.x.

## Why is this bad
Helm provider 3.0.0 moved to the Terraform Plugin Framework and changed its schema: in
`helm_release` (and the `helm_template` data source), `set`, `set_list` and `set_sensitive` are
now lists of objects (`set = [{ name = ..., value = ... }]`), `postrender` a single object; in
`provider "helm"`, `kubernetes` and `experiments` are single objects (`kubernetes = { ... }`) and
`registry` blocks became the `registries` list. Terraform refuses the old block form at
`terraform plan`, so nothing is applied until every block is rewritten. The Kapsule example in the
Scaleway provider's documentation still uses the v2 blocks, which makes copying it onto a current
provider a common way to hit this; `dynamic "set"` blocks are v2 syntax too.

The provider version is read from `.terraform.lock.hcl`; without a lock file it is the newest
known release the `required_providers` constraints admit (what `terraform init` installs: `>=
2.11.0` or no constraint at all means 3.x). A constraint Terraform refuses (`"2.x"`) leaves the
version unknown and the rule silent (KAP010 reports the constraint). Files in JSON syntax
(`.tf.json`) are not checked: JSON has one form for blocks and attributes, which Terraform tells
apart by the provider's schema.

Sources: terraform-provider-helm `docs/guides/v3-upgrade-guide.md` and
`helm/resource_helm_release.go` (v3.1.2); terraform-provider-scaleway
`docs/resources/k8s_cluster.md` (https://github.com/hashicorp/terraform-provider-helm/blob/v3.1.2/docs/guides/v3-upgrade-guide.md, https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_cluster.md).

## Example
```hcl
provider "helm" {
  kubernetes {
    host = scaleway_k8s_cluster.main.kubeconfig[0].host
  }
}

resource "helm_release" "ingress" {
  set {
    name  = "controller.service.type"
    value = "LoadBalancer"
  }
}
```
with `hashicorp/helm` 3.0.2 in the lock file.

## Use instead
```hcl
provider "helm" {
  kubernetes = {
    host = scaleway_k8s_cluster.main.kubeconfig[0].host
  }
}

resource "helm_release" "ingress" {
  set = [{
    name  = "controller.service.type"
    value = "LoadBalancer"
  }]
}
```
or keep the blocks and constrain the provider to `~> 2.17`.

## References
- [Helm provider v3 upgrade guide](https://registry.terraform.io/providers/hashicorp/helm/latest/docs/guides/v3-upgrade-guide)
- [helm_release](https://registry.terraform.io/providers/hashicorp/helm/latest/docs/resources/release)
"""

from kapsulint.api import Project, finding
from kapsulint.kapsule import helm_provider

ID = "KAP312"
NAME = "helm-v2-syntax-on-v3"
SEVERITY = "error"


def check(project: Project):
    for module in helm_provider.module_instances(project):
        resolved = helm_provider.helm_provider_version(module)
        if resolved is None or helm_provider.is_helm_v3(resolved.version) is not True:
            continue
        for block in helm_provider.v2_blocks(module):
            yield finding(
                block.loc,
                f"{block.owner} writes `{block.block_type}` as a block, which the Helm provider "
                f"{resolved.text} ({resolved.origin}) refuses: v3 writes {block.v3_form}",
                subject=block.owner,
                instance=f"{module.address}.{block.owner}" if module.address and block.resource else None,
                logical=f"{block.owner}.{block.block_type}",
                fix=f"write {block.v3_form}, or constrain hashicorp/helm to ~> 2.17 and lock it",
            )
