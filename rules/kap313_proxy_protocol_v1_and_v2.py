"""PROXY protocol v1 and v2 on one port.

## What it does
Reports a Service whose PROXY protocol v1 and v2 annotations cover the same port, which the
Scaleway Cloud Controller Manager refuses.

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
Terraform by its annotations alone). The finding names the object (kind, namespace and name). For a
Service outside a chart, the ports compared are its own `spec.ports`.


Gateway infrastructure annotations: a Gateway API `Gateway`'s `spec.infrastructure.annotations`
are judged as the annotations of the Service its implementation creates for it (Envoy Gateway,
Istio, NGINX Gateway Fabric), the finding naming the Gateway; which implementations and why,
with their sources, is in KAP304's documentation (`kapsulint --explain KAP304`).

## Why is this bad
The Scaleway load balancer of a Kapsule `LoadBalancer` Service sends PROXY protocol v1 to the
ports named by `service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v1` and v2 to those
named by `scw-loadbalancer-proxy-protocol-v2` (`true` or `*` for every port, or a list of Service
ports). A port can only get one version: when both annotations cover it, the CCM stops with
`port N is in both v1 and v2 proxy protocols`, and the load balancer is neither created nor
updated. A new Service stays without an external IP; an existing one keeps its old configuration
while every later change is refused.

Values are read the way the CCM reads them: Go booleans (`true`, `T`, `FALSE`...) except `1` and
`0`, which are port numbers; a list only clashes on a port the controller's Service publishes.
The check applies to Services marked `scw-loadbalancer-externally-managed` too: the CCM still
configures their frontends and backends.

Sources: Scaleway CCM `docs/loadbalancer-annotations.md` and `loadbalancers_annotations.go`
(`getProxyProtocol`, `isPortInRange`, v0.36.2) (https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md).

## Example
```yaml
controller:
  service:
    type: LoadBalancer
    annotations:
      service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v1: "true"
      service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2: "443"
```

## Use instead
Pick one version per port (v2 is the usual choice):
```yaml
controller:
  service:
    type: LoadBalancer
    annotations:
      service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2: "true"
```

No automatic fix: which of the two versions the controller expects on that port decides which
annotation to drop.

## References
- [Scaleway CCM load balancer annotations](https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md)
- [Scaleway: exposing Kubernetes services with a Load Balancer](https://www.scaleway.com/en/docs/kubernetes/reference-content/kubernetes-load-balancer/)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, Related, Val, finding, shown, shown_text
from kapsulint.kapsule import lb_annotation_keys, proxy_ports
from kapsulint.kapsule.lb_services import services

ID = "KAP313"
NAME = "proxy-protocol-v1-and-v2"
SEVERITY = "error"


def check(project: Project) -> Iterator[Finding]:
    for service in services(project):
        if service.is_load_balancer is not True:
            continue
        lb = proxy_ports.lb_proxy(service)
        if lb.v1.raw is None or lb.v2.raw is None or lb.v1_ports is None or lb.v2_ports is None:
            continue
        both = lb.v1_ports.intersection(lb.v2_ports)
        if both.empty:
            continue
        if both.every:
            clash = "every port"
        else:
            if service.chart is not None:
                ports = proxy_ports.traffic_ports(service.chart) or []
                published = {p.port for p in proxy_ports.published_ports(ports)}
            else:
                published = set(service.ports or ())
            numbers = sorted(both.ports & published)
            if not numbers:
                continue
            clash = ("port " if len(numbers) == 1 else "ports ") + ", ".join(str(n) for n in numbers)
            clash = shown_text(Val([lb.v1, lb.v2]), clash)  # the ports are read out of the annotations
        loc = lb.v1.loc or service.annotation_key_loc(lb_annotation_keys.LB_PROXY_PROTOCOL_V1) or service.anchor
        related = [Related(lb.v2.loc, f"scw-loadbalancer-proxy-protocol-v2 {shown(lb.v2)} also covers {clash}")] \
            if lb.v2.loc is not None else []
        yield finding(
            loc,
            f"{service.name}: scw-loadbalancer-proxy-protocol-v1 {shown(lb.v1)} and -v2 {shown(lb.v2)} "
            f"both cover {clash}: the Scaleway CCM refuses the Service",
            subject=service.subject,
            instance=service.instance,
            related=related,
            logical=f"{service.logical}.{lb_annotation_keys.LB_PROXY_PROTOCOL_V1}",
            fix="keep one PROXY protocol version per port (remove the v1 annotation or narrow its port list)",
        )
