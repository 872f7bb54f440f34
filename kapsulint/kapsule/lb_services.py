"""Every Kubernetes Service that may get a Scaleway load balancer, whatever wrote it: one model the
load balancer and ingress rules ask.

Sources of a Service:

* an ingress controller chart's Service, from a ``helm_release``'s effective values, an Argo CD
  Application's, a Flux HelmRelease's or a helmfile release's values
  (:mod:`kapsulint.kapsule.gitops`), or a values file (:mod:`kapsulint.kapsule.service`);
* ``kubernetes_service`` and ``kubernetes_service_v1`` resources (``metadata.annotations``,
  ``spec.type``, ``spec.load_balancer_ip``, ``spec.external_traffic_policy``,
  ``spec.load_balancer_source_ranges``, ``spec.port``; the provider's ``type`` defaults to
  ``ClusterIP``,
  https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/service_v1);
* ``kubernetes_manifest`` resources whose ``manifest`` is a Service (an HCL object, or a document
  decoded with ``yamldecode(file(...))``),
  https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/manifest;
* ``kubectl_manifest`` resources (gavinbunney/kubectl, alekc/kubectl) whose ``yaml_body`` is a
  Service, written inline or read with ``file()``/``templatefile()``,
  https://registry.terraform.io/providers/alekc/kubectl/latest/docs/resources/kubectl_manifest;
* Kubernetes YAML files of the repository (``kind: Service``, in multi-document files and in
  ``kind: List`` items), which the scan reads by content (:mod:`kapsulint.kapsule.yaml_kinds`);
* Gateway API data planes whose Service settings are written in the repository
  (:mod:`kapsulint.kapsule.envoy_gateway`), and the Service an identified implementation creates
  for a Gateway, carrying its ``spec.infrastructure.annotations``
  (:mod:`kapsulint.kapsule.gateway_infrastructure`).

Each object's fields are read the way the API server reads them: ``spec.type`` absent is
``ClusterIP`` (https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types),
``externalTrafficPolicy`` absent is ``Cluster``. Load balancer rules judge a Service only with
Kapsule evidence: Scaleway load balancer annotations, or a ``scaleway_k8s_cluster`` the Service's
root module installs into (its Kubernetes provider's connection, else the only cluster of that
root module tree); a Kubernetes YAML file, applied outside Terraform, counts its annotations
alone. Annotations of another cloud's load balancer silence it. Anything Unknown is None, so no
rule fires on it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from kapsulint.api import Project, ResourceInstance, Val
from kapsulint.kapsule import envoy_gateway, gateway_infrastructure
from kapsulint.kapsule.charts import Chart
from kapsulint.kapsule.charts.registry import charts
from kapsulint.kapsule.kube_objects import (
    DEFAULT_SERVICE_TYPE,
    SERVICE_KIND,
    LbService,
    ServicePort,
    cluster_of_resource,
    evidence,
    is_service,
    object_label,
    object_service,
    objects_of_kind,
    port_number,
)
from kapsulint.kapsule.service import ControllerService
from kapsulint.kapsule.service import services as chart_services

KUBERNETES_SERVICES = ("kubernetes_service", "kubernetes_service_v1")


def services(project: Project) -> list[LbService]:
    """Every Service with Kapsule evidence, from every source, computed once: a chart's Service
    the values switch off is not one (no load balancer to judge)."""
    return project.memo("kapsule.lb-services", lambda: list(_services(project)))


def _services(project: Project) -> Iterator[LbService]:
    for chart_service in chart_services(project):
        yield _from_chart(chart_service)
    for candidate in _terraform_services(project):
        if candidate.kapsule_evidence:
            yield candidate
    for candidate in envoy_gateway.services(project):
        if candidate.kapsule_evidence:
            yield candidate
    for candidate in gateway_infrastructure.services(project):
        if candidate.kapsule_evidence:
            yield candidate


def _from_chart(chart: ControllerService) -> LbService:
    subject = chart.subject
    return LbService(
        source=subject.source,
        kind=SERVICE_KIND,
        subject=subject.name,
        instance=subject.instance_address,
        label=f"{subject.name} ({chart.controller.key})",
        logical=subject.name,
        annotations=chart.annotations,
        annotations_known=chart.annotations_known,
        written_type=chart.written_type,
        type_default=None,
        external_traffic_policy=chart.external_traffic_policy,
        load_balancer_ip=chart.load_balancer_ip,
        source_ranges=chart.values.path(*chart.controller.load_balancer_source_ranges_path),
        ports=None,
        anchor=chart.anchor,
        spec_anchor=None,
        annotations_anchor=None,
        evidence=chart.kapsule_evidence,
        cluster=subject.cluster(),
        chart=chart,
    )


def _terraform_services(project: Project) -> Iterator[LbService]:
    for resource_type in KUBERNETES_SERVICES:
        for instance in project.resources(resource_type):
            found = _hcl_service(project, instance)
            if found is not None:
                yield found
    for kube_object in objects_of_kind(project, SERVICE_KIND):
        if is_service(kube_object.value):
            subject = None
            if kube_object.rendered_by is not None and kube_object.value.loc is not None:
                subject = (f"{project.relative(kube_object.value.loc.path)} as "
                           f"{project.relative(kube_object.rendered_by)} renders it")
            yield object_service(project, kube_object.value, kube_object.instance, kube_object.source,
                                 kube_object.cluster, subject=subject,
                                 namespace_override=kube_object.namespace_override)


def _hcl_service(project: Project, instance: ResourceInstance) -> LbService | None:
    """A ``kubernetes_service(_v1)``: its one ``metadata`` and one ``spec`` block (a ``dynamic``
    block that may give several or none is not judged)."""
    metadata_blocks, spec_blocks = instance.nested("metadata"), instance.nested("spec")
    if len(metadata_blocks) != 1 or len(spec_blocks) > 1:
        return None
    metadata = metadata_blocks[0]
    spec = spec_blocks[0] if spec_blocks else None
    annotations = metadata.arg("annotations")
    absent = Val(None)
    written_type = spec.arg("type") if spec is not None else absent
    ports: tuple[int, ...] | None = ()
    entries: tuple[ServicePort, ...] | None = ()
    if spec is not None:
        numbers = [port_number(block.arg("port")) for block in spec.nested("port")]
        ports = None if None in numbers or any(b.dynamic for b in spec.nested("port")) else tuple(
            n for n in numbers if n is not None)  # every one known here
        entries = None if any(b.dynamic for b in spec.nested("port")) else tuple(
            ServicePort(port_number(block.arg("port")), block.arg("target_port"), block.loc)
            for block in spec.nested("port"))
    named = Val({"name": metadata.arg("name"), "namespace": metadata.arg("namespace")})
    label = f"{instance.resource.address} ({object_label(SERVICE_KIND, named)})"
    cluster = cluster_of_resource(project, instance, "kubernetes")
    annotations_attr = metadata.attr("annotations")
    return LbService(
        source=instance.resource.type,
        kind=SERVICE_KIND,
        subject=instance.resource.address,
        instance=instance.address,
        label=label,
        logical=instance.resource.address,
        annotations=annotations,
        annotations_known=annotations.known and not annotations.open,
        written_type=written_type,
        type_default=DEFAULT_SERVICE_TYPE,
        external_traffic_policy=spec.arg("external_traffic_policy") if spec is not None else absent,
        load_balancer_ip=spec.arg("load_balancer_ip") if spec is not None else absent,
        source_ranges=spec.arg("load_balancer_source_ranges") if spec is not None else absent,
        ports=ports,
        anchor=instance.block.loc,
        spec_anchor=spec.loc if spec is not None else None,
        annotations_anchor=annotations_attr.loc if annotations_attr is not None else metadata.loc,
        evidence=evidence(annotations, cluster),
        cluster=cluster,
        port_entries=entries,
        selector=spec.arg("selector") if spec is not None else absent,
    )


class AdminExposure(NamedTuple):
    """A port of a Service written outside a chart that reaches a controller's admin port."""

    entry: ServicePort
    chart: Chart
    container_port: str  # the chart's name for the pods' port
    number: int
    what: str  # "the stats page", "pprof"


