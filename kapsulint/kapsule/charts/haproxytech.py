"""HAProxy Kubernetes Ingress, haproxytech's chart ``kubernetes-ingress``.

Sources: the chart's values and templates, 1.40.0 to 1.52.1
(https://github.com/haproxytech/helm-charts/tree/kubernetes-ingress-1.52.1/kubernetes-ingress; the
values of 1.40.0, 1.44.0 and 1.52.1 compared: the paths below did not change), the history of its
values (https://github.com/haproxytech/helm-charts/commits/c5edba19/kubernetes-ingress/values.yaml)
and the controller's ConfigMap documentation
(https://github.com/haproxytech/kubernetes-ingress/blob/fc120676/documentation/configmap.md).

* The Service type defaults to NodePort, not LoadBalancer; ``loadBalancerIP`` is rendered only
  for a LoadBalancer. ``templates/controller-service.yaml`` renders the Service when
  ``controller.service.enabled`` (default true), with one port per enabled ``enablePorts`` entry,
  each tested with a template ``if``.
* ``controller.config`` values are written unquoted into the ConfigMap: a non-string fails the
  apply. The chart ships no ``values.schema.json``.
* PROXY protocol: the ConfigMap key ``proxy-protocol`` (ConfigMap only) is a comma-separated list
  of IPs or CIDRs from which a PROXY header is required, ``0.0.0.0/0`` meaning every connection;
  invalid entries are logged and skipped (``pkg/handler/proxy-protocol.go``). A non-empty list
  adds ``expect-proxy`` to the HTTP and HTTPS frontends: a connection from a listed source without
  a PROXY header fails. The Service publishes them as ``controller.service.ports.http``/``https``
  (80/443), each unless ``controller.service.enablePorts.<name>`` is false.
* Admin ports: ``controller.service.enablePorts.stat`` (1024, the stats page) is on in every known
  version; the 6060 port is named ``prometheus`` before 1.44.3, absent in 1.44.3 and named
  ``admin`` (pprof) from 1.44.4, on by default whenever present; ``controller.pprof.enabled``
  (from 1.51.0, default true) also switches pprof. The Scaleway cloud controller manager opens a
  load balancer frontend for every TCP port of the Service (``serviceToLB`` in
  https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/scaleway/loadbalancers.go).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator, Sequence
from types import MappingProxyType

from kapsulint.api import Val, as_version, shown_text
from kapsulint.kapsule.access import is_any_address
from kapsulint.kapsule.charts import (
    AdminPort,
    AdminPorts,
    Chart,
    ChartPin,
    OpenTrust,
    Path,
    ProxyAdvice,
    TrafficPort,
    TrustedRanges,
    Version,
    cidr_entries,
    config_map,
    covers,
    exact_version,
    flag,
    key_loc,
    port_number,
    rendered_text,
    trusted,
)

CONFIG_PATH: Path = ("controller", "config")
PROXY_PROTOCOL_KEY = "proxy-protocol"
SERVICE_PORTS_PATH: Path = ("controller", "service", "ports")
ENABLE_PORTS_PATH: Path = ("controller", "service", "enablePorts")
TRAFFIC_PORTS = {"http": 80, "https": 443}  # controller.service.ports at 1.52.1
STATS_PORT = 1024
STAT_PORT_KEY = "stat"  # enablePorts.stat: true in every known version
PPROF_PORT = 6060
PPROF_ENABLED_PATH: Path = ("controller", "pprof", "enabled")
PPROF_SWITCH_SINCE: Version = (1, 51, 0)  # controller.pprof.enabled first appears in the 1.51.0 values
# The enablePorts key of the 6060 port by chart version.
_PPROF_PORT_KEY_STEPS: tuple[tuple[Version | None, str | None], ...] = (
    (None, "prometheus"),
    ((1, 44, 3), None),
    ((1, 44, 4), "admin"),
)


class Haproxytech(Chart):
    key = "haproxytech"
    chart_names = frozenset({"kubernetes-ingress"})
    repository_hints = ("haproxytech.github.io/helm-charts", "github.com/haproxytech/helm-charts")
    identifying_paths = frozenset({
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
    })
    known_since = (1, 40, 0)
    checked_version = (1, 52, 1)
    node_selector_path = ("controller", "nodeSelector")
    affinity_path = ("controller", "affinity")
    tolerations_path = ("controller", "tolerations")
    service_type_path = ("controller", "service", "type")
    service_annotations_path = ("controller", "service", "annotations")
    external_traffic_policy_path = ("controller", "service", "externalTrafficPolicy")
    load_balancer_ip_path = ("controller", "service", "loadBalancerIP")
    load_balancer_source_ranges_path = ("controller", "service", "loadBalancerSourceRanges")
    service_enabled_paths = (("controller", "service", "enabled"),)
    default_service_type = ((None, "NodePort"),)
    default_node_selector = ((None, {}),)
    unquoted_config_path = CONFIG_PATH
    has_admin_ports = True
    # templates/_helpers.tpl selectorLabels (the chart's name unless nameOverride), and the
    # controller's containerPort map, which names the pods' ports
    # (https://github.com/haproxytech/helm-charts/blob/kubernetes-ingress-1.52.1/kubernetes-ingress/values.yaml)
    pod_labels = MappingProxyType({"app.kubernetes.io/name": "kubernetes-ingress"})
    admin_container_ports = MappingProxyType({"stat": (STATS_PORT, "the stats page"), "admin": (PPROF_PORT, "pprof")})

    def open_trust(self, values: Val) -> Iterator[OpenTrust]:
        value = values.path(*CONFIG_PATH, PROXY_PROTOCOL_KEY)
        if not value.known or value.loc is None:
            return
        for entry, holder in cidr_entries(value):
            if is_any_address(entry) is True and holder.loc is not None:
                yield OpenTrust(holder.loc, PROXY_PROTOCOL_KEY, holder, f"lists {shown_text(holder, entry)}")
                break

    def trusted_ranges(self, values: Val) -> Iterator[TrustedRanges]:
        yield from trusted(values.path(*CONFIG_PATH, PROXY_PROTOCOL_KEY), PROXY_PROTOCOL_KEY)

    def traffic_ports(self, values: Val, version: ChartPin) -> list[TrafficPort] | None:
        expects, setting = _expectation(values)
        ports = values.path(*SERVICE_PORTS_PATH)
        return [
            TrafficPort(
                name,
                port_number(ports.get(name), self.since_known(number, version)),
                flag(values, ENABLE_PORTS_PATH + (name,), self.since_known(True, version)),
                expects,
                expects,
                setting,
                ".".join(CONFIG_PATH + (PROXY_PROTOCOL_KEY,)),
            )
            for name, number in TRAFFIC_PORTS.items()
        ]

    def unexpected_proxy(self, names: Sequence[str]) -> ProxyAdvice:
        setting = ".".join(CONFIG_PATH + (PROXY_PROTOCOL_KEY,))
        return ProxyAdvice(f"{self.key} has no {setting}",
                           f"set {setting} to the range the load balancer connects from, or remove the annotation")

    def admin_ports(self, values: Val, version: ChartPin) -> AdminPorts | None:
        if any(flag(values, path, True) is not True for path in self.service_enabled_paths):
            return None
        in_facts = covers(version, self.known_since) is not False
        exposed: list[AdminPort] = []
        uncertain = False

        stat = _port_enabled(values, STAT_PORT_KEY, True if in_facts else None)
        if stat:
            exposed.append(AdminPort(STAT_PORT_KEY, STATS_PORT, "the stats page",
                                     key_loc(values, ENABLE_PORTS_PATH + (STAT_PORT_KEY,))))
        uncertain |= stat is None

        exact = exact_version(version)
        if exact is None or not in_facts:
            return AdminPorts(tuple(exposed), True, ENABLE_PORTS_PATH)  # the 6060 port's name depends on the version
        key = pprof_port_key(exact)
        if key is None:
            return AdminPorts(tuple(exposed), uncertain, ENABLE_PORTS_PATH)  # 1.44.3 has no 6060 Service port
        pprof = _port_enabled(values, key, True)
        if pprof and as_version(exact) >= PPROF_SWITCH_SINCE:
            switched = flag(values, PPROF_ENABLED_PATH, True)
            pprof = switched if switched is not True else pprof
        if pprof:
            what = "pprof" if key == "admin" else f"the {key} port"
            exposed.append(AdminPort(key, PPROF_PORT, what, key_loc(values, ENABLE_PORTS_PATH + (key,))))
        uncertain |= pprof is None
        return AdminPorts(tuple(exposed), uncertain, ENABLE_PORTS_PATH)


CHART = Haproxytech()


def pprof_port_key(version: ChartPin) -> str | None:
    """The ``enablePorts`` key of the 6060 port for a chart version: None when that version has no
    such port (1.44.3) or when the version is unknown (the name changed, so no single answer
    holds)."""
    if exact_version(version) is None:
        return None
    return CHART.default(_PPROF_PORT_KEY_STEPS, version)


def _expectation(values: Val) -> tuple[bool | None, Val | None]:
    """Whether the HTTP and HTTPS frontends require PROXY, and the value that says so."""
    config = config_map(values, CONFIG_PATH)
    if config is None:
        return None, None
    value = config.get(PROXY_PROTOCOL_KEY)
    if value.raw is None:
        return False, None
    text = rendered_text(value)
    if text is None or not isinstance(value.raw, str):
        return None, value  # Unknown, or not a string (the ConfigMap apply fails: KAP309)
    entries = [entry.strip() for entry in text.split(",") if entry.strip()]
    if not entries:
        return False, value
    for entry in entries:
        try:
            ipaddress.ip_network(entry, strict=False)
            return True, value
        except ValueError:
            continue
    return None, value  # only invalid entries: the controller logs each one and installs no rule


def _port_enabled(values: Val, key: str, default: bool | None) -> bool | None:
    path = ENABLE_PORTS_PATH + (key,)
    if default is None:
        return flag(values, path, False) if values.path(*path).raw is not None else None
    return flag(values, path, default)

