"""The chart version KAP308's fix pins, and how a Helm version range is read to decide it."""

from __future__ import annotations

import pytest

from kapsulint.kapsule import chart_pins, charts

CHECKED = (1, 52, 1)


@pytest.mark.parametrize("text", ["~1.52.0", "~> 1.52", "^1.0", ">= 1.40", "1.52.x", "1.x", "*", ">=1, <2",
                                  "1.40 - 1.60", "1.52.0 || 1.52.1", "~1", ">= 1.40, < 2.0"])
def test_ranges_that_admit_the_checked_version(text):
    assert chart_pins.admits(text, CHECKED) is True


@pytest.mark.parametrize("text", ["<1.50", "~1.51", "^2.0", ">=1.40.0 <1.50.0", "!=1.52.1", "1.44.x"])
def test_ranges_that_exclude_it(text):
    assert chart_pins.admits(text, CHECKED) is False


@pytest.mark.parametrize("text", [">1.52", "^0.1", ">=1.52.0-rc1", "latest", "1.2 1.3", "<=1.52"])
def test_ranges_read_two_ways_are_unknown(text):
    """Partial versions on a boundary, carets on 0.x and pre-releases: Masterminds' reading is not
    reproduced, so no version is pinned."""
    assert chart_pins.admits(text, CHECKED) is None


def test_pinned_only_from_the_charts_own_repository():
    assert chart_pins.pinned_version(charts.HAPROXYTECH, "https://haproxytech.github.io/helm-charts") == CHECKED
    assert chart_pins.pinned_version(charts.HAPROXYTECH, "https://charts.example.com/mirror") is None
    assert chart_pins.pinned_version(None, "https://charts.jetstack.io") is None
