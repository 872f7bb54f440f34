"""Kubernetes objects written in the repository, and the Service model the load balancer rules ask.

Objects come from ``kubernetes_manifest`` resources (an HCL object or a decoded document),
``kubectl_manifest`` resources (a ``yaml_body`` written inline or read with ``file()`` or
``templatefile()``) and the Kubernetes YAML files of the repository, which the scan reads by
content (multi-document files, ``kind: List`` items). A file a manifest resource reads is judged
where Terraform applies it, not a second time on its own. A Service that Kustomize overlays
include is read as each top kustomization renders it (:func:`kustomize.renderings`): strategic
merge patches merged over it; a rendering whose patch is not followed (JSON 6902 operations) is
not judged.

:class:`LbService` is one Service that may get a Scaleway load balancer, whatever wrote it
(:mod:`kapsulint.kapsule.lb_services` gathers them). Fields are read the way the API server reads
them: ``spec.type`` absent is ``ClusterIP``
(https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types),
``externalTrafficPolicy`` absent is ``Cluster``. Kapsule evidence is a Scaleway load balancer
annotation, or a ``scaleway_k8s_cluster`` the object is applied to (its provider's connection,
else the only cluster of its root module tree); a YAML file, applied outside Terraform, counts
its annotations alone. Another cloud's load balancer annotations silence it. Anything Unknown is
None.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import NamedTuple

from kapsulint.api import UNKNOWN, Loc, Project, ResourceInstance, Val, decode_located, provider_config
from kapsulint.kapsule import lb_annotation_keys
from kapsulint.kapsule.clusters import Cluster, cluster_of
from kapsulint.kapsule.gitops import kustomize
from kapsulint.kapsule.helm import clusters_by_root
from kapsulint.kapsule.helm_values import merge
from kapsulint.kapsule.service import ControllerService

KUBERNETES_MANIFEST = "kubernetes_manifest"
KUBECTL_MANIFEST = "kubectl_manifest"
SERVICE_KIND = "Service"
LIST_KIND = "List"
KUSTOMIZATION = "Kustomization"
LOAD_BALANCER = "LoadBalancer"
DEFAULT_SERVICE_TYPE = "ClusterIP"  # the API server's default for spec.type
_CONNECTION_ARGS = ("host", "token", "cluster_ca_certificate", "config_path", "client_certificate", "client_key")
_MAX_LIST_ITEMS = 10_000

class ServicePort(NamedTuple):
    """One entry of a Service's ports: its number (None when Unknown), its target port as written
    (null when unset: the port number itself), where the entry is written."""

    port: int | None
    target: Val
    loc: Loc | None


class LbService:
    """One Service (or the Service a data plane's settings describe) and where each of its
    load balancer settings is written.

    ``subject`` names what a finding judges (``helm_release.ingress``, ``kubernetes_service.web``,
    ``k8s/ingress.yaml``), ``label`` how a message names the Service (with its kind, namespace and
    name for an object), ``logical`` the stable part of a fingerprint. ``chart`` is the chart's
    Service model for a chart's Service (the rules about a controller's own values ask it), else
    None. ``ports`` are the Service's port numbers (None for a chart's Service, whose ports come
    from the chart, or when one is Unknown)."""

    source: str  # "helm_release", a GitOps tool's release, "values file", a resource type, "manifest", "EnvoyProxy"
    kind: str  # the object's kind: "Service", "EnvoyProxy"
    subject: str
    instance: str | None
    label: str
    logical: str
    chart: ControllerService | None
    annotations: Val
    annotations_known: bool
    written_type: Val
    external_traffic_policy: Val
    policy_default: str  # the traffic policy when none is written
    load_balancer_ip: Val
    source_ranges: Val
    ports: tuple[int, ...] | None
    anchor: Loc
    _type_default: str | None
    _spec_anchor: Loc | None
    _annotations_anchor: Loc | None
    _evidence: bool
    _cluster: Cluster | None
    port_entries: tuple[ServicePort, ...] | None  # an object's ports as written; None for a chart's or when Unknown
    selector: Val  # an object's pod selector as written

    def __init__(
        self,
        *,
        source: str,
        kind: str,
        subject: str,
        instance: str | None,
        label: str,
        logical: str,
        annotations: Val,
        annotations_known: bool,
        written_type: Val,
        type_default: str | None,
        external_traffic_policy: Val,
        load_balancer_ip: Val,
        source_ranges: Val,
        ports: tuple[int, ...] | None,
        anchor: Loc,
        spec_anchor: Loc | None,
        annotations_anchor: Loc | None,
        evidence: bool,
        cluster: Cluster | None,
        chart: ControllerService | None = None,
        policy_default: str = "Cluster",
        port_entries: tuple[ServicePort, ...] | None = None,
        selector: Val | None = None,
    ) -> None:
        self.source = source
        self.kind = kind
        self.subject = subject
        self.instance = instance
        self.label = label
        self.logical = logical
        self.chart = chart
        self.annotations = annotations
        self.annotations_known = annotations_known
        self.written_type = written_type
        self._type_default = type_default
        self.external_traffic_policy = external_traffic_policy
        self.policy_default = policy_default
        self.load_balancer_ip = load_balancer_ip
        self.source_ranges = source_ranges
        self.ports = ports
        self.anchor = anchor
        self._spec_anchor = spec_anchor
        self._annotations_anchor = annotations_anchor
        self._evidence = evidence
        self._cluster = cluster
        self.port_entries = port_entries
        self.selector = selector if selector is not None else Val(None)

    # -- what the Service is --------------------------------------------------------------------

    @property
    def service_type(self) -> str | None:
        """The Service type (the default when unset); None when Unknown."""
        if self.chart is not None:
            return self.chart.service_type
        written = self.written_type
        if written.raw is None:
            return self._type_default if written.known else None
        return written.text() if written.known and isinstance(written.raw, str) else None

    @property
    def is_load_balancer(self) -> bool | None:
        kind = self.service_type
        return None if kind is None else kind == LOAD_BALANCER

    @property
    def name(self) -> str:
        """How a message names the Service briefly: the subject for a chart's Service (its
        release or values file), the label for an object."""
        return self.chart.subject.name if self.chart is not None else self.label

    def annotation(self, name: str) -> Val:
        return self.annotations.get(name)

    def annotation_key_loc(self, name: str) -> Loc | None:
        return self.annotations.key_loc(name)

    @property
    def kapsule_evidence(self) -> bool:
        return self._evidence

    def cluster(self) -> Cluster | None:
        """The cluster the Service is applied to, when the scan knows it."""
        return self._cluster

    # -- where a finding points ----------------------------------------------------------------

    def type_anchor(self) -> Loc:
        """The Service ``type`` where written, else the object's (or release's) first line."""
        if self.chart is not None:
            return self.chart.type_anchor()
        written = self.written_type
        return written.loc if written.raw is not None and written.loc is not None else self.anchor

    def service_key_anchor(self) -> Loc:
        """The key holding the Service settings (a chart's ``controller.service``, an object's
        ``spec``), else the object's first line."""
        if self.chart is not None:
            return self.chart.service_key_anchor()
        return self._spec_anchor or self.anchor

    def annotations_anchor(self) -> Loc:
        """The ``annotations`` key, else the key holding the Service settings."""
        if self.chart is not None:
            return self.chart.key_loc(self.chart.controller.service_annotations_path) or self.service_key_anchor()
        return self._annotations_anchor or self.service_key_anchor()

    # -- settings read from annotations and fields ----------------------------------------------

    @property
    def is_private(self) -> bool | None:
        """The ``scw-loadbalancer-private`` annotation ("public if unset or false", CCM
        docs/loadbalancer-annotations.md); None when Unknown."""
        value = self.annotation(lb_annotation_keys.LB_PRIVATE)
        if value.raw is None:
            return None if not self.annotations_known else False
        if not value.known:
            return None
        if value.is_true():
            return True
        if value.is_false():
            return False
        return None

    @property
    def source_ranges_restricted(self) -> bool | None:
        """``loadBalancerSourceRanges`` lists sources and none is a /0 (the CCM turns them into
        load balancer ACLs); False when unset, empty or open to /0; None when Unknown."""
        if self.chart is not None:
            return self.chart.source_ranges_restricted
        ranges = self.source_ranges
        if ranges.raw is None:
            return False if ranges.known else None
        if not ranges.known or not ranges.is_list:
            return None
        texts = [item.text() if item.known else None for item in ranges.elements()]
        if any(t is not None and t.strip().endswith("/0") for t in texts):
            return False
        if any(t is None for t in texts):
            return None
        return bool(texts)


