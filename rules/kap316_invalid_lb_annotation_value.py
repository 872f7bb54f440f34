"""Scaleway load balancer annotation with a value the CCM refuses.

## What it does
Reports a `scw-loadbalancer-*` Service annotation whose value is not one the Scaleway Cloud
Controller Manager accepts, or whose value needs a companion annotation that is missing.
Beyond the fixed sets, it checks durations, integers, booleans, port lists, per-port values and id
formats as the CCM parses them.

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
The CCM reads its annotations when it creates or updates the load balancer; a value outside an
annotation's set is an error on the Service ("If an invalid mode is passed in the annotation, the
service will throw an error"), so the load balancer is not created or keeps its previous
settings, while Terraform and Helm report success. The annotations judged, with their values:
`forward-port-algorithm` (`roundrobin`, `leastconn`, `first`), `sticky-sessions` (`none`,
`cookie`, `table`), `health-check-type` (`tcp`, `http`, `https`, `mysql`, `pgsql`, `redis`,
`ldap`, also per port as `80:http;443:https`), `ssl-compatibility-level`
(`ssl_compatibility_level_intermediate`, `_modern`, `_old`), `on-marked-down-action`
(`on_marked_down_action_none`, `shutdown_sessions`), `redispatch-attempt-count` (`0`, `1`),
`ip-mode` (`Proxy`, `VIP`) and `flexible-ip-types` (`ipv4`, `ipv4,ipv6`). Two values need a
companion: `sticky-sessions: cookie` needs `scw-loadbalancer-sticky-sessions-cookie-name`, and an
`http` or `https` health check needs `scw-loadbalancer-health-check-http-uri`.

The other values are checked as the CCM parses them (its source, `loadbalancers_annotations.go`):
durations with Go's `time.ParseDuration` (`health-check-delay`, `health-transient-check-delay`,
`health-check-timeout`, `timeout-client`, `-server`, `-connect`, `-tunnel`, `-queue`: `"10s"`,
`"1m30s"`, not `"10 s"` or `"10sec"`), integers with `strconv.Atoi` (`health-check-max-retries`,
`max-connections`, `max-retries`, `connection-rate-limit`, the per-port `health-check-http-code`),
booleans with `strconv.ParseBool` (`private`, `externally-managed`, `enable-access-logs`,
`enable-http3`, `health-check-send-proxy`; `use-hostname` and the deprecated `force-internal-ip`
read any other text as false without an error, a warning here), port lists (`proxy-protocol-v1`, `-v2`,
`send-proxy-v2`, `protocol-http`, `http-backend-tls`, `http-backend-tls-skip-verify`,
`health-check-from-service`: `true`, `false`, `*` or ports 1 to 65535), the per-port form
`port1:value1;port2,port3:value2`, ids (`pn-ids`, `private-ip-ids`, `ip-ids`, `certificate-ids`:
UUIDs) and `scw-loadbalancer-id` (`<zone>/<uuid>`).

Enumerated values are compared without regard to case. A value kapsulint cannot compute, and a
companion that may come from an unknown source, stay silent. The finding points at the value.

Source: Scaleway Cloud Controller Manager, `docs/loadbalancer-annotations.md` at v0.36.2
(https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md).

## Example
```yaml
controller:
  service:
    annotations:
      service.beta.kubernetes.io/scw-loadbalancer-forward-port-algorithm: round-robin
      service.beta.kubernetes.io/scw-loadbalancer-sticky-sessions: cookie
```

## Use instead
```yaml
controller:
  service:
    annotations:
      service.beta.kubernetes.io/scw-loadbalancer-forward-port-algorithm: roundrobin
      service.beta.kubernetes.io/scw-loadbalancer-sticky-sessions: cookie
      service.beta.kubernetes.io/scw-loadbalancer-sticky-sessions-cookie-name: lb
```

No automatic fix: the valid value meant (or the companion annotation's value) cannot be told
from the invalid one.

## References
- [Scaleway CCM load balancer annotations](https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, Severity, Val, finding, shown, shown_text
from kapsulint.kapsule import lb_annotation_catalogue, lb_annotation_keys, lb_annotations

ID = "KAP316"
NAME = "invalid-lb-annotation-value"
SEVERITY = "error"


def _present(annotations: Val, name: str) -> bool | None:
    value = annotations.get(lb_annotation_keys.SCW_LB_ANNOTATION_PREFIX + name.removeprefix("scw-loadbalancer-"))
    if value.known and value.raw is None:
        return None if annotations.open else False
    return True


def check(project: Project) -> Iterator[Finding]:
    for svc in lb_annotations.annotated_services(project):
        for key, value in lb_annotations.scaleway_annotations(svc.annotations):
            name = lb_annotations.short(key.strip())
            accepted = lb_annotations.ENUMS.get(name)
            text = value.text()
            if not value.known or text is None or value.loc is None:
                continue
            if accepted is None:
                yield from _malformed(svc, name, value, text)
                continue
            given = lb_annotations.enum_values(name, text)
            wrong = [v for v in given if v not in accepted]
            if wrong:
                yield finding(
                    value.loc,
                    f"{svc.what}: {name} is {shown(value)}, which the CCM refuses; it accepts "
                    + ", ".join(sorted(accepted)),
                    subject=svc.subject,
                    instance=svc.instance,
                    logical=f"{svc.logical}.annotations.{name}",
                    fix=f"set {name} to one of: " + ", ".join(sorted(accepted)),
                )
                continue
            for choice in dict.fromkeys(given):
                companion = lb_annotations.COMPANIONS.get((name, choice))
                if companion is None or _present(svc.annotations, companion) is not False:
                    continue
                yield finding(
                    value.loc,
                    f"{svc.what}: {name} is {shown(value)}, which needs the annotation {companion}, "
                    "and it is missing",
                    subject=svc.subject,
                    instance=svc.instance,
                    logical=f"{svc.logical}.annotations.{name}",
                    fix=f"add service.beta.kubernetes.io/{companion}",
                )
                break


def _malformed(svc: lb_annotations.Annotated, name: str, value: Val, text: str) -> Iterator[Finding]:
    """A duration, integer, boolean, port list, per-port value or id the CCM cannot parse."""
    problem = lb_annotation_catalogue.value_problem(name, text)
    if problem is None:
        return
    annotation = lb_annotation_catalogue.fact(name)
    assert annotation is not None  # value_problem answers only for an annotation of the catalogue
    assert value.loc is not None  # check() passes only values with a location
    lenient = annotation.kind == "lenient-boolean"
    if lenient:
        effect = "which the CCM reads as false without an error"
    else:
        effect = "which the CCM refuses, so the load balancer is not reconciled"
    default = f" (the default is {annotation.default})" if annotation.default else ""
    yield finding(
        value.loc,
        f"{svc.what}: {name} is {shown(value)}, {effect}: {shown_text(value, problem)}{default}",
        subject=svc.subject,
        instance=svc.instance,
        logical=f"{svc.logical}.annotations.{name}",
        fix=f"write {name} as {_FORMS[annotation.kind]}",
        level=Severity.WARNING if lenient else None,
    )


_FORMS = {
    "duration": 'a Go duration ("10s", "1m30s")',
    "integer": "an integer",
    "boolean": '"true" or "false"',
    "lenient-boolean": '"true" or "false"',
    "ports": 'true, false, "*" or a comma list of service ports ("80,443")',
    "per-port": 'a value, or "port1:value1;port2,port3:value2"',
    "ids": "a comma list of resource ids (UUIDs)",
    "zoned-id": "<zone>/<uuid>",
}
