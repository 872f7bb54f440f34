"""Every ``service.beta.kubernetes.io/scw-loadbalancer-*`` annotation the Scaleway cloud controller
manager reads: its value's kind, its default, and when it applies.

Source: the CCM's ``docs/loadbalancer-annotations.md`` and ``scaleway/loadbalancers_annotations.go``
at v0.36.2
(https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md,
https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/scaleway/loadbalancers_annotations.go),
compared on 2026-12-01 with the default branch (commit bddc17f of 2026-08-20: the same 49 keys).
How the CCM parses each kind:

- ``duration``: Go's ``time.ParseDuration`` (``"5s"``, ``"1m30s"``, ``"0.5s"``, ``"0"``); any other
  text is ``errLoadBalancerInvalidAnnotation`` and the Service is not reconciled.
- ``integer``: ``strconv.Atoi`` (an optional sign and decimal digits, nothing else).
- ``boolean``: ``strconv.ParseBool`` (``1 t T TRUE true True 0 f F FALSE false False``); an
  error refuses the Service, except for ``lenient-boolean`` annotations, where the CCM reads any
  other text as false without a word.
- ``ports``: ``isPortInRange``: a boolean as above (not ``1``/``0``), ``*``, empty, or a comma
  list of ports 1 to 65535 (``strconv.ParseInt`` base 0).
- ``per-port``: ``getValueForPort``: ``value`` or ``port1:value1;port2,port3:value2``, each part
  with at most one ``:`` and its ports as in ``ports``; ``item`` is the kind of each value.
- ``ids``: a comma list of resource ids (UUIDs); ``zoned-id`` is ``<zone or region>/<uuid>``.
- ``enum``: one of a fixed set (``lb_annotations.ENUMS``, judged by KAP316).
- ``text``: free text the CCM passes on (a name, a host, an offer type, labels).

This module is facts only: it reads nothing of a project, so any description of a Service
(chart values, ``kubernetes_service``, manifests) can ask it.
"""

from __future__ import annotations

from typing import NamedTuple

from kapsulint.kapsule import zones
from kapsulint.kapsule.go_strconv import parse_bool, parse_int
from kapsulint.text import lazy_pattern

PREFIX = "service.beta.kubernetes.io/"
SHORT_PREFIX = "scw-loadbalancer-"


class AnnotationFact(NamedTuple):
    """One annotation: ``name`` is the short key (``scw-loadbalancer-zone``)."""

    name: str
    kind: str  # duration, integer, boolean, lenient-boolean, ports, per-port, ids, zoned-id, enum, text
    item: str | None = None  # per-port: the kind of each value (text, integer, enum)
    default: str | None = None  # as the documentation gives it
    applies: str | None = None  # when the CCM reads it, where that is narrower than always
    changing: str | None = None  # what a change does, where it is more than an update

    @property
    def key(self) -> str:
        return PREFIX + self.name


def _catalogue(*facts: AnnotationFact) -> dict[str, AnnotationFact]:
    return {fact.name: fact for fact in facts}


