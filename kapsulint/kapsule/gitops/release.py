"""One chart release written for a tool outside Terraform, and what reading its values met."""

from __future__ import annotations

from typing import NamedTuple

from kapsulint.api import Loc, Val
from kapsulint.kapsule import chart_versions
from kapsulint.kapsule.charts import Chart, registry

ARGOCD = "Argo CD Application"
FLUX = "Flux HelmRelease"
HELMFILE = "helmfile release"


class Unread(NamedTuple):
    """A values source a release names that was not read (KAP019), at the reference."""

    loc: Loc
    message: str
    subject: str  # the release naming it


class Version(NamedTuple):
    """How a release's chart version is written: ``written`` (null when absent) and what the tool
    installs without one (``newest``: the newest chart of the repository; else it refuses)."""

    written: Val
    newest_when_absent: bool


class GitopsRelease:
    """A chart a tool installs: the chart's name and repository as written, its version, whether
    the chart comes from a chart repository (a Helm repository or an OCI registry, not a path in
    Git), its merged values (an open object where a source is Unknown or not read), and the files
    its values are read from (judged as part of it, not on their own)."""

    tool: str
    name: str  # how findings name it: "Application argocd/ingress", "helmfile.yaml release ingress"
    chart: str | None
    repository: str | None
    version: Version
    from_repository: bool
    values: Val
    anchor: Loc  # the object's first line, or the release entry
    files: frozenset[str]

    def __init__(self, tool: str, name: str, chart: str | None, repository: str | None, version: Version,
                 from_repository: bool, values: Val, anchor: Loc, files: frozenset[str]) -> None:
        self.tool = tool
        self.name = name
        self.chart = chart
        self.repository = repository
        self.version = version
        self.from_repository = from_repository
        self.values = values
        self.anchor = anchor
        self.files = files

    @property
    def version_text(self) -> str | None:
        """The version as written (a known scalar's text); None when absent or not known."""
        written = self.version.written
        if not written.known or written.raw is None or written.is_object or written.is_list:
            return None
        return written.text()

    @property
    def controller(self) -> Chart | None:
        """The ingress controller chart it installs, from the chart name and repository, as for a
        ``helm_release``."""
        return registry.controller_for_chart(self.chart, self.repository) if self.chart else None

    @property
    def chart_version(self) -> chart_versions.ChartVersion | None:
        """The chart version as Helm reads it (one version, or a range); None when absent, Unknown
        or refused."""
        return chart_versions.parse(self.version_text) if self.version_text else None
