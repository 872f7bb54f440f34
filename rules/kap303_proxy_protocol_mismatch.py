"""Load balancer and ingress disagree on PROXY protocol.

## What it does
Reports a port where the Scaleway load balancer and the ingress controller behind it disagree about
PROXY protocol. The load balancer sends a PROXY header the controller cannot read, or the
controller requires one the load balancer does not send.

Services read: the Service of an ingress controller chart (`helm_release` values, Argo CD Applications, Flux HelmReleases, helmfile releases, and values files),
judged against the same chart's controller settings; and Envoy Gateway's data plane, where the
`EnvoyProxy` (`spec.provider.kubernetes.envoyService.annotations`) is judged against the
`ClientTrafficPolicy` of each Gateway it serves (named by the Gateway's
`infrastructure.parametersRef` or its GatewayClass's `parametersRef`). A Gateway listener reads a
PROXY header only when a policy targeting the Gateway (or that listener, by `sectionName`) sets
`proxyProtocol` (or the deprecated `enableProxyProtocol: true`), and then refuses connections
without one unless `proxyProtocol.optional` is true. Policies chosen by `targetSelectors`, an
`EnvoyProxy` with a `patch` or a `mergeType`, and a listener port kapsulint cannot read leave the
Gateway unjudged. The finding names the EnvoyProxy and the Gateway. A Gateway of Envoy Gateway
(its GatewayClass's `controllerName` `gateway.envoyproxy.io/gatewayclass-controller`) that writes
`spec.infrastructure.annotations` gets a Service of its own: those annotations with the
EnvoyProxy's over them, key by key (Envoy Gateway v1.9.0,
https://github.com/envoyproxy/gateway/blob/v1.9.0/internal/infrastructure/kubernetes/proxy/resource_provider.go,
https://github.com/envoyproxy/gateway/blob/v1.9.0/internal/gatewayapi/translator.go), judged against
that Gateway's policies, and named after the Gateway; an EnvoyProxy with `mergeGateways` leaves it
unjudged. Istio's and NGINX Gateway Fabric's Gateways are not judged here: their PROXY settings are
not read.

## Why is this bad
On Kapsule, the Cloud Controller Manager builds the load balancer of a `LoadBalancer` Service and
sends PROXY protocol to the ports named by the Service annotations
`service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v1` or `-v2` (`true` or `*` for every
port, or a comma-separated list of Service ports such as `80,443`) or by the deprecated
`scw-loadbalancer-send-proxy-v2`. The controller must agree on each port, or every request on it
breaks:

- the load balancer sends a header the controller does not expect: the controller reads the
  `PROXY TCP4 ...` line as the start of the HTTP request or TLS handshake and answers 400 or drops
  the connection. Scaleway's own documentation warns that ingress-nginx answers 400 without
  `use-proxy-protocol`.
- haproxytech (`controller.config.proxy-protocol` set) or ingress-nginx
  (`controller.config.use-proxy-protocol: "true"`) require a header the load balancer does not
  send: HAProxy documents a 400 Bad Request, nginx logs a broken header and drops the request.

Traefik with `ports.<entry point>.proxyProtocol` configured accepts connections with or without a
header, so only the first case applies to it: a header sent to an entry point (web on 80 and
websecure on 443 unless `exposedPort` says otherwise) that has no `proxyProtocol`.

Only the controller's HTTP and HTTPS ports are judged. A Service marked
`scw-loadbalancer-externally-managed` is left alone, as is anything whose value is unknown.
Annotation values are read the way the CCM reads them: Go booleans (`true`, `1`, `T`...) for the
v1/v2 annotations except `1` and `0`, which are port numbers there (the deprecated annotation
reads them as booleans).

Sources: Scaleway CCM `docs/loadbalancer-annotations.md` and `loadbalancers_annotations.go`
(`isPortInRange`, `getProxyProtocol`, `getSendProxyV2`, v0.36.2), Scaleway documentation
`kubernetes-load-balancer.mdx`, haproxytech `annotations.md` and `reqProxyProtocol.go`,
ingress-nginx `configmap.md`, Traefik entry point documentation (https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md,
https://github.com/haproxytech/kubernetes-ingress/blob/fc120676/documentation/configmap.md, https://github.com/kubernetes/ingress-nginx/blob/helm-chart-4.15.1/charts/ingress-nginx/values.yaml, https://github.com/traefik/traefik-helm-chart/blob/v41.3.0/traefik/values.yaml, https://github.com/kubernetes/ingress-nginx/blob/controller-v1.15.1/docs/user-guide/nginx-configuration/configmap.md). Not confirmed: the exact answer HAProxy gives to a header
on a frontend that does not expect one (standard HAProxy behaviour, not reproduced), and nginx's
behaviour for a missing header (community reports).

## Example
```hcl
values = [yamlencode({
  controller = {
    service = {
      type = "LoadBalancer"
      annotations = {
        "service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2" = "true"
      }
    }
  }
})]
```
for an ingress-nginx release whose `controller.config` does not turn `use-proxy-protocol` on.

## Use instead
Turn PROXY protocol on at both ends, for the same ports:
```hcl
values = [yamlencode({
  controller = {
    config = { "use-proxy-protocol" = "true" }
    service = {
      type = "LoadBalancer"
      annotations = {
        "service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2" = "true"
      }
    }
  }
})]
```

No automatic fix: the two sides can be made to agree either way (turn PROXY protocol on in the
controller, or off on the load balancer), and which one was meant is the author's choice.

## References
- [Envoy Gateway ClientTrafficPolicy API: proxyProtocol](https://github.com/envoyproxy/gateway/blob/main/api/v1alpha1/clienttrafficpolicy_types.go)
- [Envoy Gateway EnvoyProxy API: envoyService](https://github.com/envoyproxy/gateway/blob/main/api/v1alpha1/shared_types.go)
- [Scaleway CCM load balancer annotations](https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md)
- [Scaleway: exposing Kubernetes services with a Load Balancer](https://www.scaleway.com/en/docs/kubernetes/reference-content/kubernetes-load-balancer/)
- [HAProxy Kubernetes Ingress: proxy-protocol](https://www.haproxy.com/documentation/kubernetes-ingress/community/configuration-reference/ingress/#proxy-protocol)
- [ingress-nginx ConfigMap: use-proxy-protocol](https://kubernetes.github.io/ingress-nginx/user-guide/nginx-configuration/configmap/#use-proxy-protocol)
- [Traefik EntryPoints: proxyProtocol](https://doc.traefik.io/traefik/routing/entrypoints/#proxyprotocol)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Loc, Project, Related, Val, finding, shown
from kapsulint.kapsule import envoy_gateway, proxy_ports
from kapsulint.kapsule.charts import TrafficPort
from kapsulint.kapsule.kube_objects import object_label
from kapsulint.kapsule.lb_services import services

ID = "KAP303"
NAME = "proxy-protocol-mismatch"
SEVERITY = "error"

_PREFIX = "service.beta.kubernetes.io/"
_RECOMMENDED = "service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2"


def _short(annotation: str) -> str:
    return annotation[len(_PREFIX):] if annotation.startswith(_PREFIX) else annotation


def _ports(numbers: list[int]) -> str:
    numbers = sorted(set(numbers))
    word = "port" if len(numbers) == 1 else "ports"
    return f"{word} " + ", ".join(str(n) for n in numbers)


def check(project: Project) -> Iterator[Finding]:
    for found in services(project):
        service = found.chart
        if service is None or found.is_load_balancer is not True:
            continue
        if proxy_ports.externally_managed(found) is not False:
            continue
        ports = proxy_ports.traffic_ports(service)
        if ports is None:
            continue
        lb = proxy_ports.lb_proxy(found)
        # anchor -> (annotation, value, ports, entry names)
        sent_unexpected: dict[Loc, tuple[str, Val, list[int], list[str]]] = {}
        required_missing: dict[Loc, tuple[TrafficPort, list[int]]] = {}  # anchor -> (port setting, ports)
        for port in proxy_ports.published_ports(ports):
            assert port.port is not None  # published_ports gives only ports with a known number
            sending = lb.sending(port.port)
            if sending is None:
                continue
            if sending.sends and port.accepts is False:
                # a port the load balancer sends PROXY to has its deciding annotation and value
                assert sending.annotation is not None and sending.value is not None
                loc = sending.value.loc or service.annotation_key_loc(sending.annotation) or service.anchor
                entry = sent_unexpected.setdefault(loc, (sending.annotation, sending.value, [], []))
                entry[2].append(port.port)
                entry[3].append(port.name)
            elif not sending.sends and port.requires is True and port.setting is not None:
                loc = port.setting.loc or service.key_loc(tuple(port.setting_name.split("."))) or service.anchor
                missing = required_missing.setdefault(loc, (port, []))
                missing[1].append(port.port)

        subject = service.subject
        controller = service.controller
        for loc, (annotation, value, numbers, names) in sent_unexpected.items():
            why, fix = controller.unexpected_proxy(names)
            yield finding(
                loc,
                f"{subject.name}: the Scaleway load balancer sends PROXY protocol on {_ports(numbers)} "
                f"({_short(annotation)} {shown(value)}) but {why}: requests there fail",
                subject=subject.name,
                instance=subject.instance_address,
                logical=f"{subject.name}.{annotation}",
                fix=fix,
            )
        for loc, (port, numbers) in required_missing.items():
            assert port.setting is not None  # only a port whose setting requires PROXY is kept
            related = [Related(value.loc, f"{_short(name)} {shown(value)} does not cover "
                                          f"{_ports(numbers)}")
                       for name, value in lb.written() if value.loc is not None]
            yield finding(
                loc,
                f"{subject.name}: {port.setting_name} {shown(port.setting)} makes {controller.key} "
                f"require a PROXY header on {_ports(numbers)}, but the Scaleway load balancer does not "
                "send one there: connections are refused",
                subject=subject.name,
                instance=subject.instance_address,
                related=related,
                logical=f"{subject.name}.{port.setting_name}",
                fix=f'annotate the Service with {_RECOMMENDED}: "true", or turn {port.setting_name} off',
            )
    yield from _envoy_gateway(project)


def _gateway_name(gateway: Val) -> str:
    metadata = gateway.get("metadata")
    return object_label("Gateway", metadata)


def _envoy_gateway(project: Project) -> Iterator[Finding]:
    """Envoy Gateway: the EnvoyProxy's annotations against the ClientTrafficPolicy of each
    Gateway whose data plane it configures."""
    for plane in envoy_gateway.data_planes(project):
        svc = plane.service
        if not svc.kapsule_evidence or svc.is_load_balancer is not True:
            continue
        if proxy_ports.externally_managed(svc) is not False:
            continue
        listeners = envoy_gateway.listener_proxy(project, plane)
        if listeners is None:
            continue
        lb = proxy_ports.lb_proxy(svc)
        # anchor -> (annotation, value, ports, gateway listeners)
        sent_unexpected: dict[Loc, tuple[str, Val, list[int], list[str]]] = {}
        # anchor -> (listener, ports)
        required_missing: dict[Loc, tuple[envoy_gateway.ListenerProxy, list[int]]] = {}
        for listener in listeners:
            sending = lb.sending(listener.port)
            if sending is None:
                continue
            if sending.sends and listener.accepts is False:
                # a port the load balancer sends PROXY to has its deciding annotation and value
                assert sending.annotation is not None and sending.value is not None
                loc = sending.value.loc or svc.annotation_key_loc(sending.annotation) or svc.anchor
                entry = sent_unexpected.setdefault(loc, (sending.annotation, sending.value, [], []))
                entry[2].append(listener.port)
                entry[3].append(f"{_gateway_name(listener.gateway)} listener {listener.name or '?'}")
            elif not sending.sends and listener.requires is True and listener.setting_key is not None:
                missing = required_missing.setdefault(listener.setting_key, (listener, []))
                missing[1].append(listener.port)
        for loc, (annotation, value, numbers, names) in sent_unexpected.items():
            yield finding(
                loc,
                f"{svc.label}: the Scaleway load balancer sends PROXY protocol on {_ports(numbers)} "
                f"({_short(annotation)} {shown(value)}) but no ClientTrafficPolicy sets proxyProtocol for "
                f"{', '.join(sorted(set(names)))}: requests there fail",
                subject=svc.subject,
                instance=svc.instance,
                logical=f"{svc.logical}.{annotation}",
                fix="add a ClientTrafficPolicy targeting the Gateway with proxyProtocol: {}, or remove the annotation",
            )
        for loc, (listener, numbers) in required_missing.items():
            related = [Related(value.loc, f"{_short(name)} {shown(value)} does not cover {_ports(numbers)}")
                       for name, value in lb.written() if value.loc is not None]
            related.append(Related(svc.anchor, f"{svc.label} configures the load balancer"))
            yield finding(
                loc,
                f"{_gateway_name(listener.gateway)}: its ClientTrafficPolicy's {listener.setting_name} makes "
                f"Envoy require a PROXY header on {_ports(numbers)}, but the Scaleway load balancer of "
                f"{svc.label} does not send one there: connections are refused",
                subject=svc.subject,
                instance=svc.instance,
                related=related,
                logical=f"{svc.logical}.{listener.setting_name}",
                fix=f'annotate the EnvoyProxy\'s envoyService with {_RECOMMENDED}: "true", or remove '
                    f"{listener.setting_name}",
            )
