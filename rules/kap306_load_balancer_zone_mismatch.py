"""Load balancer zone differs from its IP's zone.

## What it does
Reports a Service whose load balancer zone differs from the zone of the reserved IP it uses.

Services read: the Service of an ingress controller chart (`helm_release` values, Argo CD Applications, Flux HelmReleases, helmfile releases, and values files),
`kubernetes_service` and `kubernetes_service_v1` resources, `kubernetes_manifest` and
`kubectl_manifest` resources holding a Service (an HCL object, `yamldecode(file(...))`, a
`yaml_body` written inline or read with `file()` or `templatefile()`), Kubernetes YAML files of the
repository (`kind: Service`, also in multi-document files and `kind: List` items, as each Kustomize overlay that
patches them renders them), the data
plane Service of an Envoy Gateway `EnvoyProxy`, and the Service that Envoy Gateway, Istio or NGINX
Gateway Fabric creates for a Gateway with the Gateway's `spec.infrastructure.annotations` (see
Gateway infrastructure annotations below). A Service outside a chart is judged with Kapsule
evidence: a Scaleway load balancer annotation, or the cluster it is applied to (its Kubernetes
provider's connection, else the only cluster of its root module; a YAML file applied outside
Terraform by its annotations alone). The finding names the object (kind, namespace and name).


Gateway infrastructure annotations: a Gateway API `Gateway`'s `spec.infrastructure.annotations`
are judged as the annotations of the Service its implementation creates for it (Envoy Gateway,
Istio, NGINX Gateway Fabric), the finding naming the Gateway; which implementations and why,
with their sources, is in KAP304's documentation (`kapsulint --explain KAP304`).

## Why is this bad
Scaleway load balancer flexible IPs live in one Availability Zone and can only be attached to a
load balancer of that zone. The Cloud Controller Manager creates a Service's load balancer in the
zone named by the `service.beta.kubernetes.io/scw-loadbalancer-zone` annotation, and without it
in the first zone of the cluster's region (`fr-par-1` for `fr-par`). It then looks the reserved
IP up in that zone. A `scaleway_lb_ip` reserved in `fr-par-2` and a load balancer created in
`fr-par-1` never meet: the CCM reports the IP as not found and the Service stays without an
external address.

The reserved IP is the `scaleway_lb_ip` the `scw-loadbalancer-ip-ids` annotation or
`loadBalancerIP` refers to; its zone is its `zone` argument, else the `zone` of its Scaleway
provider. Without a zone annotation, the cluster's region is used when the scan knows it, else
the IP's own region.

Sources: Scaleway CCM `docs/loadbalancer-annotations.md` and `scaleway/loadbalancers.go`
(`getLoadBalancerStaticIPIDs`, v0.36.2), Scaleway documentation "Managing Load Balancer IPs"
(flexible IPs are scoped to one zone), terraform-provider-scaleway's Kapsule example that sets
the zone annotation from `scaleway_lb_ip.zone` (https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/vpc_private_network.md, https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md,
https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md).

## Example
```hcl
resource "scaleway_lb_ip" "ingress" {
  zone = "fr-par-2"
}
# in the release values:
annotations = {
  "service.beta.kubernetes.io/scw-loadbalancer-ip-ids" = split("/", scaleway_lb_ip.ingress.id)[1]
}
```

## Use instead
Take the zone annotation from the IP itself:
```hcl
annotations = {
  "service.beta.kubernetes.io/scw-loadbalancer-ip-ids" = split("/", scaleway_lb_ip.ingress.id)[1]
  "service.beta.kubernetes.io/scw-loadbalancer-zone"   = scaleway_lb_ip.ingress.zone
}
```

## Fix
Where the zone annotation is written as a literal (in Terraform, or in a values file) and names
another zone, it is rewritten to the reserved IP's zone, so the load balancer is created where
the IP is. No fix where the annotation is missing (a key added to a map is left to the author,
who may rather reserve the IP in the load balancer's zone), comes from an expression, from a
variable or local other expressions read too, or is read by Services (`for_each`, a module
called twice) whose IPs are in different zones. Unsafe: the CCM creates the Service's load
balancer in the new zone, replacing the one it made in the old zone.

## References
- [Scaleway CCM: load balancer annotations](https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md)
- [Managing Load Balancer IPs on Kapsule](https://www.scaleway.com/en/docs/kubernetes/reference-content/managing-load-balancer-ips/)
- [scaleway_k8s_cluster: with the Helm provider](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
"""

