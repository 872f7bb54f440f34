"""Reserved load-balancer IP destroyed while a Service uses it.

## What it does
Reports, with `--plan`, a `scaleway_lb_ip` that the plan destroys or replaces while a Service of
the code linted names it (its `scw-loadbalancer-ip-ids` annotation or `loadBalancerIP`).

## Why is this bad
A reserved flexible IP is what keeps an ingress controller's public address stable: DNS records,
allow-lists and clients point at it. Destroying it (a removed block, a new `zone`, `is_ipv6` or
`project_id`, which all replace it) releases the address for good: the load balancer that holds it
loses it, the cloud controller manager can no longer find the IP the Service was given, and
everything pointing at the old address reaches nothing. A replacement gives a new address, which
Scaleway's CCM can only apply by recreating the load balancer.

The Services are the ingress controllers' (a `helm_release` or a values file, with Kapsule
evidence); a Service names the IP by a reference to its block (`scaleway_lb_ip.ingress.id`,
`.ip_address`) or by its id or address written out. The finding is at the IP's block (or at its
address in the plan file when the block was removed), with each place that names it as a related
location.

Sources: the cloud controller manager's annotations (`ip-ids`, and `loadBalancerIP`,
https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md);
Scaleway, "Managing Load Balancer IPs on Kapsule"
(https://www.scaleway.com/en/docs/kubernetes/reference-content/managing-load-balancer-ips/); the
provider's `scaleway_lb_ip` (ForceNew `zone`, `project_id`, `is_ipv6`,
https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/services/lb/ip.go).

## Example
```hcl
resource "scaleway_lb_ip" "ingress" {
  zone = "fr-par-2"   # was "fr-par-1": the IP is replaced, and its address lost
}
```

## Use instead
Keep the reserved IP as it is (`lifecycle { prevent_destroy = true }` makes Terraform refuse a plan
that destroys it); to move the ingress, reserve a new IP beside it, point DNS at it, then retire the
old one.

## References
- [Managing Load Balancer IPs on Kapsule](https://www.scaleway.com/en/docs/kubernetes/reference-content/managing-load-balancer-ips/)
- [scaleway_lb_ip](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/lb_ip)
- [The lifecycle meta-argument, prevent_destroy](https://developer.hashicorp.com/terraform/language/meta-arguments/lifecycle)
"""

from typing import Iterator

from kapsulint.api import Finding, Project, Related, finding, shown
from kapsulint.kapsule import planned
from kapsulint.kapsule.replacement_facts import LB_IP

ID = "KAP606"
NAME = "reserved-lb-ip-destroyed-while-used"
SEVERITY = "error"


def check(project: Project) -> Iterator[Finding]:
    for bound in planned.changes(project, LB_IP):
        change = bound.change
        if not change.deletes:
            continue
        uses = planned.services_using(project, bound)
        if not uses:
            continue
        address = bound.before("ip_address")
        shown_address = f" ({shown(address)})" if planned.text_of(address) is not None else ""
        related = [Related(use.value.loc, f"{use.service.subject.name} names the IP in {use.how}")
                   for use in uses if use.value.loc is not None]
        what = "replaces" if change.is_replacement else "destroys"
        why = ""
        if change.is_replacement:
            reason, forcing = planned.why_replaced(project, bound)
            why = f", {reason},"
            related.extend(forcing)
        names = ", ".join(sorted({use.service.subject.name for use in uses}))
        yield finding(
            bound.loc,
            f"the plan {what} the reserved IP {bound.subject}{shown_address}{why} while {names} use{'s' if len(uses) == 1 else ''} "
            "it for its load balancer: the address is released for good, and DNS records and clients pointing "
            "at it reach nothing",
            subject=bound.subject,
            related=related,
            logical=f"plan.{change.text}.destroyed-while-used",
            fix="keep the reserved IP (lifecycle { prevent_destroy = true }); reserve a new one beside it and "
                "move DNS before retiring it",
        )
