"""Ingress controller Helm chart facts: which chart a release installs, its values paths and defaults.

Pure data and small pure lookups. Sources, by chart and version:

* haproxytech: the chart's values and templates, 1.40.0 to 1.52.1
  (https://github.com/haproxytech/helm-charts/tree/kubernetes-ingress-1.52.1/kubernetes-ingress),
  and the controller's annotations
  (https://github.com/haproxytech/kubernetes-ingress/blob/fc120676/documentation/annotations.md);
* ingress-nginx: https://github.com/kubernetes/ingress-nginx/blob/helm-chart-4.15.1/charts/ingress-nginx/values.yaml
  and https://github.com/kubernetes/ingress-nginx/blob/controller-v1.15.1/docs/user-guide/nginx-configuration/configmap.md;
* traefik: https://github.com/traefik/traefik-helm-chart/blob/v41.3.0/traefik/values.yaml and
  https://github.com/traefik/traefik-helm-chart/blob/v41.3.0/traefik/templates/_podtemplate.tpl.

A *path* is a tuple of keys into a values tree, e.g.
``("controller", "service", "type")``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from kapsulint.api import as_version
from kapsulint.kapsule.chart_versions import ChartVersion

__all__ = [
    "Path",
    "Controller",
    "HAPROXYTECH",
    "INGRESS_NGINX",
    "TRAEFIK",
    "CONTROLLERS",
    "CONTROLLERS_BY_KEY",
    "controller_for_chart",
    "controller_from_values_keys",
    "controller_from_values",
    "values_paths",
    "ChartPin",
    "chart_default",
    "covers",
    "exact_version",
    # PROXY protocol keys
    "HAPROXY_PROXY_PROTOCOL_PATH",
    "NGINX_USE_PROXY_PROTOCOL_PATH",
    "NGINX_PROXY_REAL_IP_CIDR_PATH",
    "NGINX_PROXY_REAL_IP_CIDR_DEFAULT",
    "TRAEFIK_PORTS_PATH",
    "TRAEFIK_PROXY_PROTOCOL_INSECURE",
    "TRAEFIK_PROXY_PROTOCOL_TRUSTED_IPS",
    "TRAEFIK_ADDITIONAL_ARGUMENTS_PATH",
    "TRAEFIK_DEFAULT_ENTRYPOINTS",
    "TraefikProxyProtocolArg",
    "parse_traefik_proxy_protocol_arg",
    # haproxytech admin ports
    "HAPROXY_CONFIG_PATH",
    "HAPROXY_STATS_PORT",
    "HAPROXY_PPROF_PORT",
    "HAPROXY_ENABLE_PORTS_PATH",
    "HAPROXY_STAT_PORT_KEY",
    "HAPROXY_PPROF_ENABLED_PATH",
    "haproxy_pprof_port_key",
]

Path = tuple[str, ...]
Version = tuple[int, int, int]


class Controller(NamedTuple):
    """What kapsulint knows about one ingress controller chart.

    ``*_path`` fields are values paths. ``default_service_type`` and
    ``default_node_selector`` hold ``(first chart version, value)`` steps in
    ascending order (``None`` as first version = every known version up to
    the next step); read them with :func:`chart_default`. Controllers compare
    and hash by identity (they hold dicts). ``known_since`` is
    the oldest chart version the facts were checked against.
    ``identifying_paths`` are key prefixes only this chart uses, to tell the
    chart from values alone (never ``controller.*`` alone: both haproxytech
    and ingress-nginx nest everything under ``controller``).
    """

    key: str
    display_name: str
    chart_names: frozenset[str]
    repository_hints: tuple[str, ...]
    known_since: Version
    node_selector_path: Path
    affinity_path: Path
    tolerations_path: Path
    service_type_path: Path
    service_annotations_path: Path
    external_traffic_policy_path: Path
    load_balancer_ip_path: Path
    load_balancer_source_ranges_path: Path
    service_enabled_paths: tuple[Path, ...]  # switches that must all be on for the Service to exist
    default_service_type: tuple[tuple[Version | None, str], ...]
    default_node_selector: tuple[tuple[Version | None, Mapping[str, str]], ...]
    default_service_ports: Mapping[str, int]
    identifying_paths: frozenset[Path]
    has_values_schema: bool
    notes: tuple[str, ...] = ()

    # By identity, as the charts are unique: a controller holds dicts, which hash no value.
    def __eq__(self, other: object) -> bool:
        return object.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return object.__ne__(self, other)

    def __hash__(self) -> int:
        return object.__hash__(self)


# haproxytech/helm-charts, chart ``kubernetes-ingress`` (https://github.com/haproxytech/helm-charts/blob/kubernetes-ingress-1.52.1/kubernetes-ingress/values.yaml; the values of 1.40.0,
# 1.44.0 and 1.52.1 compared: the paths below did not change). Service type defaults to
# NodePort, not LoadBalancer.
HAPROXYTECH = Controller(
    key="haproxytech",
    display_name="HAProxy Kubernetes Ingress (haproxytech)",
    chart_names=frozenset({"kubernetes-ingress"}),
    repository_hints=("haproxytech.github.io/helm-charts", "github.com/haproxytech/helm-charts"),
    known_since=(1, 40, 0),
    node_selector_path=("controller", "nodeSelector"),
    affinity_path=("controller", "affinity"),
    tolerations_path=("controller", "tolerations"),
    service_type_path=("controller", "service", "type"),
    service_annotations_path=("controller", "service", "annotations"),
    external_traffic_policy_path=("controller", "service", "externalTrafficPolicy"),
    # Rendered only when the Service type is LoadBalancer (controller-service.yaml).
    load_balancer_ip_path=("controller", "service", "loadBalancerIP"),
    load_balancer_source_ranges_path=("controller", "service", "loadBalancerSourceRanges"),
    # templates/controller-service.yaml: ``if .Values.controller.service.enabled`` (default true)
    # https://github.com/haproxytech/helm-charts/blob/kubernetes-ingress-1.52.1/kubernetes-ingress/templates/controller-service.yaml
    service_enabled_paths=(("controller", "service", "enabled"),),
    default_service_type=((None, "NodePort"),),
    default_node_selector=((None, {}),),
    # controller.service.ports at 1.52.1; the 6060 port name changed over time,
    # see haproxy_pprof_port_key().
    default_service_ports={"http": 80, "https": 443, "stat": 1024, "admin": 6060},
    identifying_paths=frozenset(
        {
            ("controller", "PodDisruptionBudget"),
            ("controller", "service", "enablePorts"),
            ("controller", "containerPort", "stat"),
            ("controller", "containerPort", "admin"),
            ("controller", "defaultTLSSecret"),
            ("controller", "logging", "traffic"),
            ("controller", "auxiliaryConfig"),
            ("controller", "pprof"),
            ("controller", "config", "proxy-protocol"),
            ("controller", "config", "scale-server-slots"),
            ("controller", "config", "src-ip-header"),
            ("controller", "daemonset", "useHostNetwork"),
            ("controller", "daemonset", "useHostPort"),
            ("crdjob",),
        }
    ),
    has_values_schema=False,
    notes=(
        "controller.config values are written unquoted into the ConfigMap: non-strings fail the apply",
        "stats (1024) and pprof (6060) Service ports are enabled by default",
    ),
)

# kubernetes/ingress-nginx, chart ``ingress-nginx`` (4.15.1, last release;
# project retired March 2026). Service type defaults to LoadBalancer; the pod
# nodeSelector defaults to ``kubernetes.io/os: linux``.
INGRESS_NGINX = Controller(
    key="ingress-nginx",
    display_name="ingress-nginx",
    chart_names=frozenset({"ingress-nginx"}),
    repository_hints=("kubernetes.github.io/ingress-nginx", "github.com/kubernetes/ingress-nginx"),
    # type LoadBalancer and the linux nodeSelector were read in a 4.0.x-era
    # values.yaml (controller v1.1.1) and at 4.15.1.
    known_since=(4, 0, 0),
    node_selector_path=("controller", "nodeSelector"),
    affinity_path=("controller", "affinity"),
    tolerations_path=("controller", "tolerations"),
    service_type_path=("controller", "service", "type"),
    service_annotations_path=("controller", "service", "annotations"),
    external_traffic_policy_path=("controller", "service", "externalTrafficPolicy"),
    load_balancer_ip_path=("controller", "service", "loadBalancerIP"),
    load_balancer_source_ranges_path=("controller", "service", "loadBalancerSourceRanges"),
    # ``if and .Values.controller.service.enabled .Values.controller.service.external.enabled``
    # (both default true), https://github.com/kubernetes/ingress-nginx/blob/helm-chart-4.15.1/charts/ingress-nginx/templates/controller-service.yaml
    service_enabled_paths=(("controller", "service", "enabled"), ("controller", "service", "external", "enabled")),
    default_service_type=((None, "LoadBalancer"),),
    default_node_selector=((None, {"kubernetes.io/os": "linux"}),),
    default_service_ports={"http": 80, "https": 443},
    identifying_paths=frozenset(
        {
            ("controller", "config", "use-proxy-protocol"),
            ("controller", "config", "proxy-real-ip-cidr"),
            ("controller", "config", "use-forwarded-headers"),
            ("controller", "config", "compute-full-forwarded-for"),
            ("controller", "config", "allow-snippet-annotations"),
            ("controller", "config", "annotations-risk-level"),
            ("controller", "allowSnippetAnnotations"),
            ("controller", "admissionWebhooks"),
            ("controller", "service", "enableHttp"),
            ("controller", "service", "enableHttps"),
            ("controller", "ingressClassResource", "controllerValue"),
            ("controller", "watchIngressWithoutClass"),
            ("defaultBackend",),
        }
    ),
    has_values_schema=False,
    notes=(
        "controller.config values are quoted by the chart, so booleans are safe",
        "proxy-real-ip-cidr defaults to 0.0.0.0/0: every peer is trusted",
    ),
)

# traefik/traefik-helm-chart, chart ``traefik`` (41.3.0). Pod placement keys
# are top level; Service extras go under ``service.spec``. The chart ships a
# values.schema.json, so unknown keys fail ``helm install``.
TRAEFIK = Controller(
    key="traefik",
    display_name="Traefik",
    chart_names=frozenset({"traefik"}),
    repository_hints=(
        "traefik.github.io/charts",
        "helm.traefik.io/traefik",
        "github.com/traefik/traefik-helm-chart",
        "containous.github.io/traefik-helm-chart",
    ),
    # only 41.3.0 was checked: older pinned versions have unknown defaults.
    known_since=(41, 0, 0),
    node_selector_path=("nodeSelector",),
    affinity_path=("affinity",),
    tolerations_path=("tolerations",),
    service_type_path=("service", "type"),
    service_annotations_path=("service", "annotations"),
    external_traffic_policy_path=("service", "spec", "externalTrafficPolicy"),
    load_balancer_ip_path=("service", "spec", "loadBalancerIP"),
    load_balancer_source_ranges_path=("service", "loadBalancerSourceRanges"),
    # ``if .Values.service.enabled`` (default true),
    # https://github.com/traefik/traefik-helm-chart/blob/v41.3.0/traefik/templates/service.yaml
    service_enabled_paths=(("service", "enabled"),),
    default_service_type=((None, "LoadBalancer"),),
    default_node_selector=((None, {}),),
    # exposed ports of the entry points published by default (web, websecure)
    default_service_ports={"web": 80, "websecure": 443},
    identifying_paths=frozenset(
        {
            ("ports", "web"),
            ("ports", "websecure"),
            ("ports", "traefik"),
            ("additionalArguments",),
            ("ingressRoute",),
            ("providers", "kubernetesCRD"),
            ("providers", "kubernetesIngress"),
            ("ingressClass", "isDefaultClass"),
            ("certificatesResolvers",),
            ("service", "annotationsTCP"),
            ("service", "annotationsUDP"),
        }
    ),
    has_values_schema=True,
    notes=(
        "accepts connections with or without a PROXY header when proxyProtocol is configured",
        "ingressClass.isDefaultClass is true by default",
    ),
)

CONTROLLERS: tuple[Controller, ...] = (HAPROXYTECH, INGRESS_NGINX, TRAEFIK)
CONTROLLERS_BY_KEY: dict[str, Controller] = {c.key: c for c in CONTROLLERS}


ChartPin = tuple[int, ...] | ChartVersion | None  # an exact version (a tuple or Version), a release's version, or none


def exact_version(version: ChartPin) -> tuple[int, ...] | None:
    """The one chart version ``version`` pins; None for a range or no version."""
    if isinstance(version, ChartVersion):
        return version.exact
    return version


def covers(version: ChartPin, known_since: Version | None) -> bool | None:
    """Whether the chart facts, checked from ``known_since`` on, hold for a release of ``version``:
    True for an exact version at or after it, False when every version it admits is older (an
    older pin, or a range below it), None for no version or a range reaching into the facts."""
    if version is None or known_since is None:
        return None if version is None else True
    if isinstance(version, ChartVersion):
        if version.older_than(known_since):
            return False
        return True if version.exact is not None else None
    return as_version(version) >= known_since


def chart_default(
    steps: tuple[tuple[Version | None, Any], ...],
    version: ChartPin,
    *,
    known_since: Version | None = None,
) -> Any | None:
    """Read a versioned chart default; None when it is unknown.

    With no one version (none pinned, a range), a default counts only when every known step
    agrees. A version older than ``known_since`` (or a range whose every version is) is outside
    what the facts checked: None.
    """
    if not steps or covers(version, known_since) is False:
        return None
    exact = exact_version(version)
    if exact is None:
        first = steps[0][1]
        return first if all(v == first for _, v in steps) else None
    pinned = as_version(exact)
    value = None
    for since, v in steps:
        if since is None or pinned >= since:
            value = v
    return value


_VERSION_SUFFIX = re.compile(r"-v?\d+\.\d+\.\d+[^/]*$")


def _chart_basename(chart: str) -> tuple[str, str | None]:
    """(chart name, repository alias or URL part) from a ``chart`` argument."""
    c = chart.strip().lower().rstrip("/")
    alias: str | None = None
    if "://" in c:
        alias = c.rsplit("/", 1)[0]
        c = c.rsplit("/", 1)[-1]
        if c.endswith(".tgz"):
            c = _VERSION_SUFFIX.sub("", c[: -len(".tgz")])
    elif "/" in c:
        alias, c = c.rsplit("/", 1)
        if c.endswith(".tgz"):
            c = _VERSION_SUFFIX.sub("", c[: -len(".tgz")])
    return c, alias


def _repository_controller(repository: str | None) -> Controller | None:
    if not repository:
        return None
    r = repository.strip().lower()
    for ctl in CONTROLLERS:
        if any(h in r for h in ctl.repository_hints):
            return ctl
    return None


def controller_for_chart(chart: str | None, repository: str | None = None) -> Controller | None:
    """Which ingress controller a ``helm_release`` installs, from ``chart``/``repository``.

    The chart name decides (``kubernetes-ingress`` -> haproxytech,
    ``ingress-nginx``, ``traefik``); it may be written bare, as
    ``alias/name``, as an ``oci://`` reference or as a ``.tgz`` URL. A
    repository URL that belongs to another known controller makes the answer
    None (conflicting evidence); an unknown repository (a mirror) does not.
    Other charts from a known repository (``traefik-crds``...) give None.
    """
    if not chart:
        return None
    name, alias = _chart_basename(chart)
    by_name = [c for c in CONTROLLERS if name in c.chart_names]
    if len(by_name) != 1:
        return None
    ctl = by_name[0]
    for hint in (repository, alias):
        other = _repository_controller(hint)
        if other is not None and other is not ctl:
            return None
    return ctl


def values_paths(values: Mapping[str, Any]) -> set[Path]:
    """Every key path of a nested mapping (maps only; lists are leaves)."""
    out: set[Path] = set()
    stack: list[tuple[Path, Mapping[str, Any]]] = [((), values)]
    while stack:
        prefix, node = stack.pop()
        for k, v in node.items():
            if not isinstance(k, str):
                continue
            p = prefix + (k,)
            out.add(p)
            if isinstance(v, Mapping):
                stack.append((p, v))
    return out


def controller_from_values_keys(paths: Iterable[Path]) -> Controller | None:
    """The controller whose chart-specific keys appear in ``paths``, else None.

    A path matches an identifying path when it starts with it. None when no
    controller's keys appear, or when several controllers' keys do.
    """
    prefixes = {tuple(p)[:n] for p in paths for n in range(1, len(tuple(p)) + 1)}
    hits = [ctl for ctl in CONTROLLERS if not prefixes.isdisjoint(ctl.identifying_paths)]
    return hits[0] if len(hits) == 1 else None


def controller_from_values(values: Mapping[str, Any]) -> Controller | None:
    """:func:`controller_from_values_keys` applied to a nested values mapping."""
    return controller_from_values_keys(values_paths(values))


# ---------------------------------------------------------------------------
# PROXY protocol settings on the controller side
# ---------------------------------------------------------------------------

# haproxytech: ConfigMap key ``proxy-protocol`` (ConfigMap only), a
# comma-separated list of IPs/CIDRs from which a PROXY header is required;
# 0.0.0.0/0 means every connection. Invalid entries are logged and skipped.
# Source: haproxytech/kubernetes-ingress documentation/annotations.md,
# pkg/handler/proxy-protocol.go.
HAPROXY_CONFIG_PATH: Path = ("controller", "config")
HAPROXY_PROXY_PROTOCOL_PATH: Path = HAPROXY_CONFIG_PATH + ("proxy-protocol",)

# ingress-nginx: ``use-proxy-protocol`` ("false" by default) makes every
# listener require the header; ``proxy-real-ip-cidr`` (default 0.0.0.0/0) lists
# the peers trusted to supply the client address. Source: configmap.md.
NGINX_USE_PROXY_PROTOCOL_PATH: Path = ("controller", "config", "use-proxy-protocol")
NGINX_PROXY_REAL_IP_CIDR_PATH: Path = ("controller", "config", "proxy-real-ip-cidr")
NGINX_PROXY_REAL_IP_CIDR_DEFAULT = "0.0.0.0/0"

# traefik: per entry point ``ports.<name>.proxyProtocol.{insecure,trustedIPs}``
# (trustedIPs is a list), rendered as ``--entryPoints.<name>.proxyProtocol.*``
# arguments; the same flags may be written in ``additionalArguments``.
# Source: traefik/values.yaml, templates/_podtemplate.tpl, traefik docs
# routing/entrypoints.md.
TRAEFIK_PORTS_PATH: Path = ("ports",)
TRAEFIK_PROXY_PROTOCOL_INSECURE: Path = ("proxyProtocol", "insecure")
TRAEFIK_PROXY_PROTOCOL_TRUSTED_IPS: Path = ("proxyProtocol", "trustedIPs")
TRAEFIK_ADDITIONAL_ARGUMENTS_PATH: Path = ("additionalArguments",)

# Chart 41.3.0 entry points: name -> (container port, exposed port, exposed
# by default on the Service).
TRAEFIK_DEFAULT_ENTRYPOINTS: Mapping[str, tuple[int, int, bool]] = {
    "traefik": (8080, 8080, False),
    "web": (8000, 80, True),
    "websecure": (8443, 443, True),
    "metrics": (9100, 9100, False),
}


class TraefikProxyProtocolArg(NamedTuple):
    """One ``--entryPoints.<ep>.proxyProtocol.<setting>[=value]`` argument.

    ``setting`` is ``"insecure"`` or ``"trustedIPs"``. For ``insecure`` the
    value is ``"true"`` when the flag is given bare. For ``trustedIPs`` the
    value is the raw comma-separated list.
    """

    entrypoint: str
    setting: str
    value: str


# Traefik's command-line flags are matched without regard to case (the chart
# writes ``entryPoints``, users often write ``entrypoints``).
_TRAEFIK_PP_ARG = re.compile(
    r"^--entrypoints\.(?P<ep>[^.=\s]+)\.proxyprotocol\.(?P<setting>insecure|trustedips)(?:=(?P<value>.*))?$",
    re.IGNORECASE,
)


def parse_traefik_proxy_protocol_arg(arg: str) -> TraefikProxyProtocolArg | None:
    """Parse a Traefik PROXY-protocol CLI argument, or None for any other text."""
    m = _TRAEFIK_PP_ARG.match(arg.strip())
    if not m:
        return None
    setting = "insecure" if m.group("setting").lower() == "insecure" else "trustedIPs"
    value = m.group("value")
    if value is None:
        if setting == "trustedIPs":
            return None
        value = "true"
    return TraefikProxyProtocolArg(m.group("ep"), setting, value.strip())


# ---------------------------------------------------------------------------
# haproxytech admin ports (stats 1024, pprof 6060)
# ---------------------------------------------------------------------------

# Source: kubernetes-ingress/values.yaml (https://github.com/haproxytech/helm-charts/blob/kubernetes-ingress-1.52.1/kubernetes-ingress/values.yaml) and its git history
# (https://github.com/haproxytech/helm-charts/commits/c5edba19/kubernetes-ingress/values.yaml).
# The Scaleway cloud controller manager opens a load balancer frontend for every TCP port of the
# Service (``serviceToLB`` in https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/scaleway/loadbalancers.go).
HAPROXY_STATS_PORT = 1024
HAPROXY_PPROF_PORT = 6060
HAPROXY_ENABLE_PORTS_PATH: Path = ("controller", "service", "enablePorts")
HAPROXY_STAT_PORT_KEY = "stat"  # enablePorts.stat: true in every known version
HAPROXY_PPROF_ENABLED_PATH: Path = ("controller", "pprof", "enabled")  # from 1.51.0, default true

# Name of the 6060 Service port under enablePorts/ports by chart version:
# "prometheus" before 1.44.3, none in 1.44.3, "admin" from 1.44.4; enabled by
# default whenever present.
_HAPROXY_PPROF_PORT_KEY_STEPS: tuple[tuple[Version | None, str | None], ...] = (
    (None, "prometheus"),
    ((1, 44, 3), None),
    ((1, 44, 4), "admin"),
)


def haproxy_pprof_port_key(chart_version: ChartPin) -> str | None:
    """The ``enablePorts`` key of the 6060 port for a chart version.

    None when that version has no such port (1.44.3) or when the version is
    unknown (the name changed, so no single answer holds).
    """
    if exact_version(chart_version) is None:
        return None
    return chart_default(_HAPROXY_PPROF_PORT_KEY_STEPS, chart_version, known_since=HAPROXYTECH.known_since)