# -- Kapsule evidence -----------------------------------------------------------------------------


def evidence(annotations: Val, cluster: Cluster | None) -> bool:
    """Scaleway load balancer annotations, or a cluster the object is applied to; never with
    another cloud's load balancer annotations."""
    keys = [key for key, _ in annotations.items()] if annotations.known else []
    if any(lb_annotation_keys.is_foreign_cloud_annotation(key) for key in keys):
        return False
    if any(lb_annotation_keys.is_scaleway_lb_annotation(key) for key in keys):
        return True
    return cluster is not None


def cluster_of_resource(project: Project, instance: ResourceInstance, provider: str) -> Cluster | None:
    """The cluster a Kubernetes resource is applied to: its provider's connection, else the only
    cluster of its root module tree."""
    found = provider_config(instance.module, provider, instance.provider_alias)
    if found is not None:
        module, block = found
        for name in _CONNECTION_ARGS:
            linked = cluster_of(module.eval_attr(block, name))
            if linked is not None:
                return Cluster(linked)
    every = clusters_by_root(project).get(id(instance.module.root), [])
    return every[0] if len(every) == 1 else None


# -- Terraform resources --------------------------------------------------------------------------


def _text(value: Val) -> str | None:
    return value.text() if value.known and isinstance(value.raw, str) else None


