"""PROXY protocol per Service port: what the Scaleway load balancer sends, what the controller expects.

Load balancer side. The Scaleway Cloud Controller Manager reads three Service annotations
(CCM ``scaleway/loadbalancers_annotations.go`` and ``docs/loadbalancer-annotations.md`` at
v0.36.2; https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md):

* ``scw-loadbalancer-proxy-protocol-v1`` and ``-v2`` (``isPortInRange``): a value Go's
  ``strconv.ParseBool`` reads as a boolean, except ``"1"`` and ``"0"``, means every port or none;
  ``"*"`` means every port; an empty value none; anything else is a comma-separated list of
  **Service ports** (spaces removed, each read by ``strconv.ParseInt(s, 0, 64)``, so ``0x50`` and
  ``0120`` are 80 too). An entry that is not a number makes the CCM refuse the Service; recent
  versions also refuse ports outside 1-65535.
* ``getProxyProtocol``: a port listed by both v1 and v2 is an error (``port %d is in both v1 and
  v2 proxy protocols``); otherwise v1, then v2, then the deprecated ``scw-loadbalancer-send-proxy-v2``
  decides.
* ``send-proxy-v2`` (``getSendProxyV2``): any ``strconv.ParseBool`` value (``"1"`` and ``"0"``
  included) means every port or none; otherwise a port list as above (no ``"*"``).
* ``scw-loadbalancer-externally-managed``: read with ``strconv.ParseBool``.

The CCM only builds a load balancer for a Service of type ``LoadBalancer``.

Controller side (https://github.com/haproxytech/kubernetes-ingress/blob/fc120676/documentation/configmap.md, https://github.com/kubernetes/ingress-nginx/blob/helm-chart-4.15.1/charts/ingress-nginx/values.yaml, https://github.com/traefik/traefik-helm-chart/blob/v41.3.0/traefik/values.yaml, https://github.com/kubernetes/ingress-nginx/blob/controller-v1.15.1/docs/user-guide/nginx-configuration/configmap.md):

* haproxytech: a non-empty ``controller.config.proxy-protocol`` (IPs or CIDRs; invalid entries
  are logged and skipped) adds ``expect-proxy`` to the HTTP and HTTPS frontends: a connection
  from a listed source without a PROXY header fails, and a PROXY header on a frontend without it
  is read as garbage. The Service publishes them as ``controller.service.ports.http``/``https``
  (80/443), each present unless ``controller.service.enablePorts.<name>`` is false.
* ingress-nginx: ``controller.config.use-proxy-protocol`` true makes every HTTP and HTTPS
  listener require the header. The Service publishes ``controller.service.ports.http``/``https``
  (80/443) unless ``controller.service.enableHttp``/``enableHttps`` is false.
* traefik: an entry point with ``ports.<ep>.proxyProtocol.trustedIPs`` or ``insecure`` (or the
  matching ``--entryPoints.<ep>.proxyProtocol.*`` argument) accepts connections with or without a
  header; without it a header breaks the request. The Service publishes the entry point on
  ``ports.<ep>.exposedPort`` (web 80, websecure 443) when ``ports.<ep>.expose.default`` is true
  (the default for web and websecure).

Only the controller's traffic ports are judged (haproxytech and ingress-nginx HTTP and HTTPS,
traefik entry points other than its own ``traefik`` and ``metrics`` ones): admin and metrics
ports are another matter. A chart switch is read as a template ``if`` reads it; the Service
exists only when ``controller.service.enabled`` (haproxytech), ``controller.service.enabled`` and
``controller.service.external.enabled`` (ingress-nginx) or ``service.enabled`` (traefik) are on,
as they are by default.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from kapsulint.api import Val
from kapsulint.kapsule import charts, lb_annotation_keys
from kapsulint.kapsule.service import ControllerService

__all__ = [
    "LbProxy",
    "PortSending",
    "PortSet",
    "TrafficPort",
    "externally_managed",
    "go_parse_bool",
    "go_parse_int",
    "lb_proxy",
    "parse_proxy_protocol_ports",
    "parse_send_proxy_v2_ports",
    "traffic_ports",
]

# strconv.ParseBool (Go standard library): exactly these spellings.
_GO_TRUE = frozenset({"1", "t", "T", "TRUE", "true", "True"})
_GO_FALSE = frozenset({"0", "f", "F", "FALSE", "false", "False"})


def go_parse_bool(text: str) -> bool | None:
    """Go's ``strconv.ParseBool``: True, False, or None when it returns an error."""
    if text in _GO_TRUE:
        return True
    if text in _GO_FALSE:
        return False
    return None