_A = AnnotationFact
ANNOTATIONS: dict[str, AnnotationFact] = _catalogue(
    _A("scw-loadbalancer-id", "zoned-id", applies="written by the CCM when it creates the load balancer"),
    _A("scw-loadbalancer-forward-port-algorithm", "enum", default="roundrobin"),
    _A("scw-loadbalancer-sticky-sessions", "enum", default="none"),
    _A("scw-loadbalancer-sticky-sessions-cookie-name", "text",
       applies="needed when sticky-sessions is cookie"),
    _A("scw-loadbalancer-health-check-type", "per-port", item="enum", default="tcp"),
    _A("scw-loadbalancer-zone", "text", default="the first zone of the cluster's region",
       applies="at creation: the load balancer stays in its zone"),
    _A("scw-loadbalancer-health-check-delay", "duration", default="5s"),
    _A("scw-loadbalancer-health-check-send-proxy", "boolean", default="false"),
    _A("scw-loadbalancer-health-transient-check-delay", "duration", default="0.5s"),
    _A("scw-loadbalancer-health-check-timeout", "duration", default="5s"),
    _A("scw-loadbalancer-health-check-max-retries", "integer", default="5"),
    _A("scw-loadbalancer-health-check-http-uri", "per-port", item="text",
       applies="needed by an http or https health check"),
    _A("scw-loadbalancer-health-check-http-method", "per-port", item="text",
       applies="read by an http or https health check"),
    _A("scw-loadbalancer-health-check-http-code", "per-port", item="integer",
       applies="read by an http or https health check"),
    _A("scw-loadbalancer-health-check-mysql-user", "per-port", item="text", applies="needed by a mysql health check"),
    _A("scw-loadbalancer-health-check-pgsql-user", "per-port", item="text", applies="needed by a pgsql health check"),
    _A("scw-loadbalancer-send-proxy-v2", "ports", default="false", applies="deprecated for proxy-protocol-v2"),
    _A("scw-loadbalancer-proxy-protocol-v1", "ports"),
    _A("scw-loadbalancer-proxy-protocol-v2", "ports"),
    _A("scw-loadbalancer-type", "text", default="the CCM's LB_DEFAULT_TYPE"),
    _A("scw-loadbalancer-connection-rate-limit", "integer", applies="0 disables the limit"),
    _A("scw-loadbalancer-enable-access-logs", "boolean", default="false"),
    _A("scw-loadbalancer-enable-http3", "boolean", default="false"),
    _A("scw-loadbalancer-ssl-compatibility-level", "enum", default="ssl_compatibility_level_intermediate"),
    _A("scw-loadbalancer-timeout-client", "duration", default="10m"),
    _A("scw-loadbalancer-timeout-server", "duration", default="10s"),
    _A("scw-loadbalancer-timeout-connect", "duration", default="10m"),
    _A("scw-loadbalancer-timeout-tunnel", "duration", default="10m"),
    _A("scw-loadbalancer-timeout-queue", "duration"),
    _A("scw-loadbalancer-on-marked-down-action", "enum", default="on_marked_down_action_none"),
    _A("scw-loadbalancer-force-internal-ip", "lenient-boolean", default="false", applies="deprecated"),
    _A("scw-loadbalancer-use-hostname", "lenient-boolean", default="false"),
    _A("scw-loadbalancer-protocol-http", "ports"),
    _A("scw-loadbalancer-http-backend-tls", "ports", default="false", applies="with protocol-http"),
    _A("scw-loadbalancer-http-backend-tls-skip-verify", "ports", applies="with http-backend-tls"),
    _A("scw-loadbalancer-certificate-ids", "per-port", item="ids"),
    _A("scw-loadbalancer-target-node-labels", "text"),
    _A("scw-loadbalancer-redispatch-attempt-count", "enum", default="0"),
    _A("scw-loadbalancer-max-connections", "integer"),
    _A("scw-loadbalancer-max-retries", "integer", default="3"),
    _A("scw-loadbalancer-failover-host", "text"),
    _A("scw-loadbalancer-private", "boolean", default="false"),
    _A("scw-loadbalancer-externally-managed", "boolean", default="false", applies="needs scw-loadbalancer-id"),
    _A("scw-loadbalancer-ip-ids", "ids", applies="at most one IPv4 and one IPv6, at least one IPv4",
       changing="re-creates the load balancer"),
    _A("scw-loadbalancer-flexible-ip-types", "enum", default="ipv4",
       applies="only when the load balancer is created, and not when ip-ids is set"),
    _A("scw-loadbalancer-private-ip-ids", "ids", applies="at most one IP per private network",
       changing="re-creates the private network attachments"),
    _A("scw-loadbalancer-ip-mode", "enum"),
    _A("scw-loadbalancer-pn-ids", "ids", default="the CCM's PN_ID", applies="not when externally-managed"),
    _A("scw-loadbalancer-health-check-from-service", "ports",
       applies="overrides the other health check annotations on its ports"),
)

