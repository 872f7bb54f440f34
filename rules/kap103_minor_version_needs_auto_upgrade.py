"""
## What it does
Reports a cluster whose `version` is a bare minor version `x.y` while auto-upgrade is not enabled.

## Why is this bad
A minor version such as `"1.35"` tells Kapsule which line to follow and leaves the patch release
to the auto-upgrade feature; the Scaleway provider accepts that form only when
`auto_upgrade { enable = true }` is set. Without the `auto_upgrade` block, or with
`enable = false`, every plan fails with "minor version x.y must only be used with auto upgrade
enabled", so the cluster can be neither created nor updated. The provider tells the two forms
apart by the number of dot-separated parts in the string.

Source: Scaleway Terraform provider, `internal/services/k8s/cluster.go` (CustomizeDiff, Create
and Update) and `docs/resources/k8s_cluster.md` (knowledge/scaleway.md §2.1).

## Example
```hcl
resource "scaleway_k8s_cluster" "main" {
  version = "1.35"
}
```

## Use instead
Let Kapsule apply patch releases inside the maintenance window:
```hcl
resource "scaleway_k8s_cluster" "main" {
  version = "1.35"

  auto_upgrade {
    enable                        = true
    maintenance_window_start_hour = 3
    maintenance_window_day        = "sunday"
  }
}
```
or pin an exact release and upgrade it yourself:
```hcl
resource "scaleway_k8s_cluster" "main" {
  version = "1.35.3"
}
```

## References
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
- [Kapsule version support policy](https://www.scaleway.com/en/docs/kubernetes/reference-content/version-support-policy/)
"""

from kapsulint.api import Related, finding, shown
from kapsulint.kapsule import clusters

ID = "KAP103"
NAME = "minor-version-needs-auto-upgrade"
SEVERITY = "error"


def _is_minor(text: str) -> bool:
    """The provider's own test: the version splits into exactly two parts on "."."""
    return len(text.split(".")) == 2


def _auto_upgrade_off(instance):
    """(True, related) when auto-upgrade is certainly off; (False, None) when on or Unknown."""
    block = instance.block
    if block.attr("auto_upgrade") is not None:
        return False, None  # not the block syntax: leave it to Terraform
    if any(d.labels[:1] == ["auto_upgrade"] for d in block.children("dynamic")):
        return False, None  # a dynamic block: Unknown
    blocks = instance.nested("auto_upgrade")
    if not blocks:
        return True, None
    enable = instance.eval_in(blocks[0], "enable")
    if enable.known and enable.is_false() and enable.loc is not None:
        return True, Related(enable.loc, "auto-upgrade is disabled here")
    return False, None  # enabled, Unknown, or missing (KAP109 reports an incomplete block)


def check(project):
    for cluster in clusters.clusters(project):
        instance = cluster.instance
        version = instance.arg("version")
        text = version.text()
        if not version.known or text is None or not _is_minor(text):
            continue
        off, why = _auto_upgrade_off(instance)
        if not off:
            continue
        written = instance.block.attr("version")
        loc = version.loc or (written.value_loc if written is not None else None)
        if loc is None:
            continue
        related = []
        if written is not None and written.value_loc != loc:
            related.append(Related(written.value_loc, "the version the cluster uses"))
        if why is not None:
            related.append(why)
        state = "auto-upgrade disabled" if why is not None else "no auto_upgrade block"
        address = instance.resource.address
        yield finding(
            loc,
            f"{address} uses the minor version {shown(version)} with {state}: the Scaleway "
            'provider accepts "x.y" only when auto_upgrade.enable is true, and the plan fails',
            subject=address,
            instance=instance.address,
            related=related,
            logical=f"{address}.version",
            fix="enable auto-upgrade: an auto_upgrade block with enable = true and its maintenance window "
            '(start hour and day), or pin a full release such as "1.35.3"',
        )