_GO_INT = re.compile(
    r"^[+-]?(?:0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|0(?:_?[0-7])*|[1-9](?:_?[0-9])*)$"
)


def go_parse_int(text: str) -> int | None:
    """Go's ``strconv.ParseInt(text, 0, 64)``: prefixes 0x, 0o, 0b and a leading 0 (octal)."""
    if not _GO_INT.match(text):
        return None
    body = text.replace("_", "")
    sign = -1 if body.startswith("-") else 1
    body = body.lstrip("+-")
    if len(body) > 1 and body[0] == "0" and body[1] not in "xXoObB":
        number = int(body, 8)
    else:
        number = int(body, 0)
    number *= sign
    if not -(2**63) <= number < 2**63:
        return None
    return number


class PortSet(NamedTuple):
    """Service ports an annotation covers: every port, or the listed ones."""

    every: bool = False
    ports: frozenset[int] = frozenset()

    def covers(self, port: int) -> bool:
        return self.every or port in self.ports

    @property
    def empty(self) -> bool:
        return not self.every and not self.ports

    def intersection(self, other: PortSet) -> PortSet:
        if self.every:
            return other
        if other.every:
            return self
        return PortSet(False, self.ports & other.ports)

    def describe(self) -> str:
        if self.every:
            return "every port"
        listed = sorted(self.ports)
        if not listed:
            return "no port"
        word = "port" if len(listed) == 1 else "ports"
        return f"{word} " + ", ".join(str(p) for p in listed)


EVERY_PORT = PortSet(True)
NO_PORT = PortSet(False)


def _port_list(text: str) -> PortSet | None:
    ports: set[int] = set()
    for entry in text.replace(" ", "").split(","):
        number = go_parse_int(entry)
        if number is None or not 1 <= number <= 65535:
            return None
        ports.add(number)
    return PortSet(False, frozenset(ports))


def parse_proxy_protocol_ports(text: str) -> PortSet | None:
    """The ports a ``proxy-protocol-v1``/``-v2`` value covers; None when the CCM refuses it."""
    boolean = go_parse_bool(text)
    if boolean is not None and text not in ("1", "0"):
        return EVERY_PORT if boolean else NO_PORT
    if text == "*":
        return EVERY_PORT
    if text == "":
        return NO_PORT
    return _port_list(text)


def parse_send_proxy_v2_ports(text: str) -> PortSet | None:
    """The ports the deprecated ``send-proxy-v2`` value covers; None when the CCM refuses it."""
    boolean = go_parse_bool(text)
    if boolean is not None:
        return EVERY_PORT if boolean else NO_PORT
    return _port_list(text)


def _annotation_text(value: Val) -> str | None:
    """An annotation value as the chart renders it (``quote``): None when Unknown or not a scalar."""
    if not value.known or value.contains_unknown():
        return None
    return value.text()


def externally_managed(service: ControllerService) -> bool | None:
    """Whether the Service carries ``scw-loadbalancer-externally-managed`` meaning true; None if Unknown."""
    value = service.annotation(lb_annotation_keys.LB_EXTERNALLY_MANAGED)
    if value.raw is None:
        return False if service.annotations_known else None
    text = _annotation_text(value)
    return None if text is None else go_parse_bool(text)


class PortSending:
    """Whether the load balancer sends PROXY to one Service port, and which annotation decides."""

    sends: bool
    annotation: str | None  # the deciding annotation's name, None when none covers the port
    value: Val | None  # its value

    def __init__(self, sends: bool, annotation: str | None, value: Val | None) -> None:
        self.sends = sends
        self.annotation = annotation
        self.value = value


