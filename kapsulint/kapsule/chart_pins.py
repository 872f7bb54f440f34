"""Which exact chart version a fix may pin, and whether a version range admits it.

The version pinned is the newest release of an ingress controller chart that kapsulint's chart
facts were checked against (its ``Chart.checked_version``, in its module of ``charts``), and only
for a release that installs that chart from its own repository (a mirror may hold other versions).

Ranges are read as Helm reads ``--version`` (:mod:`kapsulint.kapsule.chart_versions`: Masterminds
semver constraints, https://github.com/Masterminds/semver/blob/v3.3.0/README.md); a text Helm
refuses gives None: no version is pinned.
"""

from __future__ import annotations

from kapsulint.api import as_version
from kapsulint.kapsule import chart_versions
from kapsulint.kapsule.charts import Chart, Version


def pinned_version(controller: Chart | None, repository: str | None) -> Version | None:
    """The chart version a fix pins for ``controller`` installed from ``repository`` (a URL, or
    the ``oci://`` chart reference); None for another chart or repository."""
    if controller is None or repository is None or not controller.from_repository(repository):
        return None
    return controller.checked_version


def admits(text: str, version: Version) -> bool | None:
    """Whether the range ``text`` admits ``version``, as Helm reads it; None when Helm refuses it."""
    parsed = chart_versions.parse(text)
    return parsed.admits(as_version(version)) if parsed is not None else None
