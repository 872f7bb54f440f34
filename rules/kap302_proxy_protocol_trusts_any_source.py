"""PROXY protocol trusted from any source.

## What it does
Reports an ingress controller that accepts PROXY protocol headers from any source address.

Services read: the controller's own settings, in the values of an ingress controller chart
(`helm_release` values, Argo CD Applications, Flux HelmReleases, helmfile releases, and values files); a Service written outside a chart carries no controller
setting.

## Why is this bad
With PROXY protocol, the client address a controller logs, rate-limits and allow-lists comes from
a header the connecting peer writes. Behind a Scaleway load balancer, only the load balancer
should be trusted to write it. A controller that trusts `0.0.0.0/0` takes the header from anyone
who can reach its pods or node ports, so a client can claim any address: IP allow-lists,
rate limits and audit logs stop meaning anything.

Checked per controller: haproxytech `controller.config.proxy-protocol` listing a /0 range;
ingress-nginx `use-proxy-protocol` with `proxy-real-ip-cidr` unset (its default is `0.0.0.0/0`)
or a /0 range; traefik `proxyProtocol.insecure` or a /0 range in `trustedIPs`, in `ports` or in
`additionalArguments`.

Sources: haproxytech ConfigMap documentation, ingress-nginx `configmap.md`, traefik entry point
documentation and chart values (https://github.com/haproxytech/kubernetes-ingress/blob/fc120676/documentation/configmap.md, https://github.com/kubernetes/ingress-nginx/blob/helm-chart-4.15.1/charts/ingress-nginx/values.yaml, https://github.com/traefik/traefik-helm-chart/blob/v41.3.0/traefik/values.yaml, https://github.com/kubernetes/ingress-nginx/blob/controller-v1.15.1/docs/user-guide/nginx-configuration/configmap.md).

## Example
```yaml
controller:
  config:
    proxy-protocol: "0.0.0.0/0"
```

## Use instead
Trust only the private network the load balancer reaches the nodes from:
```yaml
controller:
  config:
    proxy-protocol: "172.16.0.0/22"
```

No automatic fix: the range to trust instead (the private network the load balancer reaches
the nodes from) is not written anywhere kapsulint can read it for certain, and changing a
PROXY trust range changes which clients the controller believes.

## References
- [HAProxy Kubernetes Ingress: proxy-protocol](https://www.haproxy.com/documentation/kubernetes-ingress/community/configuration-reference/ingress/#proxy-protocol)
- [ingress-nginx ConfigMap: use-proxy-protocol, proxy-real-ip-cidr](https://kubernetes.github.io/ingress-nginx/user-guide/nginx-configuration/configmap/)
- [Traefik EntryPoints: proxyProtocol](https://doc.traefik.io/traefik/routing/entrypoints/#proxyprotocol)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, finding
from kapsulint.kapsule import helm

ID = "KAP302"
NAME = "proxy-protocol-trusts-any-source"
SEVERITY = "warning"
SECURITY = True


def check(project: Project) -> Iterator[Finding]:
    for subject in helm.values_subjects(project):
        if subject.controller is None:
            continue
        for trust in subject.controller.open_trust(subject.values):
            yield finding(
                trust.loc,
                f"{subject.name} ({subject.controller.key}) accepts PROXY headers from any source: "
                f"{trust.setting} {trust.why}",
                subject=subject.name,
                instance=subject.instance_address,
                logical=f"{subject.name}.{trust.setting}",
                fix="trust only the load balancer's private network range",
            )
