"""Envoy Gateway's data plane: the Service its ``EnvoyProxy`` resources describe, the Gateways that
use each one, and whether those Gateways accept PROXY protocol.

Envoy Gateway API (envoyproxy/gateway ``api/v1alpha1``, read at commit d32f282 of 2026-08-21;
https://github.com/envoyproxy/gateway/blob/main/api/v1alpha1/shared_types.go,
https://github.com/envoyproxy/gateway/blob/main/api/v1alpha1/envoyproxy_types.go,
https://github.com/envoyproxy/gateway/blob/main/api/v1alpha1/clienttrafficpolicy_types.go):

* ``EnvoyProxy`` (``gateway.envoyproxy.io/v1alpha1``) ``spec.provider.kubernetes.envoyService``
  sets the data plane Service: ``annotations``, ``type`` (default ``LoadBalancer``),
  ``externalTrafficPolicy`` (default ``Local``), ``loadBalancerIP``, ``loadBalancerSourceRanges``;
  a ``patch`` may rewrite any of it, and ``mergeType`` merges it with the class's EnvoyProxy: both
  leave the Service Unknown here.
* A ``GatewayClass`` names an EnvoyProxy in ``spec.parametersRef`` (group
  ``gateway.envoyproxy.io``, kind ``EnvoyProxy``, name, namespace); a ``Gateway`` in
  ``spec.infrastructure.parametersRef`` (its own namespace), which takes precedence over the
  class's. The Service publishes the Gateway's listener ports.
* A ``ClientTrafficPolicy`` targeting a Gateway (``targetRef``/``targetRefs``, kind ``Gateway``, in
  its own namespace; a ``sectionName`` narrows it to one listener) with ``proxyProtocol`` makes its
  listeners read a PROXY header and refuse connections without one, unless
  ``proxyProtocol.optional`` is true; the deprecated ``enableProxyProtocol: true`` requires one
  too. ``proxyProtocol`` wins when both are set. Without such a policy a listener reads no PROXY
  header, and a load balancer sending one breaks every connection.

Policies chosen by ``targetSelectors`` (labels) are not followed: any in the repository leaves
every Gateway's PROXY setting Unknown. A namespace left unwritten matches any (a Kustomization or
``kubectl -n`` sets it).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from kapsulint.api import UNKNOWN, Loc, Project, Val
from kapsulint.kapsule import gateway_infrastructure, kube_objects
from kapsulint.kapsule.kube_objects import KubeObject, LbService

GROUP = "gateway.envoyproxy.io"
GATEWAY_API_GROUP = "gateway.networking.k8s.io"
ENVOY_PROXY = "EnvoyProxy"
CLIENT_TRAFFIC_POLICY = "ClientTrafficPolicy"
GATEWAY = "Gateway"
GATEWAY_CLASS = "GatewayClass"
DEFAULT_TYPE = "LoadBalancer"
DEFAULT_POLICY = "Local"
SERVICE_PATH = ("spec", "provider", "kubernetes", "envoyService")


def _text(value: Val) -> str | None:
    return value.text() if value.known and isinstance(value.raw, str) else None


def _group(value: Val) -> str | None:
    api_version = _text(value.get("apiVersion"))
    return api_version.split("/", 1)[0] if api_version and "/" in api_version else None


def _name(value: Val) -> str | None:
    return _text(value.path("metadata", "name"))


def _namespace(value: Val) -> str | None:
    return _text(value.path("metadata", "namespace"))


def _same_namespace(one: str | None, other: str | None) -> bool:
    return one is None or other is None or one == other


class DataPlane:
    """An EnvoyProxy as a Service, with the Gateways whose data plane it configures; or the
    Service of one Gateway that writes infrastructure annotations (``proxy`` its EnvoyProxy,
    None when it names none)."""

    proxy: KubeObject | None
    service: LbService
    gateways: list[Val]

    def __init__(self, proxy: KubeObject | None, service: LbService, gateways: list[Val]) -> None:
        self.proxy = proxy
        self.service = service
        self.gateways = gateways


def _objects(project: Project, kind: str, group: str) -> list[KubeObject]:
    return [found for found in kube_objects.objects_of_kind(project, kind) if _group(found.value) == group]


def _refers_to_proxy(reference: Val, proxy: Val, namespace: str | None) -> bool:
    """A ``parametersRef`` naming this EnvoyProxy."""
    if not reference.known or not reference.is_object:
        return False
    if _text(reference.get("group")) != GROUP or _text(reference.get("kind")) != ENVOY_PROXY:
        return False
    if _text(reference.get("name")) != _name(proxy):
        return False
    written = _text(reference.get("namespace")) or namespace
    return _same_namespace(written, _namespace(proxy))


def _gateways_of(project: Project, proxy: Val) -> list[Val]:
    """The Gateways whose data plane ``proxy`` configures: named by their own
    ``infrastructure.parametersRef``, or by their class's ``parametersRef`` when they name none."""
    classes = [found.value for found in _objects(project, GATEWAY_CLASS, GATEWAY_API_GROUP)
               if _refers_to_proxy(found.value.path("spec", "parametersRef"), proxy, None)]
    class_names = {_name(c) for c in classes}
    gateways = []
    for found in _objects(project, GATEWAY, GATEWAY_API_GROUP):
        gateway = found.value
        own = gateway.path("spec", "infrastructure", "parametersRef")
        if own.raw is not None:
            if _refers_to_proxy(own, proxy, _namespace(gateway)):
                gateways.append(gateway)
        elif _text(gateway.path("spec", "gatewayClassName")) in class_names:
            gateways.append(gateway)
    return gateways