def is_service(value: Val) -> bool:
    """A core Service object (``apiVersion: v1``, ``kind: Service``; Knative's ``Service`` is
    another kind of object)."""
    return (value.known and value.is_object and _text(value.get("kind")) == SERVICE_KIND
            and _text(value.get("apiVersion")) == "v1")


def object_label(kind: str, metadata: Val, namespace_override: Val | None = None) -> str:
    """``Service ingress/web`` (``Service web`` without a namespace, ``?`` for a name not known)."""
    name = _text(metadata.get("name")) if metadata.is_object else None
    namespace = _text(namespace_override) if namespace_override is not None and namespace_override.raw else None
    if namespace is None and metadata.is_object:
        namespace = _text(metadata.get("namespace"))
    who = name if name else "?"
    return f"{kind} {namespace}/{who}" if namespace else f"{kind} {who}"


class KubeObject(NamedTuple):
    """A Kubernetes object written in the repository, and what applies it."""

    value: Val  # the object, located where it is written
    instance: ResourceInstance | None  # the kubernetes_manifest or kubectl_manifest, if one applies it
    source: str  # "kubernetes_manifest", "kubectl_manifest" or "manifest" (a YAML file)
    cluster: Cluster | None
    namespace_override: Val | None  # kubectl_manifest's override_namespace
    rendered_by: str | None = None  # the top kustomization whose patches this object has merged


def kubernetes_objects(project: Project) -> list[KubeObject]:
    """Every object of the ``kubernetes_manifest`` and ``kubectl_manifest`` resources, then of
    the Kubernetes YAML files of the repository that no such resource reads (those are judged
    where Terraform applies them), computed once."""
    return project.memo("kapsule.kubernetes-objects", lambda: list(_kubernetes_objects(project)))


