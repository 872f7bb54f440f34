"""Node type Kapsule refuses.

## What it does
Reports a Kapsule node pool whose `node_type` is an Instance type that Kapsule refuses.

## Why is this bad
Not every Instance type can become a Kapsule node. Scaleway's API and provider documentation
name the types with too little memory for a node as not eligible: `DEV1-S`, `PLAY2-PICO` and
`STARDUST1-S` (2 GiB of RAM or less; the exact memory threshold is kapsulint's inference from
that list). The retired ranges `START1`, `VC1`, `X64` and `ENT1` have reached their end of life
and can no longer be ordered. A pool of such a type passes `terraform plan` and fails at apply
time, when the cluster may already be half built; the pool has to be created again with another
type, since `node_type` cannot be changed in place.

The type is compared as the provider compares it: ignoring case, with `_` equal to `-`
(`dev1_s` is `DEV1-S`). The value is followed through variables, tfvars, locals, module
arguments and `for_each` maps; each instance of a pool is judged. Pools of Kosmos clusters
(`type = "multicloud*"`) and `node_type = "external"` pools are out of scope.

Sources: the Scaleway Go SDK's `CreatePoolRequest.NodeType` (https://github.com/scaleway/scaleway-sdk-go/blob/v1.0.0-beta.37/api/k8s/v1/k8s_sdk.go) and the
provider's `docs/resources/k8s_pool.md` (types not eligible for lack of memory); Scaleway's
historical offers (https://www.scaleway.com/en/docs/instances/reference-content/historical-offers/,
ENT1 end of life), https://github.com/scaleway/docs-content/pull/6631 and the API's
`end_of_service: true` for START1, VC1 and X64 (see
https://www.scaleway.com/en/docs/instances/reference-content/choosing-shared-vs-dedicated-cpus/, https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_pool.md, https://www.scaleway.com/en/docs/instances/reference-content/instances-datasheet/).

## Example
```hcl
resource "scaleway_k8s_pool" "apps" {
  cluster_id = scaleway_k8s_cluster.main.id
  node_type  = "DEV1-S"
  size       = 2
}
```

## Use instead
```hcl
resource "scaleway_k8s_pool" "apps" {
  cluster_id = scaleway_k8s_cluster.main.id
  node_type  = "DEV1-M"
  size       = 2
}
```

## References
- [scaleway_k8s_pool](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_pool)
- [Instances historical offers](https://www.scaleway.com/en/docs/instances/reference-content/historical-offers/)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, finding, shown
from kapsulint.kapsule import clusters, node_types

ID = "KAP203"
NAME = "ineligible-node-type"
SEVERITY = "error"


def _fix(node_type: str) -> str:
    alternative = node_types.eligible_alternative(node_type)
    if alternative is not None:
        return f'use node_type = "{alternative}" or a larger type'
    if node_types.is_end_of_life(node_type):
        return "move the pool to a current Instance type (for example a PRO2 or POP2 type)"
    return "use a type with more than 2 GiB of memory (for example a PRO2 or POP2 type)"


def check(project: Project) -> Iterator[Finding]:
    for pool in clusters.pools(project):
        if pool.in_kapsule_scope is not True:
            continue
        value = pool.node_type
        text = value.text()
        if not value.known or not isinstance(value.raw, str) or not text:
            continue
        reason = node_types.ineligibility_reason(text)
        if reason is None:
            continue
        loc = value.loc
        if loc is None:
            attribute = pool.instance.block.attr("node_type")
            if attribute is None:
                continue
            loc = attribute.value_loc
        address = pool.instance.resource.address
        yield finding(
            loc,
            f"{address} uses node type {shown(value)}, which Kapsule refuses: {reason}",
            subject=address,
            instance=pool.instance.address,
            logical=f"{address}.node_type",
            fix=_fix(text),
        )
