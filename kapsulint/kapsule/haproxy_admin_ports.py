"""The haproxytech controller's admin ports on its Service: stats (1024) and pprof (6060).

Sources (https://github.com/haproxytech/helm-charts/blob/c5edba19/kubernetes-ingress/values.yaml, https://github.com/haproxytech/helm-charts/tree/c5edba19/kubernetes-ingress/templates): haproxytech/helm-charts
``kubernetes-ingress/values.yaml`` (``controller.service.enablePorts.stat`` and the 6060 port
are on by default; the 6060 port is named ``prometheus`` before 1.44.3, absent in 1.44.3 and
named ``admin`` from 1.44.4; ``controller.pprof.enabled``, default true, from 1.51.0) and
``templates/controller-service.yaml`` (the Service is rendered when ``controller.service.enabled``,
with one port per enabled ``enablePorts`` entry, each tested with a template ``if``; read at an
older commit of the chart). The Scaleway CCM opens a load balancer frontend for every TCP port of
the Service (scaleway-cloud-controller-manager ``scaleway/loadbalancers.go`` ``serviceToLB``).
"""

from __future__ import annotations

from typing import NamedTuple

from kapsulint.api import Loc, as_version
from kapsulint.kapsule import charts
from kapsulint.kapsule.service import ControllerService

PPROF_SWITCH_SINCE = (1, 51, 0)  # controller.pprof.enabled first appears in the 1.51.0 values
SERVICE_ENABLED_PATH = ("controller", "service", "enabled")


class AdminPort(NamedTuple):
    key: str  # the enablePorts key: "stat", "admin" or "prometheus"
    port: int
    what: str  # "the stats page", "pprof", "the prometheus port"
    written: Loc | None  # where enablePorts.<key> is written, when it is


class AdminPorts(NamedTuple):
    exposed: tuple[AdminPort, ...]  # ports certainly published
    uncertain: bool  # another admin port may be published (Unknown value or chart version)


def admin_ports(service: ControllerService) -> AdminPorts | None:
    """The haproxytech admin ports its Service publishes; None for another controller, or when
    the chart may render no Service at all (``controller.service.enabled`` false or Unknown)."""
    if service.controller is not charts.HAPROXYTECH:
        return None
    if service.flag(SERVICE_ENABLED_PATH, True) is not True:
        return None
    version = service.chart_version
    in_facts = charts.covers(version, charts.HAPROXYTECH.known_since) is not False
    exposed: list[AdminPort] = []
    uncertain = False

    stat = _port_enabled(service, charts.HAPROXY_STAT_PORT_KEY, True if in_facts else None)
    if stat:
        exposed.append(AdminPort(charts.HAPROXY_STAT_PORT_KEY, charts.HAPROXY_STATS_PORT, "the stats page",
                                 _key_loc(service, charts.HAPROXY_STAT_PORT_KEY)))
    uncertain |= stat is None

    exact = charts.exact_version(version)
    if exact is None or not in_facts:
        return AdminPorts(tuple(exposed), True)  # the 6060 port's name depends on the version
    key = charts.haproxy_pprof_port_key(exact)
    if key is None:
        return AdminPorts(tuple(exposed), uncertain)  # 1.44.3 has no 6060 Service port
    pprof = _port_enabled(service, key, True)
    if pprof and as_version(exact) >= PPROF_SWITCH_SINCE:
        switch = service.flag(charts.HAPROXY_PPROF_ENABLED_PATH, True)
        pprof = switch if switch is not True else pprof
    if pprof:
        what = "pprof" if key == "admin" else f"the {key} port"
        exposed.append(AdminPort(key, charts.HAPROXY_PPROF_PORT, what, _key_loc(service, key)))
    uncertain |= pprof is None
    return AdminPorts(tuple(exposed), uncertain)


def _port_enabled(service: ControllerService, key: str, default: bool | None) -> bool | None:
    path = charts.HAPROXY_ENABLE_PORTS_PATH + (key,)
    if default is None:
        value = service.values.path(*path)
        return service.flag(path, False) if value.raw is not None else None
    return service.flag(path, default)


def _key_loc(service: ControllerService, key: str) -> Loc | None:
    return service.key_loc(charts.HAPROXY_ENABLE_PORTS_PATH + (key,))


__all__ = ["PPROF_SWITCH_SINCE", "AdminPort", "AdminPorts", "admin_ports"]