class LbProxy:
    """The PROXY annotations of one Service, parsed. A parsed set is None when Unknown or invalid."""

    v1: Val
    v2: Val
    send_v2: Val
    v1_ports: PortSet | None
    v2_ports: PortSet | None
    send_v2_ports: PortSet | None

    def __init__(
        self,
        v1: Val,
        v2: Val,
        send_v2: Val,
        v1_ports: PortSet | None,
        v2_ports: PortSet | None,
        send_v2_ports: PortSet | None,
    ) -> None:
        self.v1 = v1
        self.v2 = v2
        self.send_v2 = send_v2
        self.v1_ports = v1_ports
        self.v2_ports = v2_ports
        self.send_v2_ports = send_v2_ports

    def sending(self, port: int) -> PortSending | None:
        """What the CCM configures for ``port`` (``getProxyProtocol``); None when Unknown or refused."""
        if self.v1_ports is None or self.v2_ports is None:
            return None
        in_v1, in_v2 = self.v1_ports.covers(port), self.v2_ports.covers(port)
        if in_v1 and in_v2:
            return None  # the CCM refuses the Service (KAP313)
        if in_v1:
            return PortSending(True, lb_annotation_keys.LB_PROXY_PROTOCOL_V1, self.v1)
        if in_v2:
            return PortSending(True, lb_annotation_keys.LB_PROXY_PROTOCOL_V2, self.v2)
        if self.send_v2_ports is None:
            return None
        if self.send_v2_ports.covers(port):
            return PortSending(True, lb_annotation_keys.LB_SEND_PROXY_V2, self.send_v2)
        return PortSending(False, None, None)

    def written(self) -> list[tuple[str, Val]]:
        """The PROXY annotations present, by name."""
        return [(name, value) for name, value in (
            (lb_annotation_keys.LB_PROXY_PROTOCOL_V1, self.v1),
            (lb_annotation_keys.LB_PROXY_PROTOCOL_V2, self.v2),
            (lb_annotation_keys.LB_SEND_PROXY_V2, self.send_v2),
        ) if value.raw is not None]


def lb_proxy(service: ControllerService) -> LbProxy:
    """Parse the Service's PROXY annotations (absent means no port; Unknown gives None)."""
    known_keys = service.annotations_known

    def read(name: str, parser: Callable[[str], PortSet | None]) -> tuple[Val, PortSet | None]:
        value = service.annotation(name)
        if value.raw is None:
            return value, (NO_PORT if known_keys else None)
        text = _annotation_text(value)
        return value, (None if text is None else parser(text))

    v1, v1_ports = read(lb_annotation_keys.LB_PROXY_PROTOCOL_V1, parse_proxy_protocol_ports)
    v2, v2_ports = read(lb_annotation_keys.LB_PROXY_PROTOCOL_V2, parse_proxy_protocol_ports)
    send_v2, send_v2_ports = read(lb_annotation_keys.LB_SEND_PROXY_V2, parse_send_proxy_v2_ports)
    return LbProxy(v1, v2, send_v2, v1_ports, v2_ports, send_v2_ports)


# ---------------------------------------------------------------------------
# Controller side
# ---------------------------------------------------------------------------

# Service port values paths (haproxytech controller-service.yaml; ingress-nginx
# templates/controller-service.yaml, chart 4.15.1).
SERVICE_PORTS_PATH = ("controller", "service", "ports")  # haproxytech and ingress-nginx
HAPROXY_ENABLE_PORTS_PATH = charts.HAPROXY_ENABLE_PORTS_PATH
NGINX_ENABLE_PORT_KEYS = {"http": "enableHttp", "https": "enableHttps"}
NGINX_SERVICE_PATH = ("controller", "service")
# traefik: ports.<ep>.exposedPort and ports.<ep>.expose.default (chart 41.3.0).
TRAEFIK_EXPOSED_PORT_KEY = "exposedPort"
TRAEFIK_EXPOSE_KEY = "expose"
# The chart's own dashboard/API and metrics entry points are not traffic ports.
TRAEFIK_ADMIN_ENTRYPOINTS = frozenset({"traefik", "metrics"})

_TRAFFIC_PORTS = {
    "haproxytech": ("http", "https"),
    "ingress-nginx": ("http", "https"),
}


