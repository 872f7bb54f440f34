"""PROXY protocol on the load balancer without scw-loadbalancer-use-hostname.

## What it does
Reports an ingress controller Service whose Scaleway load balancer sends PROXY protocol to the
controller while the Service lacks `service.beta.kubernetes.io/scw-loadbalancer-use-hostname:
"true"`.

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

## Fix
Adds `service.beta.kubernetes.io/scw-loadbalancer-use-hostname: "true"` on the line after the
PROXY protocol annotation, in the map where that annotation is written (a values file, or an
HCL object, aligned as `terraform fmt` aligns it), or turns a written `"false"` into `"true"`.
No fix where the PROXY annotation is written on one line with other entries, in a `set` entry,
or in a variable or local that other expressions read too. Unsafe: the Service's status then
holds the load balancer's hostname instead of its IP, so in-cluster clients go through the load
balancer, and tools that publish the status (external-dns) may publish a CNAME record where they
published an A record.

## References
- [Scaleway CCM load balancer annotations](https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md)
- [Kapsule load balancers](https://www.scaleway.com/en/docs/kubernetes/reference-content/kubernetes-load-balancer/)
"""

from collections.abc import Iterator

from kapsulint.api import (
    Edit,
    Finding,
    Fix,
    Loc,
    Project,
    Val,
    finding,
    fix,
    insert_after,
    literal_edit,
    replace_yaml_scalar,
    shown,
    written_text,
)
from kapsulint.kapsule import lb_annotation_keys, lb_annotations, proxy_ports
from kapsulint.kapsule.go_strconv import parse_bool
from kapsulint.kapsule.kube_objects import LbService
from kapsulint.kapsule.lb_services import services

ID = "KAP314"
NAME = "proxy-protocol-without-use-hostname"
SEVERITY = "warning"
FIX = "unsafe"

def check(project: Project) -> Iterator[Finding]:
    for service in services(project):
        if service.is_load_balancer is not True or not service.annotations_known:
            continue
        if service.is_private is not False or proxy_ports.externally_managed(service) is not False:
            continue
        hostname = service.annotation(lb_annotation_keys.LB_USE_HOSTNAME)
        if hostname.raw is not None:
            text = hostname.text() if hostname.known else None
            if text is None or parse_bool(text.strip()) is not False:
                continue
        sending = None
        for name, value in proxy_ports.lb_proxy(service).written():
            ports = proxy_ports.annotation_ports(name, value)
            if ports is not None and not ports.empty:
                sending = (name, value)
                break
        if sending is None:
            continue
        name, value = sending
        loc = value.loc or service.annotation_key_loc(name)
        if loc is None:
            continue
        short = lb_annotations.short(name)
        yield finding(
            loc,
            f"{service.label}: the load balancer sends PROXY protocol ({short} "
            f"{shown(value)}) but the Service does not set scw-loadbalancer-use-hostname: \"true\", so "
            "in-cluster clients reach the controller without the PROXY header and are refused",
            subject=service.subject,
            instance=service.instance,
            logical=f"{service.logical}.annotations.{short}.use-hostname",
            fix=f'add {lb_annotation_keys.LB_USE_HOSTNAME}: "true"',
            autofix=_use_hostname(project, service, name, value, hostname),
        )


def _use_hostname(project: Project, service: LbService, name: str, value: Val, hostname: Val) -> Fix | None:
    """The use-hostname annotation set to "true": its written value replaced, or a line added
    after the PROXY annotation's entry."""
    key = lb_annotation_keys.LB_USE_HOSTNAME
    if hostname.raw is not None:
        written = written_text(project, hostname.loc) if hostname.loc is not None else None
        quote = written[:1] if written and written[:1] in ('"', "'") else '"'
        edit = (replace_yaml_scalar(project, hostname, f"{quote}true{quote}")
                or literal_edit(project, hostname, '"true"'))
        return fix("unsafe", f'set {key}: "true"', edit)
    key_loc, loc = service.annotation_key_loc(name), value.loc
    if key_loc is None or loc is None or key_loc.path != loc.path or key_loc.line != loc.end_line:
        return None
    written_key = written_text(project, key_loc) or ""
    if loc.path.endswith((".yaml", ".yml")):
        edit = _yaml_line_after(project, key_loc, written_key, f'{key}: "true"')
    elif written_key.strip('"') == name and literal_edit(project, value, written_text(project, loc) or "") is not None:
        span = Loc(loc.path, key_loc.line, key_loc.column, loc.end_line, loc.end_column)
        edit = insert_after(project, loc.path, span, f'"{key}"', '"true"')
    else:
        edit = None  # a set entry, or a map other expressions read too
    return fix("unsafe", f'add {key}: "true"', edit)


def _yaml_line_after(project: Project, key_loc: Loc, written_key: str, entry: str) -> Edit | None:
    """A values file line ``entry`` after the block mapping entry whose key is at ``key_loc``."""
    line = written_text(project, Loc(key_loc.path, key_loc.line, 1, key_loc.line, key_loc.column)) or ""
    if line.strip() or written_key.strip("\"'") != written_key.strip() or not written_key:
        return None  # not a plain key starting its line (a flow mapping, a quoted key)
    return Edit(key_loc.path, key_loc.line + 1, 1, key_loc.line + 1, 1, f"{line}{entry}\n")