def data_planes(project: Project) -> list[DataPlane]:
    """Every EnvoyProxy of the repository whose Service settings can be read, computed once."""
    return project.memo("kapsule.envoy-data-planes", lambda: list(_data_planes(project)))


def _data_planes(project: Project) -> Iterator[DataPlane]:
    served: set[int] = set()
    for found in _objects(project, ENVOY_PROXY, GROUP):
        proxy = found.value
        spec = proxy.get("spec")
        settings = proxy.path(*SERVICE_PATH)
        provider = spec.get("provider")
        provider_type = _text(provider.get("type")) if provider.is_object else None
        if provider.raw is not None and provider_type not in (None, "Kubernetes"):
            continue  # another provider: no Kubernetes Service
        gateways = _gateways_of(project, proxy)
        served.update(id(gateway) for gateway in gateways)
        own = [gateway for gateway in gateways if gateway_infrastructure.has_infrastructure_annotations(gateway)]
        plain = [gateway for gateway in gateways if not gateway_infrastructure.has_infrastructure_annotations(gateway)]
        if plain or not own:
            yield DataPlane(found, _service(project, found, settings, plain), plain)
        for gateway in own:
            gateway_found = _gateway_object(project, gateway)
            if gateway_found is not None:
                yield DataPlane(found, _gateway_service(project, gateway_found, found, settings), [gateway])
    for gateway_of in gateway_infrastructure.gateways(project):
        gateway = gateway_of.found.value
        if gateway_of.implementation is not gateway_infrastructure.ENVOY_GATEWAY or id(gateway) in served:
            continue
        if not gateway_infrastructure.has_infrastructure_annotations(gateway):
            continue  # no Service settings written for it
        named = gateway.path("spec", "infrastructure", "parametersRef").raw is not None or (
            gateway_of.gateway_class is not None and gateway_of.gateway_class.path("spec", "parametersRef").raw is not None)
        yield DataPlane(None, _gateway_service(project, gateway_of.found, None, Val(UNKNOWN) if named else Val(None)),
                        [gateway])


def _gateway_object(project: Project, gateway: Val) -> KubeObject | None:
    for found in _objects(project, GATEWAY, GATEWAY_API_GROUP):
        if found.value is gateway:
            return found
    return None


