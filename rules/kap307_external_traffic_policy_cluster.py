"""Ingress Service without externalTrafficPolicy Local.

## What it does
Reports an ingress controller LoadBalancer Service that leaves `externalTrafficPolicy` unset, so
Kubernetes applies `Cluster`. A written policy, even `Cluster`, is a deliberate choice and is not
reported (this rule is a note).

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
With the Kubernetes default, `externalTrafficPolicy: Cluster`, the Scaleway load balancer sends
traffic to any node, and kube-proxy (or Cilium) forwards it again to a node running a controller
pod. That second hop adds latency, and it replaces the client's address with a node address: the
controller only learns the real client IP if PROXY protocol is set up on both the load balancer
and the controller. With `Local`, nodes only accept traffic for pods they run, and the CCM can
check their health through `scw-loadbalancer-health-check-from-service`, an annotation designed
for this policy. Scaleway's own Kapsule example with the Helm provider sets `Local`.

The chart's default Service type counts (LoadBalancer for ingress-nginx and traefik, NodePort for
haproxytech). The path checked is `controller.service.externalTrafficPolicy` for haproxytech and
ingress-nginx, `service.spec.externalTrafficPolicy` for traefik. A Service the values switch off
(`controller.service.enabled: false`, ingress-nginx's `controller.service.external.enabled:
false`, traefik's `service.enabled: false`) is not judged, nor one whose switch is Unknown, nor
one whose load balancer sends PROXY protocol (`scw-loadbalancer-proxy-protocol-v1`/`-v2` or
`scw-loadbalancer-send-proxy-v2` on some port): the client address then survives the extra hop.

Not confirmed: which source address controller pods see on Kapsule under each policy (with Cilium)
was not measured.

Sources: Scaleway CCM `docs/loadbalancer-annotations.md` (v0.36.2), terraform-provider-scaleway
`docs/resources/k8s_cluster.md` (Helm example), chart values (https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md,
https://github.com/kubernetes/ingress-nginx/blob/helm-chart-4.15.1/charts/ingress-nginx/values.yaml, https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md).

## Example
```yaml
controller:
  service:
    type: LoadBalancer
```

## Use instead
```yaml
controller:
  service:
    type: LoadBalancer
    externalTrafficPolicy: Local
    annotations:
      service.beta.kubernetes.io/scw-loadbalancer-health-check-from-service: "true"
```

No automatic fix: `Local` changes which nodes the load balancer sends traffic to, and goes
with a health check annotation the author picks; both are for the author to decide.

## References
- [Kubernetes: preserving the client source IP](https://kubernetes.io/docs/tasks/access-application-cluster/create-external-load-balancer/#preserving-the-client-source-ip)
- [Scaleway CCM: load balancer annotations](https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md)
- [scaleway_k8s_cluster: with the Helm provider](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, finding
from kapsulint.kapsule import lb_services, proxy_ports
from kapsulint.kapsule.kube_objects import LbService

ID = "KAP307"
NAME = "external-traffic-policy-cluster"
SEVERITY = "note"


def _sends_proxy_protocol(svc: LbService) -> bool:
    proxy = proxy_ports.lb_proxy(svc)
    return any(ports is not None and not ports.empty
               for ports in (proxy.v1_ports, proxy.v2_ports, proxy.send_v2_ports))


def check(project: Project) -> Iterator[Finding]:
    for svc in lb_services.services(project):
        if svc.is_load_balancer is not True:
            continue
        policy = svc.external_traffic_policy
        if not policy.known:
            continue
        if policy.raw is not None:
            continue  # a written policy, even "Cluster", is a deliberate choice
        if svc.policy_default != "Cluster":
            continue  # Envoy Gateway's data plane Service is Local unless told otherwise
        if _sends_proxy_protocol(svc):
            continue  # the client address survives the hop: the hop alone is not worth a note
        loc = svc.service_key_anchor()
        state = "has no externalTrafficPolicy (Kubernetes defaults to Cluster)"
        yield finding(
            loc,
            f"{svc.label}: the LoadBalancer Service {state}: traffic takes an "
            "extra hop between nodes, and the client IP is lost unless PROXY protocol is used",
            subject=svc.subject,
            instance=svc.instance,
            logical=f"{svc.logical}.service.externalTrafficPolicy",
            fix="set externalTrafficPolicy: Local (and the scw-loadbalancer-health-check-from-service annotation)",
        )
