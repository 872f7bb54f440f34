"""Load balancer IP id with a zone.

## What it does
Reports a `scw-loadbalancer-ip-ids` annotation given a zoned id such as `fr-par-1/<uuid>`.

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
In Terraform, the `id` of a `scaleway_lb_ip` is not the IP's id alone: the provider prefixes it
with the zone, `fr-par-1/11111111-2222-3333-4444-555555555555`. The Scaleway Cloud Controller
Manager splits the `service.beta.kubernetes.io/scw-loadbalancer-ip-ids` annotation on commas and
passes each item to the Load Balancer API as an IP id, without removing any zone prefix. Handing
it `scaleway_lb_ip.ingress.id` unchanged therefore names an IP that does not exist, and the
Service's load balancer is not created with the reserved address.

Flagged: a literal item with a `/`, and a `scaleway_lb_ip`'s `id` passed on as a plain reference
(directly, or through locals, variables, module arguments and outputs). A value built with
`split()`, `element()`, `trimprefix()` or another function is left alone.

Not confirmed: that the CCM rejects a zoned id was read from its code (`getIPIDs` does a plain
comma split), not observed on a live cluster.

Sources: terraform-provider-scaleway `scaleway_lb_ip` (zoned `id`), Scaleway CCM
`docs/loadbalancer-annotations.md` and `scaleway/loadbalancers.go` (v0.36.2)
(https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/vpc_private_network.md, https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md, https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md).

## Example
```hcl
annotations = {
  "service.beta.kubernetes.io/scw-loadbalancer-ip-ids" = scaleway_lb_ip.ingress.id
}
```

## Use instead
Keep only the part after the zone:
```hcl
annotations = {
  "service.beta.kubernetes.io/scw-loadbalancer-ip-ids" = split("/", scaleway_lb_ip.ingress.id)[1]
}
```

## Fix
Drops the zone where the value is written: a literal `fr-par-1/<uuid>` becomes `<uuid>` (each
item of a comma-separated list), in a values file or in Terraform; a plain reference
`scaleway_lb_ip.ingress.id` becomes `split("/", scaleway_lb_ip.ingress.id)[1]`. No fix where the
value comes from a heredoc, a computed expression, or a variable or local other expressions read
too. Safe: the CCM cannot use the zoned id, so the Service's load balancer does not get the
reserved address today; the plan after the fix updates only the release's values (or the values
file), with the id the CCM was meant to receive.

## References
- [Scaleway CCM: load balancer annotations](https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md)
- [scaleway_lb_ip](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/lb_ip)
- [Managing Load Balancer IPs on Kapsule](https://www.scaleway.com/en/docs/kubernetes/reference-content/managing-load-balancer-ips/)
"""

from collections.abc import Iterator

from kapsulint.api import (
    Finding,
    Fix,
    Project,
    Related,
    Val,
    finding,
    fix,
    literal_edit,
    reference_edit,
    replace_yaml_scalar,
    shown,
    written_text,
)
from kapsulint.kapsule import lb_annotation_keys, lb_ips, lb_services

ID = "KAP305"
NAME = "load-balancer-ip-id-has-zone"
SEVERITY = "error"
FIX = "safe"


def _bare_ids(project: Project, value: Val) -> Fix | None:
    """The ids without their zone, written back where the literal is."""
    text = value.text()
    assert text is not None  # called for a value with zoned items, which are read from its text
    bare = ",".join(item.rsplit("/", 1)[-1] for item in lb_ips.ip_id_items(text))
    written = (written_text(project, value.loc) or "") if value.loc is not None else ""
    quote = written[:1] if written[:1] in ('"', "'") else ""  # a values file keeps its quoting
    edit = replace_yaml_scalar(project, value, f"{quote}{bare}{quote}") or literal_edit(project, value, f'"{bare}"')
    return fix("safe", "drop the zone from the IP ids", edit)


def _split_reference(project: Project, value: Val) -> Fix | None:
    written = written_text(project, value.loc) if value.loc is not None else None
    if not written:
        return None
    text = f'split("/", {written})[1]'
    return fix("safe", f"write {text}", reference_edit(project, value, text))


def check(project: Project) -> Iterator[Finding]:
    for svc in lb_services.services(project):
        if svc.is_load_balancer is False:
            continue  # the annotation does nothing on a NodePort or ClusterIP Service
        value = svc.annotation(lb_annotation_keys.LB_IP_IDS)
        if value.raw is None:
            continue
        loc = value.loc or svc.annotation_key_loc(lb_annotation_keys.LB_IP_IDS)
        if loc is None:
            continue
        zoned = lb_ips.zoned_literal_items(value)
        related: tuple[Related, ...] = ()
        if zoned:
            what = f"the zoned id {shown(value)}"
            fix = "write only the IP id, without the zone and the slash"
            autofix = _bare_ids(project, value)
        elif lb_ips.is_unsplit_lb_ip_id(project, value):
            instance = lb_ips.lb_ip_of(value)
            assert instance is not None  # is_unsplit_lb_ip_id holds only for a scaleway_lb_ip's id
            what = f"{instance.address}.id, which Terraform writes as \"<zone>/<uuid>\""
            related = (Related(instance.block.loc, f"{instance.address}: its id carries the zone"),)
            fix = f'keep the part after the zone: split("/", {instance.resource.address}.id)[1]'
            autofix = _split_reference(project, value)
        else:
            continue
        yield finding(
            loc,
            f"{svc.label}: scw-loadbalancer-ip-ids is given {what}; "
            "the CCM expects the bare IP id",
            subject=svc.subject,
            instance=svc.instance,
            related=related,
            logical=f"{svc.logical}.service.annotations.scw-loadbalancer-ip-ids",
            fix=fix,
            autofix=autofix,
        )
