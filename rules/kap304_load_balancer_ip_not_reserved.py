"""Load balancer IP not reserved.

## What it does
Reports an ingress controller Service of type LoadBalancer that does not use a reserved IP.

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
are judged as the annotations of the Service its implementation creates for it (the finding names
the Gateway), when the implementation is identified by the `controllerName` of a GatewayClass in
the repository, or by the class its default install creates (`istio` for Istio, `nginx` for NGINX
Gateway Fabric's chart; Envoy Gateway's chart creates none). Envoy Gateway puts them on the Service
and the `EnvoyProxy`'s `envoyService.annotations` over them; Istio uses them (else the Gateway's
own annotations), a `LoadBalancer` unless `networking.istio.io/service-type` says otherwise, and
does not judge a Gateway with an `infrastructure.parametersRef`; NGINX Gateway Fabric copies them,
its Service type Unknown when an `NginxProxy` may set it. Other implementations (Cilium, Traefik,
kgateway, ...) and classes kapsulint cannot identify stay silent: whether their Service carries the
annotations was not read in their sources. Sources:
https://github.com/envoyproxy/gateway/blob/v1.9.0/internal/infrastructure/kubernetes/proxy/resource_provider.go,
https://github.com/envoyproxy/gateway/blob/v1.9.0/internal/gatewayapi/translator.go,
https://github.com/istio/istio/blob/1.30.3/pilot/pkg/config/kube/gatewaycommon/deploymentcontroller.go,
https://github.com/istio/istio/blob/1.30.3/manifests/charts/istio-control/istio-discovery/files/kube-gateway.yaml,
https://github.com/nginx/nginx-gateway-fabric/blob/v2.6.7/internal/controller/provisioner/objects.go.

## Why is this bad
For a LoadBalancer Service, the Scaleway Cloud Controller Manager creates a load balancer. Unless
the Service names a flexible IP reserved beforehand, that load balancer gets an address picked at
random, and the address is released for good when the load balancer is deleted. Uninstalling and
reinstalling the release, replacing the Service or moving the cluster therefore hands the
ingress a new public address, and every DNS record and allow-list that pointed at the old one
breaks.

The chart's default Service type counts: ingress-nginx and traefik create a LoadBalancer unless told
otherwise, haproxytech a NodePort. A Service counts as reserved with the
`service.beta.kubernetes.io/scw-loadbalancer-ip-ids` annotation or with `loadBalancerIP` (the older
field, still used by Scaleway's own example). Private load balancers (`scw-loadbalancer-private:
"true"`) and externally managed ones (`scw-loadbalancer-externally-managed`) are left alone, as is a
Service naming an existing load balancer (`scw-loadbalancer-id`, whose address may be reserved where
that load balancer is made), and so is a Service the values switch off (`controller.service.enabled:
false`, ingress-nginx's `controller.service.external.enabled: false`, traefik's `service.enabled:
false`): the chart then creates no load balancer. The rule stays silent when the annotations or the
address may come from a value kapsulint cannot know.

Sources: Scaleway CCM `docs/loadbalancer-annotations.md` (v0.36.2), Scaleway documentation
"Managing Load Balancer IPs" and the chart values of each controller (https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md,
https://github.com/haproxytech/helm-charts/blob/c5edba19/kubernetes-ingress/values.yaml, https://github.com/kubernetes/ingress-nginx/blob/helm-chart-4.15.1/charts/ingress-nginx/values.yaml, https://github.com/traefik/traefik-helm-chart/blob/v41.3.0/traefik/values.yaml, https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md).

## Example
```hcl
resource "helm_release" "ingress" {
  chart = "ingress-nginx"
  values = [yamlencode({
    controller = { service = { type = "LoadBalancer" } }
  })]
}
```

## Use instead
Reserve a flexible IP in Terraform and hand its bare id to the Service:
```hcl
resource "scaleway_lb_ip" "ingress" {
  zone = "fr-par-1"
}

resource "helm_release" "ingress" {
  chart = "ingress-nginx"
  values = [yamlencode({
    controller = { service = {
      type = "LoadBalancer"
      annotations = {
        "service.beta.kubernetes.io/scw-loadbalancer-ip-ids" = split("/", scaleway_lb_ip.ingress.id)[1]
        "service.beta.kubernetes.io/scw-loadbalancer-zone"   = scaleway_lb_ip.ingress.zone
      }
    } }
  })]
}
```

## References
- [Scaleway CCM: load balancer annotations](https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md)
- [Managing Load Balancer IPs on Kapsule](https://www.scaleway.com/en/docs/kubernetes/reference-content/managing-load-balancer-ips/)
- [scaleway_lb_ip](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/lb_ip)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, Val, finding
from kapsulint.kapsule import lb_annotation_keys, lb_services

ID = "KAP304"
NAME = "load-balancer-ip-not-reserved"
SEVERITY = "warning"


def _unset(value: Val) -> bool | None:
    """True when certainly unset (absent, null or empty), False when set, None when Unknown."""
    if value.raw is None:
        return True
    if not value.known:
        return None
    text = value.text()
    return text is not None and not text.strip()


def _flag_off(value: Val) -> bool:
    """The annotation is certainly not turning the setting on (absent, null or false)."""
    return value.raw is None or value.is_false()


def check(project: Project) -> Iterator[Finding]:
    for svc in lb_services.services(project):
        if svc.is_load_balancer is not True or not svc.annotations_known:
            continue
        if _unset(svc.annotation(lb_annotation_keys.LB_IP_IDS)) is not True:
            continue
        if _unset(svc.load_balancer_ip) is not True:
            continue
        if _unset(svc.annotation(lb_annotation_keys.LB_ID)) is not True:
            continue  # an existing load balancer, whose address may be reserved where it is made
        if not _flag_off(svc.annotation(lb_annotation_keys.LB_PRIVATE)):
            continue
        if not _flag_off(svc.annotation(lb_annotation_keys.LB_EXTERNALLY_MANAGED)):
            continue
        default = " (the chart's default type)" if svc.chart is not None and svc.written_type.raw is None else ""
        yield finding(
            svc.type_anchor(),
            f"{svc.label}: the LoadBalancer Service{default} has no reserved IP "
            "(no scw-loadbalancer-ip-ids annotation, no loadBalancerIP); its address changes when "
            "the Service is recreated",
            subject=svc.subject,
            instance=svc.instance,
            logical=f"{svc.logical}.service.load-balancer-ip",
            fix="reserve a scaleway_lb_ip and set the scw-loadbalancer-ip-ids annotation to its bare id",
        )
