"""Scaleway load balancer annotation the CCM does not know.

## What it does
Reports a Service annotation meant for the Scaleway load balancer (`service.beta.kubernetes.io/scw-*`,
or a `scw-loadbalancer-*`, `scw-load-balancer-*` or `scw-lb-*` name under another domain or none)
that the Scaleway Cloud Controller Manager does not read, with the known key it is closest to.

## Why is this bad
The CCM reads its 49 annotations by their exact keys and ignores every other one without a word:
a misspelled `scw-loadbalancer-proxy-protocl-v2`, a `scw-loadbalancer-zone` without its
`service.beta.kubernetes.io/` domain, or a `scw-lb-use-hostname` leaves the load balancer on the
default the author meant to change (no PROXY protocol, the region's first zone, the public IP
in the Service status), while Terraform, Helm and Kubernetes all report success. Annotation keys
are case-sensitive, so another case is another key.

The catalogue of keys comes from the CCM's documentation and its source at v0.36.2 (the same
49 keys on its default branch checked on 2026-12-01). Annotations are read from every Service
KAP316 reads (charts' Helm values, `kubernetes_service(_v1)` metadata, manifests, Kubernetes YAML
files, Envoy Gateway's `EnvoyProxy`, and a Gateway's `spec.infrastructure.annotations` when its
implementation, Envoy Gateway, Istio or NGINX Gateway Fabric, puts them on its Service); a key
kapsulint cannot compute stays silent. The finding points at the key. Deprecated keys are
KAP317's, malformed values KAP316's.

Source: Scaleway Cloud Controller Manager, `docs/loadbalancer-annotations.md`
(https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md)
and `scaleway/loadbalancers_annotations.go`
(https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/scaleway/loadbalancers_annotations.go).

## Example
```yaml
controller:
  service:
    annotations:
      service.beta.kubernetes.io/scw-loadbalancer-proxy-protocl-v2: "true"
```

## Use instead
```yaml
controller:
  service:
    annotations:
      service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2: "true"
```

## Fix
Renames the key to the known key it is closest to, where the key is written, when the map does
not hold that key already. Unsafe: the load balancer then gets the setting for the first time
(PROXY protocol on, another zone, a private load balancer...), which changes its traffic or
re-creates it; the controller behind it may need the matching setting too (KAP303).

## References
- [Scaleway CCM load balancer annotations](https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Fix, Loc, Project, finding, fix, replace_key, shown_text, written_text
from kapsulint.kapsule import lb_annotation_catalogue, lb_annotations

ID = "KAP319"
NAME = "unknown-lb-annotation"
SEVERITY = "warning"
FIX = "sometimes"


def check(project: Project) -> Iterator[Finding]:
    for svc in lb_annotations.annotated_services(project):
        annotations = svc.annotations
        if not annotations.known or not annotations.is_object:
            continue
        written = {key.strip() for key, _ in annotations.items()}
        for key, _ in annotations.items():
            name = key.strip()
            if not lb_annotation_catalogue.looks_scaleway(name) or lb_annotation_catalogue.is_known_key(name):
                continue
            loc = annotations.key_loc(key)
            if loc is None:
                continue
            known = lb_annotation_catalogue.closest_key(name)
            shown_key = shown_text(annotations, name)
            if known is not None:
                message = (f"{svc.what}: the Scaleway CCM reads no annotation {shown_key} and ignores it; "
                           f"did you mean {known}?")
                hint = f"rename the annotation to {known}"
            else:
                message = (f"{svc.what}: the Scaleway CCM reads no annotation {shown_key} and ignores it "
                           "(no known key is close)")
                hint = "use a key of the CCM's annotation list, or remove it"
            yield finding(
                loc,
                message,
                subject=svc.subject,
                instance=svc.instance,
                logical=f"{svc.subject}.annotations.{name}",
                fix=hint,
                autofix=_renamed(project, loc, name, known) if known is not None and known not in written else None,
            )


def _renamed(project: Project, loc: Loc, key: str, known: str) -> Fix | None:
    text = written_text(project, loc)
    if not text or key not in text:
        return None
    return fix("unsafe", f"rename the annotation to {known}", replace_key(project, loc, text.replace(key, known)))
