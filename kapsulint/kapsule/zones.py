"""Zones and regions: a zone is ``<region>-<n>`` (``fr-par-1``), a region ``<country>-<city>``.

Source: the Instances API reference, section "Availability Zones"
(https://www.scaleway.com/en/developers/api/instance/), whose zones are ``fr-par-1`` to ``-3``,
``nl-ams-1`` to ``-3`` and ``pl-waw-1`` to ``-3``.
"""

from __future__ import annotations

import re

_ZONE = re.compile(r"([a-z]{2}-[a-z]{3})-[0-9]+")


def is_zone(text: str) -> bool:
    """True for a zone name as written, lower case (``fr-par-1``)."""
    return _ZONE.fullmatch(text) is not None


def region_of_zone(zone: str) -> str | None:
    """``fr-par-1`` -> ``fr-par``; None when the text is not zone-shaped."""
    match = _ZONE.fullmatch(zone.strip().lower())
    return match.group(1) if match else None


def first_zone_of_region(region: str) -> str:
    """The first zone of a region (``fr-par`` -> ``fr-par-1``).

    The CCM creates a Service's load balancer there unless the ``scw-loadbalancer-zone``
    annotation says otherwise ("the first zone of the cluster's region",
    https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md).
    """
    return f"{region.strip().lower()}-1"
