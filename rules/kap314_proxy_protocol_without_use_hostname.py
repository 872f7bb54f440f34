"""PROXY protocol on the load balancer without scw-loadbalancer-use-hostname.

## What it does
Reports an ingress controller Service whose Scaleway load balancer sends PROXY protocol to the
controller while the Service lacks `service.beta.kubernetes.io/scw-loadbalancer-use-hostname:
"true"`.

## Why is this bad
Kubernetes publishes the load balancer's IP in the Service status, and kube-proxy routes traffic
from inside the cluster to that IP straight to the controller's pods, bypassing the load balancer.
Those connections arrive without the PROXY header the controller now requires, and it refuses
them: cert-manager's HTTP-01 self-check fails and certificates are never issued, and pods calling
the site's public hostname get connection resets, while outside clients work. With
`scw-loadbalancer-use-hostname: "true"` the CCM publishes the load balancer's hostname instead of
its IP, so in-cluster traffic goes through the load balancer and gets its PROXY header; the CCM
documents the annotation for exactly this ("not bypass the LoadBalancer for traffic coming from
the cluster").

Judged: the LoadBalancer Services of ingress controller charts (haproxytech, ingress-nginx,
traefik) whose `scw-loadbalancer-proxy-protocol-v1`, `-v2` or deprecated `send-proxy-v2`
annotation covers at least one port. Private and externally managed load balancers, and Services
whose annotations kapsulint cannot fully compute, stay silent. The finding points at the PROXY
annotation's value.

Source: Scaleway Cloud Controller Manager, `docs/loadbalancer-annotations.md` at v0.36.2
(`scw-loadbalancer-use-hostname`,
https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md),
and Scaleway's documentation of Kapsule load balancers
(https://www.scaleway.com/en/docs/kubernetes/reference-content/kubernetes-load-balancer/).

## Example
```yaml
controller:
  service:
    annotations:
      service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2: "true"
```

## Use instead
```yaml
controller:
  service:
    annotations:
      service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2: "true"
      service.beta.kubernetes.io/scw-loadbalancer-use-hostname: "true"
```

No automatic fix: the annotation is added to a map that may be written in several places (a
values file, `set` entries, a shared local), and it changes how in-cluster clients reach the
Service.

## References
- [Scaleway CCM load balancer annotations](https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md)
- [Kapsule load balancers](https://www.scaleway.com/en/docs/kubernetes/reference-content/kubernetes-load-balancer/)
"""

from kapsulint.api import Project, finding, shown
from kapsulint.kapsule import lb_annotation_keys, lb_annotations, proxy_ports
from kapsulint.kapsule.service import services

ID = "KAP314"
NAME = "proxy-protocol-without-use-hostname"
SEVERITY = "warning"

_PARSERS = {
    lb_annotation_keys.LB_PROXY_PROTOCOL_V1: proxy_ports.parse_proxy_protocol_ports,
    lb_annotation_keys.LB_PROXY_PROTOCOL_V2: proxy_ports.parse_proxy_protocol_ports,
    lb_annotation_keys.LB_SEND_PROXY_V2: proxy_ports.parse_send_proxy_v2_ports,
}


def check(project: Project):
    for service in services(project):
        if service.is_load_balancer is not True or not service.annotations_known:
            continue
        if service.is_private is not False or proxy_ports.externally_managed(service) is not False:
            continue
        hostname = service.annotation(lb_annotation_keys.LB_USE_HOSTNAME)
        if hostname.raw is not None:
            text = hostname.text() if hostname.known else None
            if text is None or proxy_ports.go_parse_bool(text.strip()) is not False:
                continue
        sending = None
        for name, value in proxy_ports.lb_proxy(service).written():
            text = value.text() if value.known else None
            ports = _PARSERS[name](text.strip()) if text is not None else None
            if ports is not None and not ports.empty:
                sending = (name, value)
                break
        if sending is None:
            continue
        name, value = sending
        loc = value.loc or service.annotation_key_loc(name)
        if loc is None:
            continue
        subject = service.subject
        short = lb_annotations.short(name)
        yield finding(
            loc,
            f"{subject.name} ({service.controller.key}): the load balancer sends PROXY protocol ({short} "
            f"{shown(value)}) but the Service does not set scw-loadbalancer-use-hostname: \"true\", so "
            "in-cluster clients reach the controller without the PROXY header and are refused",
            subject=subject.name,
            instance=subject.instance_address,
            logical=f"{subject.name}.annotations.{short}.use-hostname",
            fix=f'add {lb_annotation_keys.LB_USE_HOSTNAME}: "true"',
        )
