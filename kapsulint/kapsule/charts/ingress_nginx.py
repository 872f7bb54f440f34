"""ingress-nginx, the Kubernetes project's chart ``ingress-nginx`` (4.15.1, its last release; the
project was retired in March 2026).

Sources: https://github.com/kubernetes/ingress-nginx/blob/helm-chart-4.15.1/charts/ingress-nginx/values.yaml,
https://github.com/kubernetes/ingress-nginx/blob/helm-chart-4.15.1/charts/ingress-nginx/templates/controller-service.yaml
and https://github.com/kubernetes/ingress-nginx/blob/controller-v1.15.1/docs/user-guide/nginx-configuration/configmap.md.

* The Service type defaults to LoadBalancer and the pod nodeSelector to ``kubernetes.io/os:
  linux`` (read in a 4.0.x-era values.yaml, controller v1.1.1, and at 4.15.1). The Service is
  rendered when ``controller.service.enabled`` and ``controller.service.external.enabled`` (both
  default true). ``controller.config`` values are quoted by the chart, so booleans are safe.
* PROXY protocol: ``controller.config.use-proxy-protocol`` (``"false"`` by default) true makes
  every HTTP and HTTPS listener require the header; ``proxy-real-ip-cidr`` (default
  ``0.0.0.0/0``: every peer) lists the peers trusted to supply the client address. The Service
  publishes ``controller.service.ports.http``/``https`` (80/443) unless
  ``controller.service.enableHttp``/``enableHttps`` is false.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from kapsulint.api import Val, shown_text
from kapsulint.kapsule.access import is_any_address
from kapsulint.kapsule.charts import (
    Chart, ChartPin, OpenTrust, Path, ProxyAdvice, TrafficPort, TrustedRanges, cidr_entries, config_map, flag,
    port_number, rendered_text, trusted,
)
from kapsulint.kapsule.go_strconv import parse_bool

CONFIG_PATH: Path = ("controller", "config")
USE_PROXY_PROTOCOL_KEY = "use-proxy-protocol"
PROXY_REAL_IP_CIDR_KEY = "proxy-real-ip-cidr"
PROXY_REAL_IP_CIDR_DEFAULT = "0.0.0.0/0"
SERVICE_PATH: Path = ("controller", "service")
# Each traffic port: its default number and the key under controller.service that publishes it.
TRAFFIC_PORTS = {"http": (80, "enableHttp"), "https": (443, "enableHttps")}


class IngressNginx(Chart):
    key = "ingress-nginx"
    chart_names = frozenset({"ingress-nginx"})
    repository_hints = ("kubernetes.github.io/ingress-nginx", "github.com/kubernetes/ingress-nginx")
    identifying_paths = frozenset({
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
    })
    known_since = (4, 0, 0)
    checked_version = (4, 15, 1)
    node_selector_path = ("controller", "nodeSelector")
    affinity_path = ("controller", "affinity")
    tolerations_path = ("controller", "tolerations")
    service_type_path = ("controller", "service", "type")
    service_annotations_path = ("controller", "service", "annotations")
    external_traffic_policy_path = ("controller", "service", "externalTrafficPolicy")
    load_balancer_ip_path = ("controller", "service", "loadBalancerIP")
    load_balancer_source_ranges_path = ("controller", "service", "loadBalancerSourceRanges")
    service_enabled_paths = (("controller", "service", "enabled"), ("controller", "service", "external", "enabled"))
    default_service_type = ((None, "LoadBalancer"),)
    default_node_selector = ((None, {"kubernetes.io/os": "linux"}),)

    def open_trust(self, values: Val) -> Iterator[OpenTrust]:
        enabled = values.path(*CONFIG_PATH, USE_PROXY_PROTOCOL_KEY)
        if not enabled.known or not enabled.is_true() or enabled.loc is None:
            return
        config = values.path(*CONFIG_PATH)
        cidr = config.get(PROXY_REAL_IP_CIDR_KEY)
        if cidr.raw is None:
            if config.known and not config.open:
                yield OpenTrust(enabled.loc, USE_PROXY_PROTOCOL_KEY, enabled,
                                f"without {PROXY_REAL_IP_CIDR_KEY}, which defaults to {PROXY_REAL_IP_CIDR_DEFAULT}")
            return
        if cidr.known:
            for entry, holder in cidr_entries(cidr):
                if is_any_address(entry) is True and holder.loc is not None:
                    yield OpenTrust(holder.loc, PROXY_REAL_IP_CIDR_KEY, holder, f"lists {shown_text(holder, entry)}")
                    break

    def trusted_ranges(self, values: Val) -> Iterator[TrustedRanges]:
        enabled = values.path(*CONFIG_PATH, USE_PROXY_PROTOCOL_KEY)
        if enabled.known and enabled.is_true():
            yield from trusted(values.path(*CONFIG_PATH, PROXY_REAL_IP_CIDR_KEY), PROXY_REAL_IP_CIDR_KEY)

    def traffic_ports(self, values: Val, version: ChartPin) -> list[TrafficPort] | None:
        expects, setting = _expectation(values)
        ports = values.path(*SERVICE_PATH, "ports")
        return [
            TrafficPort(
                name,
                port_number(ports.get(name), self.since_known(number, version)),
                flag(values, SERVICE_PATH + (switch,), self.since_known(True, version)),
                expects,
                expects,
                setting,
                ".".join(CONFIG_PATH + (USE_PROXY_PROTOCOL_KEY,)),
            )
            for name, (number, switch) in TRAFFIC_PORTS.items()
        ]

    def unexpected_proxy(self, names: Sequence[str]) -> ProxyAdvice:
        setting = ".".join(CONFIG_PATH + (USE_PROXY_PROTOCOL_KEY,))
        return ProxyAdvice(f"{self.key} does not enable {USE_PROXY_PROTOCOL_KEY}",
                           f'set {setting} to "true", or remove the annotation')


CHART = IngressNginx()


def _expectation(values: Val) -> tuple[bool | None, Val | None]:
    """Whether every listener requires PROXY, and the value that says so."""
    config = config_map(values, CONFIG_PATH)
    if config is None:
        return None, None
    value = config.get(USE_PROXY_PROTOCOL_KEY)
    if value.raw is None:
        return False, None  # default "false"
    text = rendered_text(value)
    if text is None:
        return None, value
    return parse_bool(text), value
