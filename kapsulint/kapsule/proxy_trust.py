"""PROXY protocol trust on the controller side: where its Helm values accept PROXY headers from any source.

Sources: https://github.com/haproxytech/kubernetes-ingress/blob/fc120676/documentation/configmap.md (haproxytech ``proxy-protocol``),
https://github.com/kubernetes/ingress-nginx/blob/controller-v1.15.1/docs/user-guide/nginx-configuration/configmap.md (ingress-nginx
``use-proxy-protocol`` and ``proxy-real-ip-cidr``, default 0.0.0.0/0),
https://github.com/traefik/traefik-helm-chart/blob/v41.3.0/traefik/values.yaml (traefik
``ports.<name>.proxyProtocol`` and the ``--entryPoints`` arguments).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator

from kapsulint.api import Loc, Val, shown_text
from kapsulint.kapsule import charts


class OpenTrust:
    """A place where PROXY headers are accepted from any source."""

    loc: Loc
    setting: str  # a readable name of the setting
    value: Val
    why: str

    def __init__(self, loc: Loc, setting: str, value: Val, why: str) -> None:
        self.loc = loc
        self.setting = setting
        self.value = value
        self.why = why


def is_any_source(entry: str) -> bool:
    try:
        return ipaddress.ip_network(entry.strip(), strict=False).prefixlen == 0
    except ValueError:
        return False


def cidr_entries(value: Val) -> list[tuple[str, Val]]:
    """The entries of a CIDR list written as a comma-separated string or a list."""
    if isinstance(value.raw, str):
        return [(part.strip(), value) for part in value.raw.split(",") if part.strip()]
    return [(item.text() or "", item) for item in value.elements() if item.known]


def _truthy(value: Val) -> bool:
    return value.is_true()


def open_trust(values: Val, controller: charts.Controller) -> Iterator[OpenTrust]:
    """Where these values make ``controller`` trust PROXY headers from anywhere."""
    if controller is charts.HAPROXYTECH:
        value = values.path(*charts.HAPROXY_PROXY_PROTOCOL_PATH)
        if value.known and value.loc is not None:
            for entry, holder in cidr_entries(value):
                if is_any_source(entry):
                    yield OpenTrust(holder.loc or value.loc, "proxy-protocol", holder, f"lists {shown_text(holder, entry)}")
                    break
    elif controller is charts.INGRESS_NGINX:
        enabled = values.path(*charts.NGINX_USE_PROXY_PROTOCOL_PATH)
        if not enabled.known or not _truthy(enabled) or enabled.loc is None:
            return
        config = values.path(*charts.NGINX_PROXY_REAL_IP_CIDR_PATH[:-1])
        cidr = values.path(*charts.NGINX_PROXY_REAL_IP_CIDR_PATH)
        if cidr.raw is None:
            if config.known and not config.open:
                yield OpenTrust(enabled.loc, "use-proxy-protocol", enabled,
                                "without proxy-real-ip-cidr, which defaults to 0.0.0.0/0")
            return
        if cidr.known:
            for entry, holder in cidr_entries(cidr):
                if is_any_source(entry) and holder.loc is not None:
                    yield OpenTrust(holder.loc, "proxy-real-ip-cidr", holder, f"lists {shown_text(holder, entry)}")
                    break
    elif controller is charts.TRAEFIK:
        yield from _traefik(values)


def _traefik(values: Val) -> Iterator[OpenTrust]:
    ports = values.path(*charts.TRAEFIK_PORTS_PATH)
    for name, port in ports.items():
        insecure = port.path(*charts.TRAEFIK_PROXY_PROTOCOL_INSECURE)
        if insecure.known and insecure.is_true() and insecure.loc is not None:
            yield OpenTrust(insecure.loc, f"ports.{name}.proxyProtocol.insecure", insecure, "is true")
        trusted = port.path(*charts.TRAEFIK_PROXY_PROTOCOL_TRUSTED_IPS)
        if trusted.known:
            for entry, holder in cidr_entries(trusted):
                if is_any_source(entry) and holder.loc is not None:
                    yield OpenTrust(holder.loc, f"ports.{name}.proxyProtocol.trustedIPs", holder,
                                    f"lists {shown_text(holder, entry)}")
                    break
    for argument in values.path(*charts.TRAEFIK_ADDITIONAL_ARGUMENTS_PATH).elements():
        text = argument.text() if argument.known else None
        parsed = charts.parse_traefik_proxy_protocol_arg(text) if text else None
        if parsed is None or argument.loc is None:
            continue
        if parsed.setting == "insecure" and parsed.value.lower() == "true":
            yield OpenTrust(argument.loc, "additionalArguments", argument,
                            f"sets entry point {shown_text(argument, parsed.entrypoint)} insecure")
        elif parsed.setting == "trustedIPs" and any(is_any_source(p) for p in parsed.value.split(",")):
            yield OpenTrust(argument.loc, "additionalArguments", argument, "trusts a /0 range")
