"""HAProxy admin ports on the public load balancer.

## What it does
Reports a haproxytech ingress controller whose public Scaleway load balancer publishes the HAProxy
stats port (1024) or the pprof port (6060).

Services read: the Service of the haproxytech chart (`helm_release` values, Argo CD Applications, Flux HelmReleases, helmfile releases, and values files),
where the chart's values decide which admin ports the Service publishes; and a LoadBalancer
Service written outside the chart (`kubernetes_service` and `kubernetes_service_v1`,
`kubernetes_manifest`, `kubectl_manifest`, Kubernetes YAML files) that selects the chart's
controller pods, by the chart's selector label `app.kubernetes.io/name: kubernetes-ingress` (the
chart's name; a `nameOverride` gives another, which is not followed), and sends a port to their
`stat` (1024) or `admin` (6060) container port: a `targetPort` naming that port or giving its
number, or a `port` of that number with no `targetPort` (Kubernetes then targets the same number).
A selector, a port or a target kapsulint cannot read leaves the Service unjudged. The finding
points at the port entry and names the object (kind, namespace and name). Ingress-nginx and
traefik Services are not judged: their charts publish no admin port on the controller's Service.

## Why is this bad
The haproxytech `kubernetes-ingress` chart puts a `stat` port (1024, the HAProxy statistics
page) and a 6060 port (the controller's Go pprof debug endpoints) on its Service, both enabled
by default. On Kapsule, a Service of type `LoadBalancer` gets a Scaleway load balancer, and the
cloud controller manager opens a frontend for every TCP port of the Service: anyone on the
Internet can then read the proxy's backends and servers from the statistics page and pull
runtime profiles from the controller through the load balancer's public IP. That these frontends
are opened was read from the CCM code, not tried on a live load balancer.

The 6060 port's `enablePorts` key depends on the chart version (`prometheus` before 1.44.3, none
in 1.44.3, `admin` from 1.44.4; from 1.51.0 `controller.pprof.enabled` also turns pprof off), so
it is judged only when `version` pins the chart. A private load balancer
(`service.beta.kubernetes.io/scw-loadbalancer-private: "true"`) or a
`loadBalancerSourceRanges` without a /0 range (the CCM turns it into load balancer ACLs) is not
public and stays silent.

Sources: haproxytech/helm-charts `kubernetes-ingress/values.yaml`, its history and
`templates/controller-service.yaml`; scaleway-cloud-controller-manager `scaleway/loadbalancers.go`
and `scaleway/acl.go` (https://github.com/haproxytech/helm-charts/blob/c5edba19/kubernetes-ingress/values.yaml; https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md).

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
    enablePorts:
      stat: false
      admin: false
```

## References
- [haproxytech kubernetes-ingress chart values](https://github.com/haproxytech/helm-charts/blob/kubernetes-ingress-1.52.1/kubernetes-ingress/values.yaml)
- [Scaleway CCM load balancer annotations](https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md)
- [Kubernetes: restricting load balancer sources](https://kubernetes.io/docs/tasks/access-application-cluster/configure-cloud-provider-firewall/)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, Related, finding
from kapsulint.kapsule import lb_services, service

ID = "KAP310"
NAME = "admin-ports-on-public-lb"
SEVERITY = "warning"
SECURITY = True


def check(project: Project) -> Iterator[Finding]:
    for svc in service.services(project):
        if not svc.controller.has_admin_ports or svc.is_load_balancer is not True:
            continue
        if svc.is_private is not False or svc.source_ranges_restricted is not False:
            continue
        ports = svc.controller.admin_ports(svc.values, svc.chart_version)
        if ports is None or not ports.exposed:
            continue
        subject = svc.subject
        listed = " and ".join(f"{p.what} (port {p.port})" for p in ports.exposed)
        switches = ".".join(ports.switches)
        keys = " and ".join(f"{switches}.{p.key} = false" for p in ports.exposed)
        yield finding(
            svc.type_anchor(),
            f"{subject.name} ({svc.controller.key}) publishes {listed} on a public Scaleway load balancer",
            subject=subject.name,
            instance=subject.instance_address,
            related=[Related(p.written, f"{ports.switches[-1]}.{p.key} turns port {p.port} on")
                     for p in ports.exposed if p.written is not None],
            logical=f"{subject.name}.{switches}",
            fix=f"set {keys}, or restrict loadBalancerSourceRanges",
        )
    yield from _written_services(project)


def _written_services(project: Project) -> Iterator[Finding]:
    """LoadBalancer Services written outside the chart that reach its admin container ports."""
    for svc in lb_services.services(project):
        if svc.chart is not None or svc.kind != "Service" or svc.is_load_balancer is not True:
            continue
        if svc.is_private is not False or svc.source_ranges_restricted is not False:
            continue
        for exposure in lb_services.admin_exposures(svc) or []:
            entry = exposure.entry
            port = f"port {entry.port}" if entry.port is not None else "a port"
            yield finding(
                entry.loc or svc.service_key_anchor(),
                f"{svc.label}: {port} sends traffic to the {exposure.chart.key} controller's "
                f"{exposure.container_port} port ({exposure.what}, {exposure.number}) on a public Scaleway "
                "load balancer",
                subject=svc.subject,
                instance=svc.instance,
                logical=f"{svc.logical}.ports.{exposure.container_port}",
                fix="remove this port from the LoadBalancer Service (reach it with kubectl port-forward), "
                    "or restrict loadBalancerSourceRanges",
            )
