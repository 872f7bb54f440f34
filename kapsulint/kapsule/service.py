"""The controller's Service as its values describe it: type, annotations, traffic policy, IP.

Load balancer rules run only with Kapsule evidence: the release installs into a
``scaleway_k8s_cluster`` of the scan, or the values carry Scaleway load balancer annotations;
values meant for another cloud (AWS, OCI, Azure, Google annotations) stay silent.
"""

from __future__ import annotations

from collections.abc import Iterator

from kapsulint.api import UNKNOWN, Loc, Project, Val
from kapsulint.kapsule import charts, helm, lb_annotation_keys
from kapsulint.kapsule.charts import Chart


class ControllerService:
    subject: helm.ValuesSubject
    controller: Chart
    chart_version: charts.ChartPin

    def __init__(
        self,
        subject: helm.ValuesSubject,
        controller: Chart,
        chart_version: charts.ChartPin,
    ) -> None:
        self.subject = subject
        self.controller = controller
        self.chart_version = chart_version

    @property
    def values(self) -> Val:
        return self.subject.values

    @property
    def written_type(self) -> Val:
        return self.values.path(*self.controller.service_type_path)

    @property
    def service_type(self) -> str | None:
        """The Service type, the chart's default when unset; None when Unknown."""
        written = self.written_type
        if written.raw is None:
            if self._parent_open(self.controller.service_type_path):
                return None
            return self.controller.default(self.controller.default_service_type, self.chart_version)
        return written.text() if written.known else None

    @property
    def is_load_balancer(self) -> bool | None:
        kind = self.service_type
        return None if kind is None else kind == "LoadBalancer"

    @property
    def annotations(self) -> Val:
        return self.values.path(*self.controller.service_annotations_path)

    def annotation(self, name: str) -> Val:
        return self.annotations.get(name)

    def annotation_key_loc(self, name: str) -> Loc | None:
        return self.annotations.key_loc(name)

    @property
    def annotations_known(self) -> bool:
        """Every annotation key is known (none may come from an Unknown source)."""
        annotations = self.annotations
        if annotations.raw is None:
            return not self._parent_open(self.controller.service_annotations_path)
        return annotations.known and not annotations.open

    @property
    def external_traffic_policy(self) -> Val:
        return self.values.path(*self.controller.external_traffic_policy_path)

    @property
    def load_balancer_ip(self) -> Val:
        return self.values.path(*self.controller.load_balancer_ip_path)

    @property
    def anchor(self) -> Loc:
        return self.subject.anchor

    def type_anchor(self) -> Loc:
        """The Service ``type`` where written, else the release header or the file's first line."""
        written = self.written_type
        return written.loc if written.raw is not None and written.loc is not None else self.anchor

    def key_loc(self, path: tuple[str, ...]) -> Loc | None:
        parent = self.values.path(*path[:-1])
        return parent.key_loc(path[-1])

    def service_key_anchor(self) -> Loc:
        """The key holding the Service settings (the parent of the chart's Service ``type``), else
        the release header or the file's first line."""
        return self.key_loc(self.controller.service_type_path[:-1]) or self.anchor

    def _parent_open(self, path: tuple[str, ...]) -> bool:
        return charts.parent_open(self.values, path)

    @property
    def is_private(self) -> bool | None:
        """The ``scw-loadbalancer-private`` annotation: the LB gets no public IP ("public if unset
        or false", CCM docs/loadbalancer-annotations.md, https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md); None when Unknown."""
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
        """``loadBalancerSourceRanges`` lists sources and none is a /0: the CCM turns it into LB
        ACLs that deny everyone else (scaleway/acl.go, https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md). False when
        unset, empty or open to /0; None when Unknown."""
        path = self.controller.load_balancer_source_ranges_path
        ranges = self.values.path(*path)
        if ranges.raw is None:
            return None if self._parent_open(path) else False
        if not ranges.known or not ranges.is_list:
            return None
        texts = [item.text() if item.known else None for item in ranges.elements()]
        if any(t is not None and t.strip().endswith("/0") for t in texts):
            return False
        if any(t is None for t in texts):
            return None
        return bool(texts)

    def flag(self, path: tuple[str, ...], default: bool) -> bool | None:
        """A chart switch read the way a template ``if`` reads it, the chart's ``default`` when
        unset; None when Unknown (:func:`charts.flag`)."""
        return charts.flag(self.values, path, default)

    @property
    def enabled(self) -> bool | None:
        """Whether the chart renders the Service at all (every one of the chart's
        ``service_enabled_paths`` on); None when a switch is Unknown."""
        switches = [self.flag(path, True) for path in self.controller.service_enabled_paths]
        if False in switches:
            return False
        return None if None in switches else True

    @property
    def kapsule_evidence(self) -> bool:
        """Installed into a Kapsule cluster of the scan, or annotated for Scaleway load balancers."""
        keys = [k for k, _ in self.annotations.items()]
        if any(lb_annotation_keys.is_foreign_cloud_annotation(k) for k in keys):
            return False
        if any(lb_annotation_keys.is_scaleway_lb_annotation(k) for k in keys):
            return True
        return self.subject.cluster() is not None


def services(project: Project) -> Iterator[ControllerService]:
    """The Service of every ingress controller release or values file with Kapsule evidence,
    unless its values switch the Service off (or the switch is Unknown): no Service, no load
    balancer to judge."""
    for subject in helm.values_subjects(project):
        if subject.controller is None:
            continue
        service = ControllerService(subject, subject.controller, subject.chart_version)
        if service.enabled and service.kapsule_evidence:
            yield service


__all__ = ["UNKNOWN", "ControllerService", "services"]
