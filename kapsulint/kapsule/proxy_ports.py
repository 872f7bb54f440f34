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

Controller side: each chart module of :mod:`kapsulint.kapsule.charts` answers
``Chart.traffic_ports`` (which of its ports carry traffic, the number and switch the Service
publishes each with, and whether the controller then reads or requires a PROXY header), with its
sources. Only the controller's traffic ports are judged: admin and metrics ports are another
matter. A chart switch is read as a template ``if`` reads it, and a Service the values switch off
is never judged (:func:`kapsulint.kapsule.service.services`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from kapsulint.api import Val
from kapsulint.kapsule import lb_annotation_keys
from kapsulint.kapsule.charts import TrafficPort, rendered_text
from kapsulint.kapsule.go_strconv import parse_bool, parse_int
from kapsulint.kapsule.kube_objects import LbService
from kapsulint.kapsule.service import ControllerService

__all__ = [
    "LbProxy",
    "PortSending",
    "PortSet",
    "TrafficPort",
    "annotation_ports",
    "externally_managed",
    "lb_proxy",
    "parse_proxy_protocol_ports",
    "parse_send_proxy_v2_ports",
    "traffic_ports",
]


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
        number = parse_int(entry)
        if number is None or not 1 <= number <= 65535:
            return None
        ports.add(number)
    return PortSet(False, frozenset(ports))


def parse_proxy_protocol_ports(text: str) -> PortSet | None:
    """The ports a ``proxy-protocol-v1``/``-v2`` value covers; None when the CCM refuses it."""
    boolean = parse_bool(text)
    if boolean is not None and text not in ("1", "0"):
        return EVERY_PORT if boolean else NO_PORT
    if text == "*":
        return EVERY_PORT
    if text == "":
        return NO_PORT
    return _port_list(text)


def parse_send_proxy_v2_ports(text: str) -> PortSet | None:
    """The ports the deprecated ``send-proxy-v2`` value covers; None when the CCM refuses it."""
    boolean = parse_bool(text)
    if boolean is not None:
        return EVERY_PORT if boolean else NO_PORT
    return _port_list(text)


# How the CCM reads each PROXY annotation's value.
_PORT_PARSERS = {
    lb_annotation_keys.LB_PROXY_PROTOCOL_V1: parse_proxy_protocol_ports,
    lb_annotation_keys.LB_PROXY_PROTOCOL_V2: parse_proxy_protocol_ports,
    lb_annotation_keys.LB_SEND_PROXY_V2: parse_send_proxy_v2_ports,
}


def annotation_ports(name: str, value: Val) -> PortSet | None:
    """The Service ports the PROXY annotation ``name`` written as ``value`` covers, its text read
    without surrounding spaces; None when Unknown, refused by the CCM, or no PROXY annotation."""
    parser = _PORT_PARSERS.get(name)
    text = value.text() if value.known else None
    return parser(text.strip()) if parser is not None and text is not None else None


def externally_managed(service: LbService) -> bool | None:
    """Whether the Service carries ``scw-loadbalancer-externally-managed`` meaning true; None if Unknown."""
    value = service.annotation(lb_annotation_keys.LB_EXTERNALLY_MANAGED)
    if value.raw is None:
        return False if service.annotations_known else None
    text = rendered_text(value)
    return None if text is None else parse_bool(text)


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


def lb_proxy(service: LbService) -> LbProxy:
    """Parse the Service's PROXY annotations (absent means no port; Unknown gives None)."""
    known_keys = service.annotations_known

    def read(name: str) -> tuple[Val, PortSet | None]:
        value = service.annotation(name)
        if value.raw is None:
            return value, (NO_PORT if known_keys else None)
        text = rendered_text(value)
        return value, (None if text is None else _PORT_PARSERS[name](text))

    v1, v1_ports = read(lb_annotation_keys.LB_PROXY_PROTOCOL_V1)
    v2, v2_ports = read(lb_annotation_keys.LB_PROXY_PROTOCOL_V2)
    send_v2, send_v2_ports = read(lb_annotation_keys.LB_SEND_PROXY_V2)
    return LbProxy(v1, v2, send_v2, v1_ports, v2_ports, send_v2_ports)


def traffic_ports(service: ControllerService) -> list[TrafficPort] | None:
    """The controller's traffic ports and their PROXY expectation; None when the values are Unknown
    or the chart cannot tell them (a Service the values switch off never gets here)."""
    if not service.values.known:
        return None
    return service.controller.traffic_ports(service.values, service.chart_version)


def published_ports(ports: list[TrafficPort]) -> Iterator[TrafficPort]:
    """The traffic ports certainly on the Service, with a known number."""
    for port in ports:
        if port.published is True and port.port is not None:
            yield port