class TrafficPort:
    """One of the controller's HTTP or HTTPS ports as its Service publishes it.

    ``port`` and ``published`` are None when Unknown. ``accepts``: a PROXY header on this port is
    understood; ``requires``: a connection without one fails. Both None when Unknown.
    ``setting``/``setting_name`` name the controller value that makes it expect PROXY.
    """

    name: str
    port: int | None
    published: bool | None
    accepts: bool | None
    requires: bool | None
    setting: Val | None
    setting_name: str

    def __init__(
        self,
        name: str,
        port: int | None,
        published: bool | None,
        accepts: bool | None,
        requires: bool | None,
        setting: Val | None = None,
        setting_name: str = "",
    ) -> None:
        self.name = name
        self.port = port
        self.published = published
        self.accepts = accepts
        self.requires = requires
        self.setting = setting
        self.setting_name = setting_name


def _number(value: Val) -> int | None:
    if not value.known or isinstance(value.raw, bool):
        return None
    if isinstance(value.raw, int):
        return value.raw
    if isinstance(value.raw, float) and value.raw.is_integer():
        return int(value.raw)
    if isinstance(value.raw, str) and value.raw.strip().isdigit():
        return int(value.raw.strip())
    return None


def _default(service: ControllerService, value: Any) -> Any:
    """A chart default, None when the pinned chart is older than the checked facts."""
    return charts.chart_default(((None, value),), service.chart_version,
                                known_since=service.controller.known_since)


def _flag(value: Val, default: bool | None) -> bool | None:
    """A chart switch read as a template ``if`` reads it: its default when unset, None when
    Unknown (a non-empty string is truthy to the template but more likely a mistake: Unknown)."""
    if value.raw is None:
        return default if value.known else None
    if not value.known:
        return None
    raw = value.raw
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, (int, float)):
        return raw != 0
    if isinstance(raw, (str, list, dict)) and len(raw) == 0:
        return False
    return None


def _port_number(value: Val, default: int | None) -> int | None:
    if value.raw is None:
        return default if value.known else None
    return _number(value)


def _config_map(values: Val) -> Val | None:
    """``controller.config`` as a map; None when it may hold anything (Unknown, open, a string)."""
    config = values.path(*charts.HAPROXY_CONFIG_PATH)
    if not config.known or config.open:
        return None
    if config.raw is not None and not config.is_object:
        return None
    return config


def _haproxy_expectation(values: Val) -> tuple[bool | None, Val | None]:
    config = _config_map(values)
    if config is None:
        return None, None
    value = config.get("proxy-protocol")
    if value.raw is None:
        return False, None
    text = _annotation_text(value)
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
    # Only invalid entries: the controller logs each one and installs no rule.
    return None, value


def _nginx_expectation(values: Val) -> tuple[bool | None, Val | None]:
    config = _config_map(values)
    if config is None:
        return None, None
    value = config.get("use-proxy-protocol")
    if value.raw is None:
        return False, None  # default "false" (configmap.md)
    text = _annotation_text(value)
    if text is None:
        return None, value
    return go_parse_bool(text), value


def _service_ports(service: ControllerService, enable: dict[str, Val], default_enable: bool) -> list[TrafficPort]:
    values = service.values
    ports_node = values.path(*SERVICE_PORTS_PATH)
    out = []
    for name in _TRAFFIC_PORTS[service.controller.key]:
        default_port = _default(service, service.controller.default_service_ports[name])
        port = _port_number(ports_node.get(name), default_port)
        published = _flag(enable[name], _default(service, default_enable))
        out.append(TrafficPort(name, port, published, None, None))
    return out


def _traefik_argument_entrypoints(values: Val) -> tuple[set[str], bool]:
    """Entry points (lower case) given PROXY settings in ``additionalArguments``; False when Unknown."""
    arguments = values.path(*charts.TRAEFIK_ADDITIONAL_ARGUMENTS_PATH)
    if arguments.raw is None:
        return set(), arguments.known
    if not arguments.known or arguments.contains_unknown() or not arguments.is_list:
        return set(), False
    found: set[str] = set()
    for argument in arguments.elements():
        text = argument.text()
        parsed = charts.parse_traefik_proxy_protocol_arg(text) if text else None
        if parsed is None:
            continue
        if parsed.setting == "insecure" and go_parse_bool(parsed.value) is not True:
            continue
        if parsed.setting == "trustedIPs" and not parsed.value.strip():
            continue
        found.add(parsed.entrypoint.lower())
    return found, True


