"""Control plane moved to a lower offer during its commitment.

## What it does
Reports, with `--plan`, a cluster whose `type` the plan moves to a lower control-plane offer
(`kapsule-dedicated-16` to `-8`, a dedicated offer to the mutualized `kapsule`...) while the
cluster, by the state's `created_at` and the plan's `timestamp`, is less than 30 days old.

## Why is this bad
A dedicated control plane commits to its offer for 30 calendar days, and "Downgrading a cluster
type is not allowed during the commitment period". A cluster created less than 30 days before the
plan is inside that period whatever happened since (an upgrade to a higher tier starts it again).
The provider asks the API which types the cluster may move to in place; a lower offer is not among
them during the commitment, so the provider turns the change into a replacement of the whole
cluster (KAP603), and when the plan still shows an update, the API refuses it at apply.

The finding is at the cluster's `type`. Without a plan `timestamp` or a `created_at` in the state,
nothing is said.

Sources: Scaleway, "Kubernetes control plane offers"
(https://www.scaleway.com/en/docs/kubernetes/reference-content/kubernetes-control-plane-offers/)
and its FAQ ("a minimum commitment period of 30 calendar days",
https://www.scaleway.com/en/docs/kubernetes/faq/); the provider's CustomizeDiff on `type`
(https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/services/k8s/cluster.go).

## Example
```hcl
resource "scaleway_k8s_cluster" "main" {
  type = "kapsule-dedicated-4"   # was "kapsule-dedicated-8", created 12 days ago
  # ...
}
```

## Use instead
Keep the offer until the commitment ends (30 days after the cluster was created or last moved to a
higher offer), then lower it.

## References
- [Kubernetes control plane offers](https://www.scaleway.com/en/docs/kubernetes/reference-content/kubernetes-control-plane-offers/)
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
"""

import datetime
from typing import Iterator

from kapsulint.api import Finding, Project, finding, shown
from kapsulint.kapsule import planned
from kapsulint.kapsule.replacement_facts import CLUSTER

ID = "KAP608"
NAME = "control-plane-downgrade-in-commitment"
SEVERITY = "error"


def check(project: Project) -> Iterator[Finding]:
    binding = planned.binding(project)
    if binding is None or binding.plan.timestamp is None:
        return
    now = binding.plan.timestamp
    for bound in planned.changes(project, CLUSTER):
        change = bound.change
        if not (change.is_update or change.is_replacement):
            continue
        before, after = bound.before("type"), bound.after("type")
        old_type, new_type = planned.text_of(before), planned.text_of(after)
        if old_type is None or new_type is None:
            continue
        old, new = planned.offer(old_type), planned.offer(new_type)
        days = planned.commitment_days(old_type)
        if old is None or new is None or old.family != new.family or new.rank >= old.rank or not days:
            continue
        prior = binding.plan.prior(change.address)
        created = planned.parse_time(prior.get("created_at") if prior is not None else bound.before("created_at"))
        if created is None or now - created >= datetime.timedelta(days=days):
            continue
        age = (now - created).days
        outcome = ("the provider replaces the whole cluster instead" if change.is_replacement else
                   "the API refuses it and the apply fails")
        value = bound.instance.arg("type") if bound.instance is not None else None
        written = bound.block.attr("type") if bound.block is not None else None
        loc = (value.loc if value is not None and value.loc is not None else
               written.value_loc if written is not None else bound.loc)
        yield finding(
            loc,
            f"the plan moves {bound.subject} from {shown(before)} to the lower offer {shown(after)}, "
            f"{age} day{'s' if age != 1 else ''} after the cluster was created: a dedicated control plane "
            f"commits to its offer for {days} days, so {outcome}",
            subject=bound.subject,
            secret=value is not None and value.contains_sensitive(),
            logical=f"plan.{change.text}.type",
            fix=f"keep type {shown(before)} until {(created + datetime.timedelta(days=days)).date().isoformat()} "
                "or later",
        )
