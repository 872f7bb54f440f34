"""Gateway API ``spec.infrastructure.annotations``: the annotations a Gateway asks its
implementation to put on what it creates, the data plane's Service included, and which
implementations do so.

Gateway API v1.1 added ``GatewayInfrastructure`` (Standard channel since v1.2): ``labels`` and
``annotations`` that an implementation SHOULD apply to the resources it creates for the Gateway
(GEP-1867, https://gateway-api.sigs.k8s.io/geps/gep-1867/). Whether the Service carries them, and
what else shapes that Service, is each implementation's code. Read at pinned releases:

* Envoy Gateway (``gateway.envoyproxy.io/gatewayclass-controller``), v1.9.0: the translator keeps
  the Gateway's infrastructure annotations as the proxy's metadata
  (https://github.com/envoyproxy/gateway/blob/v1.9.0/internal/gatewayapi/translator.go), and the
  Service gets them first, then the EnvoyProxy's ``envoyService.annotations`` over them, key by key
  (https://github.com/envoyproxy/gateway/blob/v1.9.0/internal/infrastructure/kubernetes/proxy/resource_provider.go).
  The rest of the Service is the EnvoyProxy's (:mod:`kapsulint.kapsule.envoy_gateway`). Its chart
  creates no GatewayClass: the class must be in the repository. With ``mergeGateways`` one Service
  serves every Gateway of the class, whose annotations then depend on which Gateway is translated
  last: not followed.
* Istio (``istio.io/gateway-controller``), 1.30.3: the deployment controller takes
  ``infrastructure.annotations`` (keys under ``gateway.networking.k8s.io/`` dropped), else the
  Gateway's own ``metadata.annotations`` (``PILOT_ENABLE_GATEWAY_API_COPY_LABELS_ANNOTATIONS``,
  on by default), and the ``kube-gateway`` template writes them on the Service, whose type is the
  Gateway's ``networking.istio.io/service-type`` annotation, ``LoadBalancer`` by default, with
  ``loadBalancerIP`` from the Gateway's first ``spec.addresses`` entry
  (https://github.com/istio/istio/blob/1.30.3/pilot/pkg/config/kube/gatewaycommon/deploymentcontroller.go,
  https://github.com/istio/istio/blob/1.30.3/pilot/pkg/config/kube/gatewaycommon/classinfo.go,
  https://github.com/istio/istio/blob/1.30.3/manifests/charts/istio-control/istio-discovery/files/kube-gateway.yaml).
  istiod creates the ``istio`` GatewayClass itself (``PILOT_GATEWAY_API_DEFAULT_GATEWAYCLASS_NAME``,
  https://github.com/istio/istio/blob/1.30.3/pilot/pkg/features/pilot.go), so a Gateway of class
  ``istio`` is Istio's without the class in the repository. An ``infrastructure.parametersRef``
  (a ConfigMap that overlays the generated objects) and istiod's own templates may change the
  Service: with a ``parametersRef`` the Service is not judged, and its traffic policy, which only
  those set, is Unknown.
* NGINX Gateway Fabric (``gateway.nginx.org/nginx-gateway-controller``), v2.6.7: the provisioner
  copies ``infrastructure.annotations`` onto every object it makes, the Service included; the
  Service type and traffic policy come from the ``NginxProxy`` the GatewayClass or Gateway names,
  ``LoadBalancer`` and ``Local`` by default
  (https://github.com/nginx/nginx-gateway-fabric/blob/v2.6.7/internal/controller/provisioner/objects.go).
  Its chart creates the GatewayClass ``nginx`` with an NginxProxy of its values
  (https://github.com/nginx/nginx-gateway-fabric/blob/v2.6.7/charts/nginx-gateway-fabric/values.yaml):
  a Gateway of class ``nginx`` is NGINX Gateway Fabric's, with its Service type Unknown unless the
  class is in the repository and neither it nor the Gateway names an NginxProxy.

Other implementations (Cilium, kgateway, the ingress controllers that also serve Gateways, ...)
are not followed: kapsulint has not read in a release's sources whether and how their Service
carries the annotations, so their Gateways stay silent rather than be judged on a guess. A Gateway of a class kapsulint cannot identify is
silent for the same reason: the annotations may go to another cloud's load balancer, or nowhere.
"""

