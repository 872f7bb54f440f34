"""Deprecated Scaleway load balancer annotation.

## What it does
Reports a Service annotation `service.beta.kubernetes.io/scw-loadbalancer-send-proxy-v2` or
`scw-loadbalancer-force-internal-ip`, which the Scaleway Cloud Controller Manager deprecates.

## Why is this bad
The CCM documents `scw-loadbalancer-send-proxy-v2` as deprecated in favour of
`scw-loadbalancer-proxy-protocol-v2` (same values: `true`, `*` or a list of service ports), and
`scw-loadbalancer-force-internal-ip` as deprecated with nothing to replace it. A deprecated
annotation keeps working only until a CCM release drops it, and Kapsule upgrades its CCM with the
cluster: the load balancer then stops sending PROXY protocol with no change in your code, and the
ingress controller refuses every connection.

The annotations are read from the Services of ingress controller charts (haproxytech,
ingress-nginx, traefik) in Helm values, and from the `metadata.annotations` of
`kubernetes_service` and `kubernetes_service_v1` resources. The finding points at the annotation's
key.

Source: Scaleway Cloud Controller Manager, `docs/loadbalancer-annotations.md` at v0.36.2
(https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md).

## Example
```yaml
controller:
  service:
    annotations:
      service.beta.kubernetes.io/scw-loadbalancer-send-proxy-v2: "true"
```

## Use instead
```yaml
controller:
  service:
    annotations:
      service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2: "true"
```

## References
- [Scaleway CCM load balancer annotations](https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md)
"""

from kapsulint.api import Project, finding
from kapsulint.kapsule import lb_annotation_keys, lb_annotations

ID = "KAP317"
NAME = "deprecated-lb-annotation"
SEVERITY = "warning"


def check(project: Project):
    for svc in lb_annotations.annotated_services(project):
        for key, _ in lb_annotations.scaleway_annotations(svc.annotations):
            name = key.strip()
            if name not in lb_annotation_keys.DEPRECATED_LB_ANNOTATIONS:
                continue
            loc = svc.annotations.key_loc(key)
            if loc is None:
                continue
            replacement = lb_annotation_keys.DEPRECATED_LB_ANNOTATIONS[name]
            old = lb_annotations.short(name)
            if replacement is not None:
                why = f"use {lb_annotations.short(replacement)} instead"
                fix = f"rename the annotation to {replacement} (same values)"
            else:
                why = "it has no replacement: the CCM chooses the internal IP itself"
                fix = "remove the annotation"
            yield finding(
                loc,
                f"{svc.what}: the annotation {old} is deprecated by the Scaleway CCM; {why}",
                subject=svc.subject,
                instance=svc.instance,
                logical=f"{svc.subject}.annotations.{old}",
                fix=fix,
            )
