"""Ingress controller charts: the questions the domain and the rules ask of a chart, one module each.

Each module of this package (``haproxytech``, ``ingress_nginx``, ``traefik``) holds one chart's
facts and answers, with their public sources: how a release of it is recognised (chart names,
repositories, values keys only it uses), its values paths, its defaults by chart version, the
Service it renders and the values that switch it off, how its controller is told to expect PROXY
protocol and which sources it then trusts, its admin ports, and the chart versions the facts were
checked against. It defines one :class:`Chart` as ``CHART``; :mod:`.registry` finds every module
here, so a new controller is one module (and its fixtures), and nothing outside this package
names a chart (``tests/test_chart_modules.py``).

:class:`Chart` is the protocol: the data every chart states and the questions every chart
answers. A question a chart cannot answer has a default here (no admin ports, values written
quoted); a question only some charts can answer returns None for the others. The rest of this
module are the small readers the chart modules share: a values path read as a chart template reads
it (:func:`value_at`, :func:`flag`), versioned defaults (:func:`chart_default`), CIDR lists.

A *path* is a tuple of keys into a values tree, e.g. ``("controller", "service", "type")``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from kapsulint.api import UNKNOWN, Loc, Val, as_version
from kapsulint.kapsule.chart_versions import ChartVersion

if TYPE_CHECKING:
    from ipaddress import IPv4Network, IPv6Network

__all__ = [
    "Path",
    "Version",
    "ChartPin",
    "Chart",
    "OpenTrust",
    "TrafficPort",
    "ProxyAdvice",
    "AdminPort",
    "AdminPorts",
    "chart_default",
    "covers",
    "exact_version",
    "parent_open",
    "value_at",
    "switch",
    "flag",
    "key_loc",
    "rendered_text",
    "port_number",
    "config_map",
    "cidr_entries",
]

Path = tuple[str, ...]
Version = tuple[int, int, int]
# A release's chart version: an exact version (a tuple or Version), a parsed ``version`` (one
# version or a range), or none.
ChartPin = tuple[int, ...] | ChartVersion | None
T = TypeVar("T")
Steps = tuple[tuple[Version | None, T], ...]


class OpenTrust(NamedTuple):
    """A place where the controller accepts PROXY headers from any source."""

    loc: Loc
    setting: str  # a readable name of the setting
    value: Val
    why: str


class TrustedRanges(NamedTuple):
    """A place where the controller takes PROXY headers from listed ranges only, every entry a
    known CIDR (KAP320 compares them with the private network's subnet)."""

    loc: Loc
    setting: str
    value: Val
    networks: list[IPv4Network | IPv6Network]


class TrafficPort(NamedTuple):
    """One of the controller's traffic (HTTP, HTTPS, entry point) ports as its Service publishes it.

    ``port`` and ``published`` are None when Unknown. ``accepts``: a PROXY header on this port is
    understood; ``requires``: a connection without one fails. Both None when Unknown.
    ``setting``/``setting_name`` name the controller value that makes it require PROXY.
    """

    name: str
    port: int | None
    published: bool | None
    accepts: bool | None
    requires: bool | None
    setting: Val | None = None
    setting_name: str = ""


class ProxyAdvice(NamedTuple):
    """Why the controller cannot read a PROXY header the load balancer sends, and the fix."""

    why: str
    fix: str


class AdminPort(NamedTuple):
    key: str  # the switch's key under AdminPorts.switches: "stat", "admin" or "prometheus"
    port: int
    what: str  # "the stats page", "pprof", "the prometheus port"
    written: Loc | None  # where the port's switch is written, when it is


class AdminPorts(NamedTuple):
    exposed: tuple[AdminPort, ...]  # ports certainly published
    uncertain: bool  # another admin port may be published (Unknown value or chart version)
    switches: Path  # the values map whose keys switch the admin ports on and off


class Chart(ABC):
    """What kapsulint knows about one ingress controller chart, and the questions it answers.

    Charts compare and hash by identity: each module makes one. ``known_since`` is the oldest
    chart version the facts were checked against (a pinned older version has unknown defaults),
    ``checked_version`` the newest, the one a fix pins. ``identifying_paths`` are key prefixes only
    this chart uses, to tell the chart from values alone (never ``controller.*`` alone: several
    charts nest everything under ``controller``). ``default_*`` hold ``(first chart version,
    value)`` steps in ascending order (``None`` as first version: every known version up to the
    next step), read with :meth:`default`.
    """

    key: str  # how messages name the chart
    chart_names: frozenset[str]
    repository_hints: tuple[str, ...]  # parts of the chart's own repository URLs
    identifying_paths: frozenset[Path]
    known_since: Version
    checked_version: Version
    node_selector_path: Path
    affinity_path: Path
    tolerations_path: Path
    service_type_path: Path
    service_annotations_path: Path
    external_traffic_policy_path: Path
    load_balancer_ip_path: Path
    load_balancer_source_ranges_path: Path
    service_enabled_paths: tuple[Path, ...]  # switches that must all be on for the Service to exist
    default_service_type: Steps[str]
    default_node_selector: Steps[Mapping[str, str]]
    # A map of the values the chart writes unquoted into a ConfigMap (a non-string fails the
    # apply); None when the chart quotes every value.
    unquoted_config_path: Path | None = None
    # Values maps of this chart whose keys are Kubernetes annotation or label keys (which hold
    # dots), besides the usual ``annotations``, ``labels`` and ``...Annotations`` maps.
    flat_key_maps: frozenset[str] = frozenset()
    # Whether the Service publishes admin ports (:meth:`admin_ports` answers which).
    has_admin_ports: bool = False
    # The labels the chart's controller pods carry with the chart's default name (what a Service
    # written by hand selects them by), and their admin container ports: name -> (number, what).
    pod_labels: Mapping[str, str] = MappingProxyType({})
    admin_container_ports: Mapping[str, tuple[int, str]] = MappingProxyType({})
    # Whether a traffic port may require a PROXY header (a connection without one fails), as
    # opposed to reading one when sent.
    may_require_proxy: bool = True

    def __repr__(self) -> str:
        return f"<chart {self.key}>"

    def default(self, steps: Steps[T], version: ChartPin) -> T | None:
        """A versioned default of this chart; None when unknown (see :func:`chart_default`)."""
        return chart_default(steps, version, known_since=self.known_since)

    def since_known(self, value: T, version: ChartPin) -> T | None:
        """A fact that holds in every checked version: ``value``, None for an older pinned one."""
        return chart_default(((None, value),), version, known_since=self.known_since)

    def from_repository(self, repository: str) -> bool:
        """Whether a repository URL (or an ``oci://`` reference) is this chart's own."""
        text = repository.strip().lower()
        return any(hint in text for hint in self.repository_hints)

    @abstractmethod
    def open_trust(self, values: Val) -> Iterator[OpenTrust]:
        """Where these values make the controller trust PROXY headers from any source."""

    def trusted_ranges(self, values: Val) -> Iterator[TrustedRanges]:
        """Where these values make the controller take PROXY headers from listed ranges only."""
        return iter(())

    @abstractmethod
    def traffic_ports(self, values: Val, version: ChartPin) -> list[TrafficPort] | None:
        """The controller's traffic ports with their PROXY expectation, for known values of a
        chart whose Service is rendered; None when they cannot be told."""

    @abstractmethod
    def unexpected_proxy(self, names: Sequence[str]) -> ProxyAdvice:
        """Why the traffic ports ``names`` (as :meth:`traffic_ports` names them) cannot read a
        PROXY header, and how to fix it."""

    def admin_ports(self, values: Val, version: ChartPin) -> AdminPorts | None:
        """The admin ports the chart's Service publishes; None for a chart with none, or when
        the values may render no Service at all."""
        return None


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


def chart_default(steps: Steps[T], version: ChartPin, *, known_since: Version | None = None) -> T | None:
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


def parent_open(values: Val, path: Path) -> bool:
    """Whether an unset ``path`` may still be set: the values or a parent on the way is Unknown or
    open (an Unknown values document or set entry may have written it)."""
    node = values
    if node.open or not node.known:
        return True
    for key in path[:-1]:
        node = node.get(key)
        if not node.known or node.open:
            return True
        if node.raw is None:
            return False
    return False


def value_at(values: Val, path: Path) -> Val:
    """The value at ``path``: null when certainly unset, Unknown when it may be set."""
    value = values.path(*path)
    if value.raw is None and parent_open(values, path):
        return Val(UNKNOWN, value.loc)
    return value


def switch(value: Val, default: bool | None) -> bool | None:
    """A chart switch read as a template ``if`` reads it: ``default`` when null, None when Unknown
    (a non-empty string is truthy to the template but more likely a mistake: Unknown too)."""
    if value.raw is None:
        return default
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


def flag(values: Val, path: Path, default: bool | None) -> bool | None:
    """The switch at ``path`` (:func:`switch` of :func:`value_at`)."""
    return switch(value_at(values, path), default)


def key_loc(values: Val, path: Path) -> Loc | None:
    """Where the last key of ``path`` is written."""
    return values.path(*path[:-1]).key_loc(path[-1])


def rendered_text(value: Val) -> str | None:
    """A scalar as a template renders it (``quote``); None when Unknown or not a scalar."""
    if not value.known or value.contains_unknown():
        return None
    return value.text()


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


def port_number(value: Val, default: int | None) -> int | None:
    """A port number as written, ``default`` when null; None when Unknown or not a number."""
    if value.raw is None:
        return default
    return _number(value)


def config_map(values: Val, path: Path) -> Val | None:
    """The map at ``path`` (null when unset); None when it may hold anything (Unknown, open, not a
    map)."""
    config = values.path(*path)
    if not config.known or config.open:
        return None
    if config.raw is not None and not config.is_object:
        return None
    return config


def trusted(value: Val, setting: str) -> Iterator[TrustedRanges]:
    """``value`` as the ranges of ``setting`` when it is written and every entry is a known CIDR."""
    import ipaddress

    if value.raw is None or not value.known or value.open or value.loc is None:
        return
    networks = []
    for entry, _ in cidr_entries(value):
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            return
    if networks:
        yield TrustedRanges(value.loc, setting, value, networks)


def cidr_entries(value: Val) -> list[tuple[str, Val]]:
    """The entries of a CIDR list written as a comma-separated string or a list, each with the
    value that holds it."""
    if isinstance(value.raw, str):
        return [(part.strip(), value) for part in value.raw.split(",") if part.strip()]
    return [(item.text() or "", item) for item in value.elements() if item.known]