from __future__ import annotations

from typing import NamedTuple

from kapsulint.api import UNKNOWN, Loc, Project, Val
from kapsulint.kapsule import kube_objects
from kapsulint.kapsule.kube_objects import KubeObject, LbService

GATEWAY_API_GROUP = "gateway.networking.k8s.io"
GATEWAY = "Gateway"
GATEWAY_CLASS = "GatewayClass"
INFRASTRUCTURE = ("spec", "infrastructure")
ISTIO_SERVICE_TYPE = "networking.istio.io/service-type"
ISTIO_DROPPED_PREFIX = "gateway.networking.k8s.io/"


class Implementation(NamedTuple):
    """A Gateway API implementation whose data plane Service carries a Gateway's infrastructure
    annotations."""

    key: str  # "envoy-gateway", "istio", "nginx-gateway-fabric"
    title: str  # how a message names it
    controller_name: str
    default_class: str | None  # the GatewayClass its default install creates, if any
    default_type: str
    default_policy: str


ENVOY_GATEWAY = Implementation(
    "envoy-gateway", "Envoy Gateway", "gateway.envoyproxy.io/gatewayclass-controller", None, "LoadBalancer", "Local")
ISTIO = Implementation("istio", "Istio", "istio.io/gateway-controller", "istio", "LoadBalancer", "Cluster")
NGINX_GATEWAY_FABRIC = Implementation(
    "nginx-gateway-fabric", "NGINX Gateway Fabric", "gateway.nginx.org/nginx-gateway-controller", "nginx",
    "LoadBalancer", "Local")
IMPLEMENTATIONS: tuple[Implementation, ...] = (ENVOY_GATEWAY, ISTIO, NGINX_GATEWAY_FABRIC)


def _text(value: Val) -> str | None:
    return value.text() if value.known and isinstance(value.raw, str) else None


def group_of(value: Val) -> str | None:
    api_version = _text(value.get("apiVersion"))
    return api_version.split("/", 1)[0] if api_version and "/" in api_version else None


def gateway_api_objects(project: Project, kind: str) -> list[KubeObject]:
    return [found for found in kube_objects.objects_of_kind(project, kind)
            if group_of(found.value) == GATEWAY_API_GROUP]


class GatewayOf(NamedTuple):
    """A Gateway, its implementation, and its GatewayClass when the repository writes it."""

    found: KubeObject
    implementation: Implementation
    gateway_class: Val | None


def gateways(project: Project) -> list[GatewayOf]:
    """Every Gateway of the repository whose implementation is identified, computed once: by its
    GatewayClass's ``controllerName`` when the repository writes the class (one class of that
    name), else by the class name an implementation's default install creates."""
    return project.memo("kapsule.gateway-implementations", lambda: _gateways(project))


def _gateways(project: Project) -> list[GatewayOf]:
    classes: dict[str, list[Val]] = {}
    for found in gateway_api_objects(project, GATEWAY_CLASS):
        name = _text(found.value.path("metadata", "name"))
        if name:
            classes.setdefault(name, []).append(found.value)
    by_controller = {impl.controller_name: impl for impl in IMPLEMENTATIONS}
    by_default = {impl.default_class: impl for impl in IMPLEMENTATIONS if impl.default_class}
    out = []
    for found in gateway_api_objects(project, GATEWAY):
        class_name = _text(found.value.path("spec", "gatewayClassName"))
        if class_name is None:
            continue
        written = classes.get(class_name, [])
        if len(written) > 1:
            continue  # which one the cluster holds is not known
        if written:
            controller = _text(written[0].path("spec", "controllerName"))
            impl = by_controller.get(controller or "")
            if impl is not None:
                out.append(GatewayOf(found, impl, written[0]))
        elif class_name in by_default:
            out.append(GatewayOf(found, by_default[class_name], None))
    return out


def infrastructure_annotations(gateway: Val) -> Val:
    """The Gateway's ``spec.infrastructure.annotations`` as written (absent: a null Val)."""
    return gateway.path(*INFRASTRUCTURE, "annotations")