from collections.abc import Iterator

from kapsulint.api import (
    Finding,
    Fix,
    Loc,
    Project,
    Related,
    Val,
    finding,
    fix,
    literal_edit,
    replace_yaml_scalar,
    shown_text,
    written_text,
)
from kapsulint.kapsule import lb_annotation_keys, lb_ips, lb_services, zones

ID = "KAP306"
NAME = "load-balancer-zone-mismatch"
SEVERITY = "error"
FIX = "unsafe"


def check(project: Project) -> Iterator[Finding]:
    wanted = _zones_wanted(project)
    for svc in lb_services.services(project):
        if svc.is_load_balancer is False:
            continue
        found = lb_ips.reserved_lb_ip(svc)
        if found is None:
            continue
        instance, reference = found
        ip_zone_value = lb_ips.zone_of(instance)
        ip_zone = lb_ips.zone_text(ip_zone_value)
        if ip_zone is None or not zones.is_zone(ip_zone):
            continue
        annotation = svc.annotation(lb_annotation_keys.LB_ZONE)
        written = lb_ips.zone_text(annotation) if annotation.raw is not None else ""
        if written is None:
            continue  # Unknown zone annotation
        autofix = None
        if written:
            if written == ip_zone:
                continue
            # no other Service reads that literal (a zone without a location is not in wanted)
            if annotation.loc is not None and wanted.get(annotation.loc) == {ip_zone}:
                autofix = _rezoned(project, annotation, ip_zone)
            loc = annotation.loc or svc.annotation_key_loc(lb_annotation_keys.LB_ZONE) or svc.anchor
            problem = f"the load balancer is created in {shown_text(annotation, written)} (scw-loadbalancer-zone)"
        else:
            if not svc.annotations_known:
                continue
            default = lb_ips.default_lb_zone(svc, ip_zone)
            if default is None or default == ip_zone:
                continue
            loc = svc.annotations_anchor()
            problem = (f"without a scw-loadbalancer-zone annotation the load balancer is created in "
                       f"{default}, the region's first zone")
        ip_zone_shown = shown_text(ip_zone_value, ip_zone)
        related = [Related(ip_zone_value.loc or instance.block.loc,
                           f"{instance.address} is reserved in {ip_zone_shown}")]
        if reference.loc is not None and reference.loc != loc:
            related.append(Related(reference.loc, f"the Service uses {instance.address} here"))
        yield finding(
            loc,
            f"{svc.label}: {problem}, but its reserved IP "
            f"{instance.address} is in {ip_zone_shown}; the CCM will not find the IP",
            subject=svc.subject,
            instance=svc.instance,
            related=related,
            logical=f"{svc.logical}.service.annotations.scw-loadbalancer-zone",
            fix=f'set "service.beta.kubernetes.io/scw-loadbalancer-zone" = {instance.resource.address}.zone',
            autofix=autofix,
        )


def _zones_wanted(project: Project) -> dict[Loc, set[str | None]]:
    """For each zone annotation as written, the zones of the reserved IPs of the Services that
    read it (None for a Service without one): a literal several instances read is fixed only
    when they all want the same zone."""
    wanted: dict[Loc, set[str | None]] = {}
    for svc in lb_services.services(project):
        annotation = svc.annotation(lb_annotation_keys.LB_ZONE)
        if annotation.loc is None:
            continue
        found = lb_ips.reserved_lb_ip(svc)
        zone = lb_ips.zone_text(lb_ips.zone_of(found[0])) if found is not None else None
        wanted.setdefault(annotation.loc, set()).add(zone)
    return wanted


def _rezoned(project: Project, annotation: Val, zone: str) -> Fix | None:
    """The written zone annotation rewritten to ``zone``, in the quoting a values file uses."""
    if annotation.loc is None:
        return None
    if annotation.loc.path.endswith((".yaml", ".yml")):
        written = written_text(project, annotation.loc) or ""
        quote = written[:1] if written[:1] in ('"', "'") else ""
        edit = replace_yaml_scalar(project, annotation, f"{quote}{zone}{quote}")
    else:
        edit = literal_edit(project, annotation, f'"{zone}"')
    return fix("unsafe", f"create the load balancer in {zone}, the IP's zone", edit)
