"""Traefik, the chart ``traefik`` of traefik/traefik-helm-chart (41.3.0).

Sources: https://github.com/traefik/traefik-helm-chart/blob/v41.3.0/traefik/values.yaml,
https://github.com/traefik/traefik-helm-chart/blob/v41.3.0/traefik/templates/_podtemplate.tpl,
https://github.com/traefik/traefik-helm-chart/blob/v41.3.0/traefik/templates/service.yaml and the
entry point documentation (https://doc.traefik.io/traefik/routing/entrypoints/#proxyprotocol).
Only 41.3.0 was checked: older pinned versions have unknown defaults.

* Pod placement keys are top level; Service extras go under ``service.spec``. The Service is
  rendered when ``service.enabled`` (default true), type LoadBalancer by default. The chart ships
  a ``values.schema.json``, so unknown keys fail ``helm install``; ``ingressClass.isDefaultClass``
  is true by default.
* PROXY protocol, per entry point: ``ports.<ep>.proxyProtocol.insecure`` or ``trustedIPs`` (a
  list), rendered as ``--entryPoints.<ep>.proxyProtocol.*`` arguments; the same flags may be
  written in ``additionalArguments``. An entry point so configured accepts connections with or
  without a PROXY header (from the trusted sources, or any with ``insecure``); without it a header
  breaks the request. The Service publishes an entry point on ``ports.<ep>.exposedPort`` (web 80,
  websecure 443) when ``ports.<ep>.expose.default`` is true, the default for web and websecure.
  The chart's own ``traefik`` (dashboard and API) and ``metrics`` entry points are not traffic
  ports.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import NamedTuple

from kapsulint.api import Val, shown_text
from kapsulint.kapsule.access import is_any_address
from kapsulint.kapsule.charts import (
    Chart,
    ChartPin,
    OpenTrust,
    Path,
    ProxyAdvice,
    TrafficPort,
    TrustedRanges,
    cidr_entries,
    flag,
    port_number,
    trusted,
)
from kapsulint.kapsule.go_strconv import parse_bool
from kapsulint.text import lazy_pattern

PORTS_PATH: Path = ("ports",)
PROXY_PROTOCOL_INSECURE: Path = ("proxyProtocol", "insecure")
PROXY_PROTOCOL_TRUSTED_IPS: Path = ("proxyProtocol", "trustedIPs")
ADDITIONAL_ARGUMENTS_PATH: Path = ("additionalArguments",)
EXPOSED_PORT_KEY = "exposedPort"
EXPOSE_KEY = "expose"
# Chart 41.3.0 entry points: name -> (container port, exposed port, exposed by default on the Service).
DEFAULT_ENTRYPOINTS: Mapping[str, tuple[int, int, bool]] = {
    "traefik": (8080, 8080, False),
    "web": (8000, 80, True),
    "websecure": (8443, 443, True),
    "metrics": (9100, 9100, False),
}
ADMIN_ENTRYPOINTS = frozenset({"traefik", "metrics"})


class ProxyProtocolArgument(NamedTuple):
    """One ``--entryPoints.<ep>.proxyProtocol.<setting>[=value]`` argument.

    ``setting`` is ``"insecure"`` or ``"trustedIPs"``. For ``insecure`` the value is ``"true"``
    when the flag is given bare. For ``trustedIPs`` the value is the raw comma-separated list.
    """

    entrypoint: str
    setting: str
    value: str


# Traefik's command-line flags are matched without regard to case (the chart writes
# ``entryPoints``, users often write ``entrypoints``).
_PROXY_PROTOCOL_ARGUMENT = lazy_pattern(
    r"^--entrypoints\.(?P<ep>[^.=\s]+)\.proxyprotocol\.(?P<setting>insecure|trustedips)(?:=(?P<value>.*))?$",
    re.IGNORECASE,
)


def parse_proxy_protocol_argument(argument: str) -> ProxyProtocolArgument | None:
    """Parse a PROXY-protocol command-line argument, or None for any other text."""
    m = _PROXY_PROTOCOL_ARGUMENT.match(argument.strip())
    if not m:
        return None
    setting = "insecure" if m.group("setting").lower() == "insecure" else "trustedIPs"
    value = m.group("value")
    if value is None:
        if setting == "trustedIPs":
            return None
        value = "true"
    return ProxyProtocolArgument(m.group("ep"), setting, value.strip())


class Traefik(Chart):
    key = "traefik"
    chart_names = frozenset({"traefik"})
    repository_hints = (
        "traefik.github.io/charts",
        "helm.traefik.io/traefik",
        "github.com/traefik/traefik-helm-chart",
        "containous.github.io/traefik-helm-chart",
    )
    identifying_paths = frozenset({
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
    })
    known_since = (41, 0, 0)
    checked_version = (41, 3, 0)
    node_selector_path = ("nodeSelector",)
    affinity_path = ("affinity",)
    tolerations_path = ("tolerations",)
    service_type_path = ("service", "type")
    service_annotations_path = ("service", "annotations")
    external_traffic_policy_path = ("service", "spec", "externalTrafficPolicy")
    load_balancer_ip_path = ("service", "spec", "loadBalancerIP")
    load_balancer_source_ranges_path = ("service", "loadBalancerSourceRanges")
    service_enabled_paths = (("service", "enabled"),)
    default_service_type = ((None, "LoadBalancer"),)
    default_node_selector = ((None, {}),)
    flat_key_maps = frozenset({"annotationsTCP", "annotationsUDP"})  # service.annotationsTCP/UDP
    may_require_proxy = False  # an entry point with proxyProtocol reads a header, never requires one

    def open_trust(self, values: Val) -> Iterator[OpenTrust]:
        for name, port in values.path(*PORTS_PATH).items():
            insecure = port.path(*PROXY_PROTOCOL_INSECURE)
            if insecure.known and insecure.is_true() and insecure.loc is not None:
                yield OpenTrust(insecure.loc, f"ports.{name}.proxyProtocol.insecure", insecure, "is true")
            trusted = port.path(*PROXY_PROTOCOL_TRUSTED_IPS)
            if trusted.known:
                for entry, holder in cidr_entries(trusted):
                    if is_any_address(entry) is True and holder.loc is not None:
                        yield OpenTrust(holder.loc, f"ports.{name}.proxyProtocol.trustedIPs", holder,
                                        f"lists {shown_text(holder, entry)}")
                        break
        for argument in values.path(*ADDITIONAL_ARGUMENTS_PATH).elements():
            text = argument.text() if argument.known else None
            parsed = parse_proxy_protocol_argument(text) if text else None
            if parsed is None or argument.loc is None:
                continue
            if parsed.setting == "insecure" and parsed.value.lower() == "true":
                yield OpenTrust(argument.loc, "additionalArguments", argument,
                                f"sets entry point {shown_text(argument, parsed.entrypoint)} insecure")
            elif parsed.setting == "trustedIPs" and any(is_any_address(p) is True for p in parsed.value.split(",")):
                yield OpenTrust(argument.loc, "additionalArguments", argument, "trusts a /0 range")

    def trusted_ranges(self, values: Val) -> Iterator[TrustedRanges]:
        for name, port in values.path(*PORTS_PATH).items():
            insecure = port.path(*PROXY_PROTOCOL_INSECURE)
            if not (insecure.known and insecure.is_true()):
                yield from trusted(port.path(*PROXY_PROTOCOL_TRUSTED_IPS), f"ports.{name}.proxyProtocol.trustedIPs")

    def traffic_ports(self, values: Val, version: ChartPin) -> list[TrafficPort] | None:
        ports = values.path(*PORTS_PATH)
        if not ports.known or ports.open:
            return None
        from_arguments, arguments_known = _argument_entrypoints(values)
        names = [name for name in DEFAULT_ENTRYPOINTS if name not in ADMIN_ENTRYPOINTS]
        names += [name for name, _ in ports.items() if name not in DEFAULT_ENTRYPOINTS and name not in ADMIN_ENTRYPOINTS]
        out = []
        for name in names:
            entry = ports.get(name)
            if entry.raw is not None and (not entry.is_object or entry.open):
                out.append(TrafficPort(name, None, None, None, False))
                continue
            default = DEFAULT_ENTRYPOINTS.get(name)
            default_port = self.since_known(default[1], version) if default else None
            written_port = entry.get(EXPOSED_PORT_KEY)
            if written_port.raw is None and default is None:
                written_port = entry.get("port")  # the chart falls back to the container port
            port = port_number(written_port, default_port)
            expose = entry.get(EXPOSE_KEY)
            published: bool | None
            if isinstance(expose.raw, bool):
                published = expose.raw  # older charts: expose: true
            elif expose.raw is None or expose.is_object:
                published = flag(values, PORTS_PATH + (name, EXPOSE_KEY, "default"),
                                 self.since_known(default[2], version) if default else None)
            else:
                published = None
            accepts = _accepts(entry)
            if name.lower() in from_arguments:
                accepts = True
            elif not arguments_known and accepts is not True:
                accepts = None
            out.append(TrafficPort(name, port, published, accepts, False))
        return out

    def unexpected_proxy(self, names: Sequence[str]) -> ProxyAdvice:
        listed = sorted(set(names))
        return ProxyAdvice(f"{self.key} entry point {', '.join(listed)} has no proxyProtocol",
                           f"set ports.{listed[0]}.proxyProtocol.trustedIPs to the load balancer's range, "
                           "or remove the annotation")


CHART = Traefik()


def _argument_entrypoints(values: Val) -> tuple[set[str], bool]:
    """Entry points (lower case) given PROXY settings in ``additionalArguments``; False when Unknown."""
    arguments = values.path(*ADDITIONAL_ARGUMENTS_PATH)
    if arguments.raw is None:
        return set(), arguments.known
    if not arguments.known or arguments.contains_unknown() or not arguments.is_list:
        return set(), False
    found: set[str] = set()
    for argument in arguments.elements():
        text = argument.text()
        parsed = parse_proxy_protocol_argument(text) if text else None
        if parsed is None:
            continue
        if parsed.setting == "insecure" and parse_bool(parsed.value) is not True:
            continue
        if parsed.setting == "trustedIPs" and not parsed.value.strip():
            continue
        found.add(parsed.entrypoint.lower())
    return found, True


def _accepts(entry: Val) -> bool | None:
    """Whether an entry point's own ``proxyProtocol`` settings make it read PROXY headers."""
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
