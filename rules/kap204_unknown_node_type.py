"""Unknown node type.

## What it does
Reports a node pool whose `node_type` is not an Instance type kapsulint knows.

## Why is this bad
`node_type` is a free string for Terraform: a typo (`PRO2-XXL`, `POP2-4C-8G` for a size that
does not exist, `GP1-XXS`) is only caught by the Kapsule API when the pool is created, so the
plan looks fine and the apply fails. When the type belongs to a known range but the size is
unknown, the message suggests the closest existing size of that range.

The type is compared as the provider compares it: ignoring case, with `_` equal to `-`. The list
of known types comes from the Instance catalogue recorded in the provider's test recordings
(2025-10 to 2026-08); it is not a per-zone availability map, and Scaleway adds types over time.
A type released since then can be declared in the configuration, which silences the rule for it:

```toml
# .kapsulint.toml
extra-node-types = ["POP3-4C-16G"]
```

`node_type = "external"` (Kosmos pools of other clouds' machines) and pools of Kosmos clusters
are out of scope, and so are types KAP203 already reports as refused (the end-of-life ranges).

Sources: `GET /instance/v1/zones/{zone}/products/servers` responses in the Scaleway provider's
recorded API tests; the provider's `IgnoreCaseAndHyphen` comparison of `node_type` (see
https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_pool.md, https://www.scaleway.com/en/docs/instances/reference-content/instances-datasheet/).

## Example
```hcl
resource "scaleway_k8s_pool" "apps" {
  cluster_id = scaleway_k8s_cluster.main.id
  node_type  = "PRO2-XXL"
  size       = 2
}
```

## Use instead
```hcl
resource "scaleway_k8s_pool" "apps" {
  cluster_id = scaleway_k8s_cluster.main.id
  node_type  = "PRO2-XL"
  size       = 2
}
```

## References
- [scaleway_k8s_pool](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_pool)
- [Instances datasheet](https://www.scaleway.com/en/docs/instances/reference-content/instances-datasheet/)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, finding, shown
from kapsulint.kapsule import clusters, node_types

ID = "KAP204"
NAME = "unknown-node-type"
SEVERITY = "warning"

_DECLARE = "or list it under extra-node-types in .kapsulint.toml if it is a new type"


def check(project: Project) -> Iterator[Finding]:
    for pool in clusters.pools(project):
        if pool.in_kapsule_scope is not True:
            continue
        value = pool.node_type
        text = value.text()
        if not value.known or not isinstance(value.raw, str) or not text or not text.strip():
            continue
        if node_types.known_node_type(project, text) or node_types.ineligibility_reason(text) is not None:
            continue
        loc = value.loc
        if loc is None:
            attribute = pool.instance.block.attr("node_type")
            if attribute is None:
                continue
            loc = attribute.value_loc
        address = pool.instance.resource.address
        # a suggestion or a family read out of a sensitive value would tell part of it
        hidden = value.contains_sensitive()
        suggestion = None if hidden else node_types.suggest_node_type(text)
        family = None if hidden else node_types.node_type_family(text)
        if suggestion is not None:
            message = (
                f"{address} uses node type {shown(value)}, which is not a known {family} size: "
                f'did you mean "{suggestion}"?'
            )
            fix = f'use node_type = "{suggestion}" {_DECLARE}'
        elif family is not None:
            message = f"{address} uses node type {shown(value)}, which is not a known {family} size"
            fix = f"use an existing {family} size {_DECLARE}"
        else:
            message = f"{address} uses node type {shown(value)}, which is not a known Scaleway Instance type"
            fix = f"check the spelling against the Instance types {_DECLARE}"
        yield finding(
            loc,
            message,
            subject=address,
            instance=pool.instance.address,
            logical=f"{address}.node_type",
            fix=fix,
        )