def _text(value: Val) -> str | None:
    return value.text() if value.known and isinstance(value.raw, str) else None


def selected_chart(svc: LbService) -> Chart | None:
    """The chart whose controller pods a Service written outside the chart selects: every label
    of the chart's pods (with the chart's default name) in the Service's selector; None when
    the selector is Unknown or selects none."""
    selector = svc.selector
    if svc.chart is not None or not selector.known or not selector.is_object or selector.open:
        return None
    for chart in charts():
        if chart.pod_labels and all(_text(selector.get(key)) == value for key, value in chart.pod_labels.items()):
            return chart
    return None


def admin_exposures(svc: LbService) -> list[AdminExposure] | None:
    """The ports of a Service written outside a chart that send traffic to the admin container
    ports of the controller pods it selects (a ``targetPort`` naming the port, or its number,
    the ``port`` itself when no ``targetPort`` is written); None when a port is Unknown or the
    Service selects no chart's controller."""
    chart = selected_chart(svc)
    if chart is None or not chart.admin_container_ports or svc.port_entries is None:
        return None
    out = []
    for entry in svc.port_entries:
        target = entry.target
        if target.raw is None:
            if entry.port is None:
                return None
            number: int | None = entry.port
            name = None
        elif not target.known:
            return None
        else:
            name = _text(target)
            number = port_number(target) if name is None or name.strip().isdigit() else None
            if number is not None:
                name = None
        for container, (container_number, what) in chart.admin_container_ports.items():
            if name == container or (name is None and number == container_number):
                out.append(AdminExposure(entry, chart, container, container_number, what))
    return out


__all__ = ["KUBERNETES_SERVICES", "AdminExposure", "LbService", "admin_exposures", "selected_chart", "services"]