_DURATION = lazy_pattern(r"[-+]?(0|((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+)")
_INTEGER = lazy_pattern(r"[-+]?\d+")
_HEAD = lazy_pattern(r"scw-(load-?balancers?|lb)-")
_UUID = lazy_pattern(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def fact(key: str) -> AnnotationFact | None:
    """The annotation a full key (``service.beta.kubernetes.io/scw-loadbalancer-zone``) or a
    short one names; None for a key the CCM does not read."""
    text = key.strip()
    return ANNOTATIONS.get(text.removeprefix(PREFIX) if text.startswith(PREFIX) else text)


def is_known_key(key: str) -> bool:
    """Whether the CCM reads the full annotation key ``key``."""
    text = key.strip()
    return text.startswith(PREFIX) and text[len(PREFIX):] in ANNOTATIONS


def looks_scaleway(key: str) -> bool:
    """Whether a key is meant for the Scaleway CCM's load balancers: ``service.beta.kubernetes.io/scw-*``,
    or a name (after the last ``/``) starting ``scw-loadbalancer-``, ``scw-load-balancer-`` or
    ``scw-lb-`` (the domain missing or another one)."""
    text = key.strip()
    return text.startswith(PREFIX + "scw-") or _HEAD.match(text.rsplit("/", 1)[-1].lower()) is not None


def closest_key(key: str) -> str | None:
    """The known full key closest to ``key`` (a misspelling, a missing or wrong domain, another
    case, ``scw-lb-`` or ``scw-load-balancer-`` for ``scw-loadbalancer-``), or None when none is
    close. Names are compared after their ``scw-loadbalancer-`` part, so a long common prefix
    makes no match by itself."""
    import difflib

    name = key.strip().rsplit("/", 1)[-1].lower()
    if name in ANNOTATIONS:
        return PREFIX + name
    tail = _HEAD.sub("", name, count=1)
    tails = {known[len(SHORT_PREFIX):]: known for known in ANNOTATIONS}
    match = difflib.get_close_matches(tail, list(tails), n=1, cutoff=0.8)
    return PREFIX + tails[match[0]] if match else None


def _port_set_problem(text: str) -> str | None:
    if parse_bool(text) is not None and text not in ("1", "0"):
        return None
    if text in ("*", ""):
        return None
    for port in text.replace(" ", "").split(","):
        number = parse_int(port)
        if number is None:
            return f"{port!r} is no port"
        if not 1 <= number <= 65535:
            return f"port {number} is outside 1-65535"
    return None


def _item_problem(kind: str, text: str) -> str | None:
    if kind == "duration":
        return None if _DURATION.fullmatch(text) else "not a Go duration such as 5s, 1m30s or 0.5s"
    if kind == "integer":
        return None if _INTEGER.fullmatch(text) else "not an integer"
    if kind in ("boolean", "lenient-boolean"):
        return None if parse_bool(text) is not None else "not a boolean (true or false)"
    if kind == "ports":
        problem = _port_set_problem(text)
        return None if problem is None else f"not true, false, * or a list of ports: {problem}"
    if kind == "ids":
        for part in text.split(","):
            identifier = part.strip().rsplit("/", 1)[-1] if "/" in part else part.strip()
            if _UUID.fullmatch(identifier) is None:
                return f"{part.strip()!r} is not a resource id (a UUID)"
        return None
    if kind == "zoned-id":
        parts = text.split("/")
        if len(parts) != 2 or _UUID.fullmatch(parts[1].strip()) is None:
            return "not <zone>/<uuid>"
        if not zones.is_zone(parts[0].lower()) and zones.region_of_zone(parts[0].lower() + "-1") is None:
            return f"{parts[0]!r} is no zone or region"
        return None
    return None


def value_problem(name: str, text: str) -> str | None:
    """Why the CCM cannot read ``text`` as the value of annotation ``name`` (short key), in a few
    words; None when it can, or when its kind is not checked here (``enum`` is KAP316's set,
    ``text`` is free)."""
    annotation = ANNOTATIONS.get(name)
    if annotation is None:
        return None
    if annotation.kind != "per-port":
        return _item_problem(annotation.kind, text)
    for part in text.split(";"):
        split = part.split(":")
        if len(split) > 2:
            return f"{part!r} has more than one ':' (the form is port1:value1;port2,port3:value2)"
        if len(split) == 2:
            problem = _port_set_problem(split[0].strip())
            if problem is not None:
                return f"{part!r}: {problem}"
        if annotation.item in ("integer", "ids"):
            problem = _item_problem(annotation.item, split[-1])
            if problem is not None:
                return problem
    return None
