"""A helm_release's chart ``version``: one exact version or a range, decided by one function
(kapsule.helm_provider.is_version_range) that KAP308 and every chart-version lookup share."""

from __future__ import annotations

import pytest

from kapsulint.kapsule import helm_provider

# Masterminds semver constraint syntax, as Helm reads --version
# (https://github.com/Masterminds/semver/blob/v3.3.0/README.md, "Checking Version Constraints").
RANGES = ["^1.2.0", "~1.2", ">=1.0.0", "<2", "!=1.2.3", "1.2.x", "1.2.X", "1.*", "*", "x", "1.2 - 1.4",
          ">=1, <2", "1.2.3 || 1.2.4", "1.2 1.3"]
EXACT = [("1.52.1", (1, 52, 1)), ("=1.52.1", (1, 52, 1)), ("v41.3.0", (41, 3, 0)), (" 4.15.1 ", (4, 15, 1)),
         ("1.0.0-fix", (1, 0, 0)), ("1.0.0+build.x", (1, 0, 0)), ("1.2", (1, 2, 0))]


@pytest.mark.parametrize("text", RANGES)
def test_ranges(text):
    assert helm_provider.is_version_range(text)
    assert helm_provider.exact_chart_version(text) is None


@pytest.mark.parametrize(("text", "version"), EXACT)
def test_exact_versions(text, version):
    """A pre-release or build suffix holding an x is still one version (it was a range to the
    chart-default lookups and exact to KAP308 before the two shared this test)."""
    assert not helm_provider.is_version_range(text)
    assert helm_provider.exact_chart_version(text) == version


@pytest.mark.parametrize("text", ["", "   ", "latest"])
def test_no_version(text):
    assert helm_provider.exact_chart_version(text) is None