def has_infrastructure_annotations(gateway: Val) -> bool:
    return infrastructure_annotations(gateway).raw is not None


def infrastructure_anchor(gateway: Val) -> Loc | None:
    """The ``annotations`` key under ``infrastructure``, else the ``infrastructure`` key."""
    infrastructure = gateway.path(*INFRASTRUCTURE)
    if infrastructure.is_object and infrastructure.key_loc("annotations") is not None:
        return infrastructure.key_loc("annotations")
    spec = gateway.get("spec")
    return spec.key_loc("infrastructure") if spec.is_object else None


def merged(under: Val, over: Val) -> Val:
    """Two annotation maps merged key by key, ``over`` winning, each entry kept where it is
    written; Unknown or open when either may hold keys not seen."""
    if not under.known or not over.known:
        return Val(UNKNOWN, over.loc or under.loc)
    entries: dict[str, Val] = {}
    keylocs: dict[str, Loc] = {}
    for source in (under, over):
        if not source.is_object:
            continue
        for key, value in source.items():
            entries[key] = value
            loc = source.key_loc(key)
            if loc is not None:
                keylocs[key] = loc
    return Val(entries, over.loc or under.loc, keylocs=keylocs, open=under.open or over.open)


def listener_ports(gateways: list[Val]) -> tuple[int, ...] | None:
    """The port numbers of the Gateways' listeners (the Service publishes them); None when one
    is Unknown."""
    ports: list[int] = []
    for gateway in gateways:
        listeners = gateway.path("spec", "listeners")
        if not listeners.known or not listeners.is_list:
            return None
        for listener in listeners.elements():
            port = listener.get("port")
            if not port.known or not isinstance(port.raw, int) or isinstance(port.raw, bool):
                return None
            ports.append(port.raw)
    return tuple(sorted(set(ports)))


def gateway_service(
    project: Project,
    found: KubeObject,
    implementation: Implementation,
    *,
    annotations: Val,
    written_type: Val,
    external_traffic_policy: Val,
    load_balancer_ip: Val,
    source_ranges: Val,
    annotations_key: Loc | None = None,
) -> LbService:
    """The Service an implementation creates for one Gateway, named after the Gateway (its kind,
    namespace and name), anchored at its ``infrastructure`` annotations."""
    gateway = found.value
    anchor = gateway.loc or Loc("?", 1, 1, 1, 2)
    if found.instance is not None:
        subject, address = found.instance.resource.address, found.instance.address
    else:
        subject, address = project.relative(anchor.path), None
    named = kube_objects.object_label(GATEWAY, gateway.get("metadata"), found.namespace_override)
    infrastructure = annotations_key or infrastructure_anchor(gateway)
    return LbService(
        source=GATEWAY,
        kind=GATEWAY,
        subject=subject,
        instance=address,
        label=f"{subject} ({named}, {implementation.title})",
        logical=subject if found.instance is not None else f"{subject}#{named}",
        annotations=annotations,
        annotations_known=annotations.known and not annotations.open,
        written_type=written_type,
        type_default=implementation.default_type,
        external_traffic_policy=external_traffic_policy,
        policy_default=implementation.default_policy,
        load_balancer_ip=load_balancer_ip,
        source_ranges=source_ranges,
        ports=listener_ports([gateway]),
        anchor=infrastructure or anchor,
        spec_anchor=infrastructure,
        annotations_anchor=infrastructure,
        evidence=kube_objects.evidence(annotations, found.cluster),
        cluster=found.cluster,
    )


def _parameters_ref(value: Val) -> Val:
    return value.path("spec", "parametersRef")


