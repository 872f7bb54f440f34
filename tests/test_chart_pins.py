"""The chart version KAP308's fix pins, and how a Helm version range is read to decide it."""

from __future__ import annotations

import pytest

from kapsulint.kapsule import chart_pins
from kapsulint.kapsule.charts import haproxytech

CHECKED = (1, 52, 1)


@pytest.mark.parametrize("text", ["~1.52.0", "~> 1.52", "^1.0", ">= 1.40", "1.52.x", "1.x", "*", ">=1, <2",
                                  "1.40 - 1.60", "1.52.0 || 1.52.1", "~1", ">= 1.40, < 2.0"])
def test_ranges_that_admit_the_checked_version(text):
    assert chart_pins.admits(text, CHECKED) is True


@pytest.mark.parametrize("text", ["<1.50", "~1.51", "^2.0", ">=1.40.0 <1.50.0", "!=1.52.1", "1.44.x"])
def test_ranges_that_exclude_it(text):
    assert chart_pins.admits(text, CHECKED) is False


@pytest.mark.parametrize(
    ("text", "admitted"),
    [(">1.52", False), ("^0.1", False), (">=1.52.0-rc1", True), ("1.2 1.3", False), ("<=1.52", True)],
)
def test_ranges_read_as_masterminds_reads_them(text, admitted):
    """Partial versions on a boundary (``>1.52`` needs 1.53, ``<=1.52`` holds every 1.52.z), a
    caret on 0.x (``^0.1`` is below 0.2.0) and a pre-release bound admitting a release."""
    assert chart_pins.admits(text, CHECKED) is admitted


@pytest.mark.parametrize("text", ["latest", "1x", ">>1.52"])
def test_texts_helm_refuses_admit_nothing_known(text):
    assert chart_pins.admits(text, CHECKED) is None


def test_pinned_only_from_the_charts_own_repository():
    assert chart_pins.pinned_version(haproxytech.CHART, "https://haproxytech.github.io/helm-charts") == CHECKED
    assert chart_pins.pinned_version(haproxytech.CHART, "https://charts.example.com/mirror") is None
    assert chart_pins.pinned_version(None, "https://charts.jetstack.io") is None