def _kubernetes_objects(project: Project) -> Iterator[KubeObject]:
    read_by_terraform: set[str] = set()
    for instance in project.resources(KUBERNETES_MANIFEST):
        manifest = instance.arg("manifest")
        if manifest.loc is not None:
            read_by_terraform.add(manifest.loc.path)
        if manifest.known and manifest.is_object:
            yield KubeObject(manifest, instance, KUBERNETES_MANIFEST,
                             cluster_of_resource(project, instance, "kubernetes"), None)
    for instance in project.resources(KUBECTL_MANIFEST):
        body = instance.arg("yaml_body")
        if body.origin is not None:
            read_by_terraform.add(body.origin[0])
        if not body.known or not isinstance(body.raw, str):
            continue
        document = decode_located(body.raw, body.origin, body.loc or instance.block.loc, project)
        if document is not None and document.is_object:
            yield KubeObject(document, instance, KUBECTL_MANIFEST, cluster_of_resource(project, instance, "kubectl"),
                             instance.arg("override_namespace"))
    patches = kustomize_patches(project)
    renderings = kustomize.renderings(project)
    for documents in project.yaml_documents:
        if documents.path in read_by_terraform or os.path.normpath(documents.path) in patches:
            continue
        rendered = renderings.get(os.path.normpath(documents.path), [])
        for document in documents.documents():
            for item in documents_of(document):
                yield from _as_rendered(item, rendered)  # applied outside Terraform


def _as_rendered(item: Val, renderings: list[kustomize.Rendering]) -> Iterator[KubeObject]:
    """A Service of a file that Kustomize overlays patch: as each top kustomization renders it,
    strategic merge patches merged over it (a patch that writes ``spec.ports`` leaves them
    Unknown: Kustomize merges them by port); a rendering with a patch whose effect is not
    followed (JSON 6902 operations, a patch not read) is not judged. The Service as written is
    judged once when no patch may apply to it, or when some top kustomization patches it not."""
    if not is_service(item):
        yield KubeObject(item, None, "manifest", None, None)
        return
    name = _text(item.path("metadata", "name"))
    applying = [(rendering, kustomize.patched(rendering, SERVICE_KIND, name)) for rendering in renderings]
    if not any(found for _, found in applying) or any(not found for _, found in applying):
        yield KubeObject(item, None, "manifest", None, None)
    for rendering, found in applying:
        if not found or any(patch.partial is None for patch in found):
            continue
        merged = item
        for patch in found:
            assert patch.partial is not None  # every one checked above
            merged = merge(merged, patch.partial)
            spec = patch.partial.get("spec")
            if spec.is_object and spec.get("ports").raw is not None:
                merged_spec = merged.get("spec")
                merged = merged.replaced(raw={**merged.raw, "spec": merged_spec.replaced(
                    raw={**merged_spec.raw, "ports": Val(UNKNOWN, spec.get("ports").loc)})})
        yield KubeObject(merged.replaced(loc=item.loc), None, "manifest", None, None, rendering.kustomization)


def kustomize_patches(project: Project) -> set[str]:
    """The files a Kustomization names as patches (``patchesStrategicMerge``, ``patches[].path``):
    parts of an object another file holds, merged by Kustomize, so never judged as objects
    (https://kubectl.docs.kubernetes.io/references/kustomize/kustomization/patches/)."""
    found: set[str] = set()
    for documents in project.yaml_documents:
        directory = os.path.dirname(documents.path)
        for document in documents.documents():
            if _text(document.get("kind")) != KUSTOMIZATION:
                continue
            named = list(document.get("patchesStrategicMerge").elements())
            named += [item.get("path") for item in document.get("patches").elements() if item.is_object]
            for item in named:
                text = _text(item)
                if text:
                    found.add(os.path.normpath(os.path.join(directory, text)))
    return found


def objects_of_kind(project: Project, kind: str) -> Iterator[KubeObject]:
    for found in kubernetes_objects(project):
        if _text(found.value.get("kind")) == kind:
            yield found

def port_number(value: Val) -> int | None:
    if not value.known or isinstance(value.raw, bool):
        return None
    if isinstance(value.raw, int):
        return value.raw
    if isinstance(value.raw, float) and value.raw.is_integer():
        return int(value.raw)
    if isinstance(value.raw, str) and value.raw.strip().isdigit():
        return int(value.raw.strip())
    return None