def _gateway_service(project: Project, gateway: KubeObject, proxy: KubeObject | None, settings: Val) -> LbService:
    """The Service of one Gateway with infrastructure annotations: those annotations, then the
    EnvoyProxy's ``envoyService.annotations`` over them; the rest of the Service the EnvoyProxy's
    (``settings`` null without one, Unknown when one is named that the repository does not hold).
    An EnvoyProxy that merges Gateways, patches the Service or merges with the class's leaves it
    Unknown."""
    unsure = not settings.known or settings.open
    if proxy is not None:
        value = proxy.value
        unsure = unsure or (settings.is_object and settings.get("patch").raw is not None)
        unsure = unsure or value.path("spec", "mergeType").raw is not None or not value.known or value.open
        unsure = unsure or value.path("spec", "mergeGateways").raw not in (None, False)
    infrastructure = gateway_infrastructure.infrastructure_annotations(gateway.value)
    if unsure:
        unknown = Val(UNKNOWN, settings.loc or infrastructure.loc)
        return gateway_infrastructure.gateway_service(
            project, gateway, gateway_infrastructure.ENVOY_GATEWAY, annotations=unknown, written_type=unknown,
            external_traffic_policy=unknown, load_balancer_ip=unknown, source_ranges=unknown)
    annotations = gateway_infrastructure.merged(infrastructure, settings.get("annotations"))
    return gateway_infrastructure.gateway_service(
        project, gateway, gateway_infrastructure.ENVOY_GATEWAY, annotations=annotations,
        written_type=settings.get("type"), external_traffic_policy=settings.get("externalTrafficPolicy"),
        load_balancer_ip=settings.get("loadBalancerIP"), source_ranges=settings.get("loadBalancerSourceRanges"))


def _service(project: Project, found: KubeObject, settings: Val, gateways: list[Val]) -> LbService:
    proxy = found.value
    annotations = settings.get("annotations")
    unsure = (not settings.known or settings.open or settings.get("patch").raw is not None
              or proxy.path("spec", "mergeType").raw is not None or not proxy.known or proxy.open)
    if unsure:
        annotations = Val(UNKNOWN, annotations.loc or settings.loc)
    written_type = settings.get("type")
    if unsure and written_type.raw is None:
        written_type = Val(UNKNOWN, settings.loc)
    policy = settings.get("externalTrafficPolicy")
    if unsure and policy.raw is None:
        policy = Val(UNKNOWN, settings.loc)
    kubernetes = proxy.path("spec", "provider", "kubernetes")
    service_key = kubernetes.key_loc("envoyService") if kubernetes.is_object else None
    anchor = proxy.loc or Loc("?", 1, 1, 1, 2)
    if found.instance is not None:
        subject, address = found.instance.resource.address, found.instance.address
    else:
        subject, address = project.relative(anchor.path), None
    named = kube_objects.object_label(ENVOY_PROXY, proxy.get("metadata"))
    return LbService(
        source=ENVOY_PROXY,
        kind=ENVOY_PROXY,
        subject=subject,
        instance=address,
        label=f"{subject} ({named})",
        logical=subject if found.instance is not None else f"{subject}#{named}",
        annotations=annotations,
        annotations_known=annotations.known and not annotations.open,
        written_type=written_type,
        type_default=DEFAULT_TYPE,
        external_traffic_policy=policy,
        policy_default=DEFAULT_POLICY,
        load_balancer_ip=settings.get("loadBalancerIP") if not unsure else Val(UNKNOWN, settings.loc),
        source_ranges=settings.get("loadBalancerSourceRanges") if not unsure else Val(UNKNOWN, settings.loc),
        ports=gateway_infrastructure.listener_ports(gateways) if gateways else None,
        anchor=service_key or anchor,
        spec_anchor=service_key,
        annotations_anchor=settings.key_loc("annotations") if settings.is_object else None,
        evidence=kube_objects.evidence(annotations, found.cluster),
        cluster=found.cluster,
    )


def services(project: Project) -> Iterator[LbService]:
    """The data plane Service of every EnvoyProxy (see :func:`data_planes`)."""
    for plane in data_planes(project):
        yield plane.service


