"""Cluster renamed.

## What it does
Reports, with `--plan`, a Kapsule cluster whose `name` the plan changes in place.

## Why is this bad
Renaming a cluster looks cosmetic, and the provider does it in place, but Kapsule uses the name in
its control-plane components: a rename redeploys the whole control plane and the job that injects
the managed resources, and restarts the CSI driver pods. Until the API server pods are ready again,
the cloud controller manager, the autoscaler and the CSI drivers do not work: pods stay in
`ContainerCreating`, DNS fails inside the cluster, scheduled jobs do not start. Scaleway says the
cluster returns to normal within one to two hours, and that nodes may have to be replaced after
that.

The finding is at the cluster's `name`.

Source: Scaleway, "Cluster renaming causes workload disruption"
(https://www.scaleway.com/en/docs/kubernetes/troubleshooting/cluster-renaming-causes-workload-disruption/).

## Example
```hcl
resource "scaleway_k8s_cluster" "main" {
  name = "production"   # was "prod"
  # ...
}
```

## Use instead
Keep the name, and use `tags` or `description` for what the new name was to say; rename only in a
maintenance window, when an hour or two of disruption is acceptable.

## References
- [Cluster renaming causes workload disruption](https://www.scaleway.com/en/docs/kubernetes/troubleshooting/cluster-renaming-causes-workload-disruption/)
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
"""

from typing import Iterator

from kapsulint.api import Finding, Project, finding, shown
from kapsulint.kapsule import planned
from kapsulint.kapsule.replacement_facts import CLUSTER

ID = "KAP605"
NAME = "cluster-renamed"
SEVERITY = "warning"


def check(project: Project) -> Iterator[Finding]:
    for bound in planned.changes(project, CLUSTER):
        if not bound.change.is_update:
            continue
        before, after = bound.before("name"), bound.after("name")
        old, new = planned.text_of(before), planned.text_of(after)
        if old is None or new is None or old == new:
            continue
        value = bound.instance.arg("name") if bound.instance is not None else None
        written = bound.block.attr("name") if bound.block is not None else None
        loc = (value.loc if value is not None and value.loc is not None else
               written.value_loc if written is not None else bound.loc)
        yield finding(
            loc,
            f"the plan renames {bound.subject} from {shown(before)} to {shown(after)}: Kapsule redeploys the "
            "whole control plane, and workloads are disrupted for one to two hours (pods stuck creating, "
            "DNS failures, CSI and autoscaler down)",
            subject=bound.subject,
            secret=value is not None and value.contains_sensitive(),
            logical=f"plan.{bound.change.text}.name",
            fix=f"keep the name {shown(before)} (use tags or description), or rename in a maintenance window",
        )