def _traefik_accepts(entry: Val) -> bool | None:
    settings = entry.get("proxyProtocol")
    if settings.raw is None:
        return False if settings.known else None
    if not settings.known or settings.open:
        return None
    insecure = settings.get("insecure")
    trusted = settings.get("trustedIPs")
    if not insecure.known or not trusted.known or trusted.contains_unknown():
        return None
    if insecure.is_true():
        return True
    if trusted.is_list and trusted.elements():
        return True
    if isinstance(trusted.raw, str) and trusted.raw.strip():
        return True
    return False


def _traefik_ports(service: ControllerService) -> list[TrafficPort] | None:
    values = service.values
    ports = values.path(*charts.TRAEFIK_PORTS_PATH)
    if not ports.known or ports.open:
        return None
    from_arguments, arguments_known = _traefik_argument_entrypoints(values)
    names = [name for name in charts.TRAEFIK_DEFAULT_ENTRYPOINTS if name not in TRAEFIK_ADMIN_ENTRYPOINTS]
    names += [name for name, _ in ports.items()
              if name not in charts.TRAEFIK_DEFAULT_ENTRYPOINTS and name not in TRAEFIK_ADMIN_ENTRYPOINTS]
    out = []
    for name in names:
        entry = ports.get(name)
        if entry.raw is not None and (not entry.is_object or entry.open):
            out.append(TrafficPort(name, None, None, None, False))
            continue
        default = charts.TRAEFIK_DEFAULT_ENTRYPOINTS.get(name)
        default_port = _default(service, default[1]) if default else None
        written_port = entry.get(TRAEFIK_EXPOSED_PORT_KEY)
        if written_port.raw is None and default is None:
            written_port = entry.get("port")  # the chart falls back to the container port
        port = _port_number(written_port, default_port)
        expose = entry.get(TRAEFIK_EXPOSE_KEY)
        published: bool | None
        if isinstance(expose.raw, bool):
            published = expose.raw  # older charts: expose: true
        elif expose.raw is None or expose.is_object:
            published = _flag(expose.get("default"), _default(service, default[2]) if default else None)
        else:
            published = None
        accepts = _traefik_accepts(entry)
        if name.lower() in from_arguments:
            accepts = True
        elif not arguments_known and accepts is not True:
            accepts = None
        out.append(TrafficPort(name, port, published, accepts, False))
    return out


def traffic_ports(service: ControllerService) -> list[TrafficPort] | None:
    """The controller's traffic ports and their PROXY expectation; None when the values are Unknown."""
    values = service.values
    if not values.known:
        return None
    key = service.controller.key  # a Service the values switch off never gets here (service.services)
    if key == charts.TRAEFIK.key:
        return _traefik_ports(service)
    if key == charts.HAPROXYTECH.key:
        enable_node = values.path(*HAPROXY_ENABLE_PORTS_PATH)
        enable = {name: enable_node.get(name) for name in _TRAFFIC_PORTS[key]}
        expects, setting = _haproxy_expectation(values)
        setting_name = "controller.config.proxy-protocol"
    elif key == charts.INGRESS_NGINX.key:
        node = values.path(*NGINX_SERVICE_PATH)
        enable = {name: node.get(flag) for name, flag in NGINX_ENABLE_PORT_KEYS.items()}
        expects, setting = _nginx_expectation(values)
        setting_name = "controller.config.use-proxy-protocol"
    else:
        return None
    ports = _service_ports(service, enable, True)
    for port in ports:
        port.accepts = expects
        port.requires = expects
        port.setting = setting
        port.setting_name = setting_name
    return ports


def published_ports(ports: list[TrafficPort]) -> Iterator[TrafficPort]:
    """The traffic ports certainly on the Service, with a known number."""
    for port in ports:
        if port.published is True and port.port is not None:
            yield port