def _istio_service(project: Project, gateway_of: GatewayOf) -> LbService | None:
    """Istio's Service of a Gateway: its infrastructure annotations (else its own), its type from
    the ``networking.istio.io/service-type`` annotation, ``loadBalancerIP`` from its first
    address; not judged with an ``infrastructure.parametersRef``."""
    found = gateway_of.found
    gateway = found.value
    if not gateway.known or gateway.open or gateway.path(*INFRASTRUCTURE, "parametersRef").raw is not None:
        return None
    metadata = gateway.get("metadata")
    own = metadata.get("annotations") if metadata.is_object else Val(None)
    annotations = infrastructure_annotations(gateway)
    annotations_key = None
    if annotations.raw is None:
        annotations = own if own.raw is not None else Val({}, None)
        annotations_key = metadata.key_loc("annotations") if metadata.is_object else None
    annotations = without_prefix(annotations, ISTIO_DROPPED_PREFIX)
    if own.raw is None:
        written_type = Val(None)
    elif own.known and own.is_object:
        written_type = own.get(ISTIO_SERVICE_TYPE)
    else:
        written_type = Val(UNKNOWN, own.loc)
    addresses = gateway.path("spec", "addresses")
    if addresses.raw is None:
        load_balancer_ip = Val(None)
    elif addresses.known and addresses.is_list:
        first = addresses.elements()[0] if addresses.elements() else Val(None)
        load_balancer_ip = first.get("value") if first.is_object else first
    else:
        load_balancer_ip = Val(UNKNOWN, addresses.loc)
    # istiod's templates may set the policy; the Gateway cannot (only a parametersRef can)
    policy = Val(UNKNOWN, gateway.loc)
    return gateway_service(project, found, ISTIO, annotations=annotations, written_type=written_type,
                           external_traffic_policy=policy, load_balancer_ip=load_balancer_ip,
                           source_ranges=Val(None), annotations_key=annotations_key)


def _nginx_service(project: Project, gateway_of: GatewayOf) -> LbService | None:
    """NGINX Gateway Fabric's Service of a Gateway: its infrastructure annotations; type and
    policy the defaults only when no NginxProxy is named (the class in the repository without a
    ``parametersRef``, the Gateway without one), else Unknown."""
    found = gateway_of.found
    gateway = found.value
    if not gateway.known or gateway.open:
        return None
    annotations = infrastructure_annotations(gateway)
    named_proxy = (gateway_of.gateway_class is None
                   or _parameters_ref(gateway_of.gateway_class).raw is not None
                   or gateway.path(*INFRASTRUCTURE, "parametersRef").raw is not None)
    unknown = Val(UNKNOWN, gateway.loc)
    written_type = unknown if named_proxy else Val(None)
    policy = unknown if named_proxy else Val(None)
    return gateway_service(project, found, NGINX_GATEWAY_FABRIC, annotations=annotations,
                           written_type=written_type, external_traffic_policy=policy,
                           load_balancer_ip=unknown if named_proxy else Val(None),
                           source_ranges=unknown if named_proxy else Val(None))


def services(project: Project) -> list[LbService]:
    """The Service of every Istio and NGINX Gateway Fabric Gateway (each Gateway gets its own);
    Envoy Gateway's are its data planes' (:mod:`kapsulint.kapsule.envoy_gateway`)."""
    out = []
    for gateway_of in gateways(project):
        if gateway_of.implementation is ISTIO:
            made = _istio_service(project, gateway_of)
        elif gateway_of.implementation is NGINX_GATEWAY_FABRIC:
            made = _nginx_service(project, gateway_of)
        else:
            continue
        if made is not None:
            out.append(made)
    return out


def without_prefix(annotations: Val, prefix: str) -> Val:
    """An annotation map without the keys under ``prefix`` (Istio drops its API group's)."""
    if not annotations.known or not annotations.is_object:
        return annotations
    entries = {key: value for key, value in annotations.items() if not key.startswith(prefix)}
    keylocs = {key: loc for key in entries if (loc := annotations.key_loc(key)) is not None}
    return Val(entries, annotations.loc, keylocs=keylocs, open=annotations.open)


__all__ = [
    "ENVOY_GATEWAY",
    "GATEWAY",
    "GATEWAY_API_GROUP",
    "GATEWAY_CLASS",
    "IMPLEMENTATIONS",
    "ISTIO",
    "NGINX_GATEWAY_FABRIC",
    "GatewayOf",
    "Implementation",
    "gateway_api_objects",
    "gateways",
    "group_of",
    "has_infrastructure_annotations",
    "infrastructure_anchor",
    "infrastructure_annotations",
    "gateway_service",
    "listener_ports",
    "merged",
    "services",
    "without_prefix",
]