# -- PROXY protocol on the Gateway's listeners ---------------------------------------------------


class ListenerProxy(NamedTuple):
    """What one listener does with a PROXY header: ``accepts`` it, ``requires`` it (None when
    Unknown), and the policy setting that decides (None when no policy sets it)."""

    gateway: Val
    name: str | None
    port: int
    accepts: bool | None
    requires: bool | None
    setting: Val | None
    setting_name: str
    setting_key: Loc | None


def _targets(policy: Val, gateway: Val, listener: str | None) -> bool | None:
    """Whether a ClientTrafficPolicy applies to this Gateway's listener; None when Unknown."""
    spec = policy.get("spec")
    if not spec.known or spec.open:
        return None
    if not _same_namespace(_namespace(policy), _namespace(gateway)):
        return False
    references = [spec.get("targetRef")] if spec.get("targetRef").raw is not None else []
    listed = spec.get("targetRefs")
    if listed.raw is not None:
        if not listed.known or not listed.is_list:
            return None
        references.extend(listed.elements())
    for reference in references:
        if not reference.known or not reference.is_object or reference.open:
            return None
        if _text(reference.get("kind")) != GATEWAY or _text(reference.get("name")) != _name(gateway):
            continue
        section = reference.get("sectionName")
        if section.raw is None or _text(section) == listener:
            return True
    return False


def _proxy_setting(policy: Val) -> tuple[bool | None, bool | None, Val | None, str, Loc | None]:
    """(accepts, requires, setting, its name, its key) of one policy; (False, False, None, ...)
    when it sets no PROXY protocol."""
    spec = policy.get("spec")
    settings = spec.get("proxyProtocol")
    if settings.raw is not None:
        if not settings.known or settings.open:
            return None, None, settings, "proxyProtocol", spec.key_loc("proxyProtocol")
        optional = settings.get("optional") if settings.is_object else Val(None)
        if not optional.known:
            return True, None, settings, "proxyProtocol", spec.key_loc("proxyProtocol")
        return True, optional.raw is not True, settings, "proxyProtocol", spec.key_loc("proxyProtocol")
    enabled = spec.get("enableProxyProtocol")
    if enabled.raw is not None:
        if not enabled.known or not isinstance(enabled.raw, bool):
            return None, None, enabled, "enableProxyProtocol", spec.key_loc("enableProxyProtocol")
        return enabled.raw, enabled.raw, enabled, "enableProxyProtocol", spec.key_loc("enableProxyProtocol")
    return False, False, None, "", None


def listener_proxy(project: Project, plane: DataPlane) -> list[ListenerProxy] | None:
    """Each listener of the Gateways ``plane`` serves and its PROXY expectation; None when a
    policy may be chosen by labels, or a listener's port is Unknown."""
    policies = _objects(project, CLIENT_TRAFFIC_POLICY, GROUP)
    if any(found.value.path("spec", "targetSelectors").raw is not None for found in policies):
        return None
    out = []
    for gateway in plane.gateways:
        listeners = gateway.path("spec", "listeners")
        if not listeners.known or not listeners.is_list:
            return None
        for listener in listeners.elements():
            port = listener.get("port")
            if not port.known or not isinstance(port.raw, int) or isinstance(port.raw, bool):
                return None
            name = _text(listener.get("name"))
            applying = []
            for found in policies:
                targets = _targets(found.value, gateway, name)
                if targets is None:
                    return None
                if targets:
                    applying.append(found.value)
            decided = [_proxy_setting(policy) for policy in applying]
            setting = next((d for d in decided if d[2] is not None), (False, False, None, "", None))
            if len([d for d in decided if d[2] is not None]) > 1:
                setting = (None, None, setting[2], setting[3], setting[4])  # which one wins is not followed
            out.append(ListenerProxy(gateway, name, port.raw, *setting))
    return out


__all__ = [
    "DataPlane",
    "ListenerProxy",
    "data_planes",
    "listener_proxy",
    "services",
]