# -- objects as the API server reads them ---------------------------------------------------------


def object_service(
    project: Project,
    document: Val,
    instance: ResourceInstance | None,
    source: str,
    cluster: Cluster | None,
    *,
    subject: str | None = None,
    namespace_override: Val | None = None,
) -> LbService:
    """A Service object (``apiVersion: v1``, ``kind: Service``) as a located value: a manifest
    resource's object, a decoded ``yaml_body``, or a document of a YAML file."""
    metadata = document.get("metadata")
    spec = document.get("spec")
    annotations = metadata.get("annotations")
    if annotations.raw is None:
        annotations_known = document.known and not document.open and metadata.known and not metadata.open
    else:
        annotations_known = annotations.known and not annotations.open
    spec_open = not spec.known or spec.open or not document.known or document.open
    written_type = spec.get("type") if spec.known else spec
    if written_type.raw is None and spec_open:
        written_type = Val(UNKNOWN, spec.loc)
    ports: tuple[int, ...] | None = None
    entries: tuple[ServicePort, ...] | None = None
    listed = spec.get("ports")
    if listed.known and listed.is_list and not spec_open:
        numbers = [port_number(item.get("port")) for item in listed.elements()]
        ports = None if None in numbers else tuple(n for n in numbers if n is not None)  # every one known here
        if all(item.known and item.is_object and not item.open for item in listed.elements()):
            entries = tuple(ServicePort(port_number(item.get("port")), item.get("targetPort"), item.loc)
                            for item in listed.elements())
    if instance is not None:
        who = subject or instance.resource.address
        address = instance.address
    else:
        who = subject or (project.relative(document.loc.path) if document.loc is not None else "?")
        address = None
    named = object_label(SERVICE_KIND, metadata, namespace_override)
    anchor = document.loc or (instance.block.loc if instance is not None else Loc("?", 1, 1, 1, 2))
    return LbService(
        source=source,
        kind=SERVICE_KIND,
        subject=who,
        instance=address,
        label=f"{who} ({named})",
        logical=who if instance is not None else f"{who}#{named}",
        annotations=annotations,
        annotations_known=annotations_known,
        written_type=written_type,
        type_default=DEFAULT_SERVICE_TYPE,
        external_traffic_policy=_field(spec, "externalTrafficPolicy", spec_open),
        load_balancer_ip=_field(spec, "loadBalancerIP", spec_open),
        source_ranges=_field(spec, "loadBalancerSourceRanges", spec_open),
        ports=ports,
        anchor=anchor,
        spec_anchor=document.key_loc("spec"),
        annotations_anchor=metadata.key_loc("annotations") if metadata.is_object else None,
        evidence=evidence(annotations, cluster),
        cluster=cluster,
        port_entries=entries,
        selector=_field(spec, "selector", spec_open),
    )


def _field(spec: Val, key: str, spec_open: bool) -> Val:
    """A ``spec`` field: Unknown when ``spec`` may hold it without saying so."""
    value = spec.get(key) if spec.known else spec
    if value.raw is None and spec_open:
        return Val(UNKNOWN, spec.loc)
    return value


def documents_of(value: Val) -> Iterator[Val]:
    """The objects of one YAML document: itself, or the ``items`` of a ``kind: List``."""
    if not value.known or not value.is_object:
        return
    if _text(value.get("kind")) == LIST_KIND and _text(value.get("apiVersion")) == "v1":
        for item in value.get("items").elements()[:_MAX_LIST_ITEMS]:
            if item.known and item.is_object:
                yield item
        return
    yield value


__all__ = [
    "DEFAULT_SERVICE_TYPE",
    "KUBECTL_MANIFEST",
    "KUBERNETES_MANIFEST",
    "KubeObject",
    "LbService",
    "SERVICE_KIND",
    "ServicePort",
    "cluster_of_resource",
    "documents_of",
    "evidence",
    "is_service",
    "kubernetes_objects",
    "object_label",
    "object_service",
    "objects_of_kind",
    "port_number",
]
