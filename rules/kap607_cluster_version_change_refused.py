"""Kubernetes version lowered, or raised by more than one minor.

## What it does
Reports, with `--plan`, a cluster whose Kubernetes `version` the plan lowers, or raises by more
than one minor version at once.

## Why is this bad
Kapsule upgrades a cluster in place, one minor version at a time: "It is not possible to downgrade
your Kubernetes version once it has been upgraded", and an upgrade over several minors has to
"repeat the steps for each minor version". A plan from 1.33 to 1.35, or from 1.34.2 back to 1.33.8,
is refused by the API when applied: the apply fails midway through the plan, with whatever was
planned before the cluster already changed.

The versions compared are the state's (`before`) and the plan's (`after`): `x.y` with
auto-upgrade, `x.y.z` otherwise. The finding is at the cluster's `version`.

Source: Scaleway, "How to upgrade the Kubernetes version on a Kapsule cluster"
(https://www.scaleway.com/en/docs/kubernetes/how-to/upgrade-kubernetes-version/).

## Example
```hcl
resource "scaleway_k8s_cluster" "main" {
  version = "1.35.3"   # the state holds 1.33.10
  # ...
}
```

## Use instead
Upgrade one minor at a time: `version = "1.34.6"`, apply, check the workloads (and the pools'
versions), then `version = "1.35.3"`.

## References
- [How to upgrade the Kubernetes version on a Kapsule cluster](https://www.scaleway.com/en/docs/kubernetes/how-to/upgrade-kubernetes-version/)
- [Version support policy](https://www.scaleway.com/en/docs/kubernetes/reference-content/version-support-policy/)
"""

from typing import Iterator

from kapsulint.api import Finding, Project, finding, shown
from kapsulint.kapsule import planned
from kapsulint.kapsule.replacement_facts import CLUSTER

ID = "KAP607"
NAME = "cluster-version-change-refused"
SEVERITY = "error"


def check(project: Project) -> Iterator[Finding]:
    for bound in planned.changes(project, CLUSTER):
        if not bound.change.is_update:
            continue
        before, after = bound.before("version"), bound.after("version")
        old, new = planned.minor_of(planned.text_of(before)), planned.minor_of(planned.text_of(after))
        if old is None or new is None or old[0] != new[0]:
            continue
        if new[:2] < old[:2] or (new[:2] == old[:2] and None not in (old[2], new[2]) and new < old):
            problem = "lowers it: Kapsule cannot downgrade a cluster, and the apply fails"
        elif new[1] - old[1] > 1:
            problem = (f"raises it by {new[1] - old[1]} minor versions at once: Kapsule upgrades one minor at a "
                       "time, and the apply fails")
        else:
            continue
        value = bound.instance.arg("version") if bound.instance is not None else None
        written = bound.block.attr("version") if bound.block is not None else None
        loc = (value.loc if value is not None and value.loc is not None else
               written.value_loc if written is not None else bound.loc)
        yield finding(
            loc,
            f"the plan changes the Kubernetes version of {bound.subject} from {shown(before)} to {shown(after)} "
            f"and {problem}",
            subject=bound.subject,
            secret=value is not None and value.contains_sensitive(),
            logical=f"plan.{bound.change.text}.version",
            fix=f"upgrade one minor at a time from {shown(before)}" if new[:2] > old[:2] else
                f"keep version {shown(before)} (a cluster is never downgraded)",
        )
