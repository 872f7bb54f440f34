"""Ingress controller release replaced while its load balancer has no reserved IP.

## What it does
Reports, with `--plan`, an ingress controller's `helm_release` that the plan replaces while its
LoadBalancer Service reserves no IP (no `scw-loadbalancer-ip-ids` annotation, no `loadBalancerIP`).

## Why is this bad
Replacing a release (a new `name` or `namespace`, a taint, `-replace`) uninstalls the chart and
installs it again. The uninstall deletes the controller's LoadBalancer Service; Scaleway's cloud
controller manager deletes its load balancer, and without a reserved IP the load balancer's
address goes with it. The new release gets a new load balancer with a new address: every DNS
record and allow-list pointing at the old one breaks, and the site is down until they are changed
and the records' TTL has passed.

The finding is at the release's block, with the Service's `type` and the arguments that force the
replacement as related locations. KAP304 warns of the unreserved IP before any plan.

Sources: Scaleway, "Managing Load Balancer IPs on Kapsule" (without a reserved IP, deleting the load
balancer deletes its address,
https://www.scaleway.com/en/docs/kubernetes/reference-content/managing-load-balancer-ips/); the
helm provider's `name` and `namespace`, which force a new release
(https://github.com/hashicorp/terraform-provider-helm/blob/v3.1.2/helm/resource_helm_release.go).

## Example
```hcl
resource "helm_release" "ingress" {
  name       = "ingress-nginx"
  namespace  = "ingress"          # was "ingress-nginx": the release is replaced
  repository = "https://kubernetes.github.io/ingress-nginx"
  chart      = "ingress-nginx"
  version    = "4.15.1"
}
```

## Use instead
Reserve the address and give it to the Service, then change the release:
```hcl
resource "scaleway_lb_ip" "ingress" {}

resource "helm_release" "ingress" {
  # ...
  values = [yamlencode({
    controller = { service = { annotations = {
      "service.beta.kubernetes.io/scw-loadbalancer-ip-ids" = split("/", scaleway_lb_ip.ingress.id)[1]
    } } }
  })]
}
```

## References
- [Managing Load Balancer IPs on Kapsule](https://www.scaleway.com/en/docs/kubernetes/reference-content/managing-load-balancer-ips/)
- [Load balancer annotations](https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md)
- [helm_release](https://registry.terraform.io/providers/hashicorp/helm/latest/docs/resources/release)
"""

from typing import Iterator

from kapsulint.api import Finding, Project, Related, finding
from kapsulint.kapsule import planned
from kapsulint.kapsule.replacement_facts import HELM_RELEASE

ID = "KAP609"
NAME = "ingress-release-replaced-without-reserved-ip"
SEVERITY = "warning"


def check(project: Project) -> Iterator[Finding]:
    for bound in planned.changes(project, HELM_RELEASE):
        if not bound.change.is_replacement:
            continue
        svc = planned.release_service(project, bound)
        if svc is None or planned.reserves_no_ip(svc) is not True:
            continue
        why, related = planned.why_replaced(project, bound)
        anchor = svc.type_anchor()
        if anchor != bound.loc:
            related = [Related(anchor, "the LoadBalancer Service, with no reserved IP"), *related]
        yield finding(
            bound.loc,
            f"the plan replaces {bound.subject} ({svc.controller.key}), {why}: the uninstall deletes its "
            "LoadBalancer Service, whose load balancer has no reserved IP, so the address goes with it and the "
            "new release gets another one; DNS records pointing at the old address break",
            subject=bound.subject,
            related=related,
            logical=f"plan.{bound.change.text}.replaced-without-reserved-ip",
            fix="reserve a scaleway_lb_ip and set the scw-loadbalancer-ip-ids annotation to its bare id, apply, "
                "then replace the release",
        )
