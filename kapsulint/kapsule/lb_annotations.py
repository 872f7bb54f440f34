"""Scaleway load balancer annotations wherever a Service is described (every source of
:mod:`kapsulint.kapsule.lb_services`: an ingress controller's Helm values, ``kubernetes_service``
and ``kubernetes_service_v1`` metadata, manifests, Kubernetes YAML files, Envoy Gateway's
``EnvoyProxy``).

Source: Scaleway Cloud Controller Manager, ``docs/loadbalancer-annotations.md`` at v0.36.2
(https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md):
``scw-loadbalancer-send-proxy-v2`` is deprecated for ``scw-loadbalancer-proxy-protocol-v2``, and
``scw-loadbalancer-force-internal-ip`` is deprecated with no replacement (the CCM picks the
internal IP itself when the load balancer is attached to the cluster's private network). The
values each annotation accepts, and the companions some values need (``sticky-sessions: cookie``
needs ``sticky-sessions-cookie-name``; an ``http``/``https`` health check needs
``health-check-http-uri``), come from the same page: "If an invalid mode is passed in the
annotation, the service will throw an error."
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from kapsulint.api import Project, Val
from kapsulint.kapsule import lb_annotation_keys, lb_services


class Annotated(NamedTuple):
    """A Service's annotations and who describes them."""

    annotations: Val
    subject: str  # "helm_release.ingress", a values file, or "kubernetes_service_v1.web"
    instance: str | None
    what: str  # how a message names the Service
    logical: str  # the stable part of a fingerprint


def annotated_services(project: Project) -> Iterator[Annotated]:
    for svc in lb_services.services(project):
        if svc.annotations.known and svc.annotations.is_object:
            yield Annotated(svc.annotations, svc.subject, svc.instance, svc.label, svc.logical)


def scaleway_annotations(annotations: Val) -> Iterator[tuple[str, Val]]:
    """The ``scw-loadbalancer-*`` entries of an annotations map (keys stripped)."""
    if not annotations.known or not annotations.is_object:
        return
    for key, value in annotations.items():
        if lb_annotation_keys.is_scaleway_lb_annotation(key):
            yield key, value


def short(key: str) -> str:
    """``service.beta.kubernetes.io/scw-loadbalancer-zone`` -> ``scw-loadbalancer-zone``."""
    return key.rsplit("/", 1)[-1]


# annotation (short name) -> the values the CCM accepts, lower-cased
ENUMS: dict[str, frozenset[str]] = {
    "scw-loadbalancer-forward-port-algorithm": frozenset({"roundrobin", "leastconn", "first"}),
    "scw-loadbalancer-sticky-sessions": frozenset({"none", "cookie", "table"}),
    "scw-loadbalancer-health-check-type": frozenset({"tcp", "http", "https", "mysql", "pgsql", "redis", "ldap"}),
    "scw-loadbalancer-ssl-compatibility-level": frozenset({
        "ssl_compatibility_level_intermediate", "ssl_compatibility_level_modern", "ssl_compatibility_level_old"}),
    "scw-loadbalancer-on-marked-down-action": frozenset({"on_marked_down_action_none", "shutdown_sessions"}),
    "scw-loadbalancer-redispatch-attempt-count": frozenset({"0", "1"}),
    "scw-loadbalancer-ip-mode": frozenset({"proxy", "vip"}),
    "scw-loadbalancer-flexible-ip-types": frozenset({"ipv4", "ipv4,ipv6", "ipv6,ipv4"}),
}
PER_PORT = frozenset({"scw-loadbalancer-health-check-type"})  # "80:http;443,8443:https"
# (annotation, value) -> the annotation that must accompany it
COMPANIONS: dict[tuple[str, str], str] = {
    ("scw-loadbalancer-sticky-sessions", "cookie"): "scw-loadbalancer-sticky-sessions-cookie-name",
    ("scw-loadbalancer-health-check-type", "http"): "scw-loadbalancer-health-check-http-uri",
    ("scw-loadbalancer-health-check-type", "https"): "scw-loadbalancer-health-check-http-uri",
}


def enum_values(name: str, text: str) -> list[str]:
    """The values an annotation's text gives, lower-cased: per-port entries split
    (``80:http;443:https`` -> ``["http", "https"]``), a whole value otherwise."""
    cleaned = text.strip().lower().replace(" ", "")
    if name not in PER_PORT:
        return [cleaned]
    return [part.rsplit(":", 1)[-1] for part in cleaned.split(";") if part]
