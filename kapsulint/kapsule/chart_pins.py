"""Which exact chart version a fix may pin, and whether a version range admits it.

The version pinned is the newest release of an ingress controller chart that kapsulint's chart
facts (``charts``) were checked against, and only for a release that installs that chart from
its own repository (a mirror may hold other versions):

* haproxytech ``kubernetes-ingress`` 1.52.1
  (https://github.com/haproxytech/helm-charts/tree/kubernetes-ingress-1.52.1/kubernetes-ingress);
* ``ingress-nginx`` 4.15.1
  (https://github.com/kubernetes/ingress-nginx/blob/helm-chart-4.15.1/charts/ingress-nginx/values.yaml);
* ``traefik`` 41.3.0 (https://github.com/traefik/traefik-helm-chart/blob/v41.3.0/traefik/values.yaml).

Ranges are read as Helm reads ``--version`` (:mod:`kapsulint.kapsule.chart_versions`: Masterminds
semver constraints, https://github.com/Masterminds/semver/blob/v3.3.0/README.md); a text Helm
refuses gives None: no version is pinned.
"""

from __future__ import annotations

from kapsulint.api import as_version
from kapsulint.kapsule import chart_versions, charts

Version = tuple[int, int, int]

CHECKED: dict[str, Version] = {
    charts.HAPROXYTECH.key: (1, 52, 1),
    charts.INGRESS_NGINX.key: (4, 15, 1),
    charts.TRAEFIK.key: (41, 3, 0),
}


def pinned_version(controller: charts.Controller | None, repository: str | None) -> Version | None:
    """The chart version a fix pins for ``controller`` installed from ``repository`` (a URL, or
    the ``oci://`` chart reference); None for another chart or repository."""
    if controller is None or repository is None:
        return None
    if not any(hint in repository.strip().lower() for hint in controller.repository_hints):
        return None
    return CHECKED.get(controller.key)


def admits(text: str, version: Version) -> bool | None:
    """Whether the range ``text`` admits ``version``, as Helm reads it; None when Helm refuses it."""
    parsed = chart_versions.parse(text)
    return parsed.admits(as_version(version)) if parsed is not None else None
