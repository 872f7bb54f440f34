"""Deprecated Scaleway load balancer annotation.

## What it does
Reports a Service annotation `service.beta.kubernetes.io/scw-loadbalancer-send-proxy-v2` or
`scw-loadbalancer-force-internal-ip`, which the Scaleway Cloud Controller Manager deprecates.

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
The CCM documents `scw-loadbalancer-send-proxy-v2` as deprecated in favour of
`scw-loadbalancer-proxy-protocol-v2` (same values: `true`, `*` or a list of service ports), and
`scw-loadbalancer-force-internal-ip` as deprecated with nothing to replace it. A deprecated
annotation keeps working only until a CCM release drops it, and Kapsule upgrades its CCM with the
cluster: the load balancer then stops sending PROXY protocol with no change in your code, and the
ingress controller refuses every connection.

The finding points at the annotation's key.

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

## Fix
Renames `scw-loadbalancer-send-proxy-v2` to `scw-loadbalancer-proxy-protocol-v2` where the key is
written (its quoting kept, and in Terraform the `=` signs of its map re-aligned as
`terraform fmt` does). No fix when the map already holds the new key, and none for
`scw-loadbalancer-force-internal-ip`: removing it lets the CCM pick another address, which is a
choice for the author. Safe: the CCM reads both keys the same way, so the load balancer keeps
its PROXY protocol settings; only the Service's annotation changes.

## References
- [Scaleway CCM load balancer annotations](https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md)
"""

from collections.abc import Iterator

from kapsulint.api import (
    Finding,
    Fix,
    Project,
    Val,
    finding,
    fix,
    replace_key,
    written_text,
)
from kapsulint.kapsule import lb_annotation_keys, lb_annotations

ID = "KAP317"
NAME = "deprecated-lb-annotation"
SEVERITY = "warning"
FIX = "safe"


def check(project: Project) -> Iterator[Finding]:
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
                hint = f"rename the annotation to {replacement} (same values)"
            else:
                why = "it has no replacement: the CCM chooses the internal IP itself"
                hint = "remove the annotation"
            yield finding(
                loc,
                f"{svc.what}: the annotation {old} is deprecated by the Scaleway CCM; {why}",
                subject=svc.subject,
                instance=svc.instance,
                logical=f"{svc.logical}.annotations.{old}",
                fix=hint,
                autofix=_renamed(project, svc.annotations, key, replacement) if replacement else None,
            )


def _renamed(project: Project, annotations: Val, key: str, replacement: str) -> Fix | None:
    """The key rewritten to ``replacement`` where it is written, unless the map already has it."""
    if any(other.strip() == replacement for other, _ in annotations.items()):
        return None
    loc = annotations.key_loc(key)
    written = written_text(project, loc) if loc is not None else None
    if not written or loc is None or key.strip() not in written:
        return None
    text = written.replace(key.strip(), replacement)
    return fix("safe", f"rename the annotation to {replacement}", replace_key(project, loc, text))
