"""A helm_release's chart ``version``: one exact version or a range, read as Helm reads
``--version`` (Masterminds semver v3.3.0 constraints, kapsule.chart_versions), by one function
that KAP308 and every chart-version lookup share."""

from __future__ import annotations

import pytest

from kapsulint.api import parse_version
from kapsulint.kapsule import chart_versions, charts, helm_provider
from kapsulint.kapsule.charts import ingress_nginx

# https://github.com/Masterminds/semver/blob/v3.3.0/README.md, "Checking Version Constraints":
# "1.2" is "1.2.x", and so a range Helm resolves against the repository.
RANGES = ["^1.2.0", "~1.2", ">=1.0.0", "<2", "!=1.2.3", "1.2.x", "1.2.X", "1.*", "*", "x", "1.2 - 1.4",
          ">=1, <2", "1.2.3 || 1.2.4", "1.2 1.3", "1.2", "=1.2", "2"]
EXACT = [("1.52.1", "1.52.1"), ("=1.52.1", "1.52.1"), ("v41.3.0", "41.3.0"), (" 4.15.1 ", "4.15.1"),
         ("1.0.0-fix", "1.0.0-fix"), ("1.0.0+build.x", "1.0.0+build.x"), ("v1.2.1", "1.2.1"),
         ("4.0.0-beta.1", "4.0.0-beta.1")]


@pytest.mark.parametrize("text", RANGES)
def test_ranges(text):
    assert helm_provider.is_version_range(text)
    assert helm_provider.exact_chart_version(text) is None


@pytest.mark.parametrize(("text", "version"), EXACT)
def test_exact_versions(text, version):
    """A pre-release or build suffix is still one version, and a leading ``v`` the same version."""
    assert not helm_provider.is_version_range(text)
    assert helm_provider.exact_chart_version(text).text == version


@pytest.mark.parametrize("text", ["", "   ", "latest", "1x", "1.2.3.4", ">>1.0", "v"])
def test_no_version(text):
    """Texts Helm refuses ("improper constraint"): neither a version nor a range."""
    assert chart_versions.parse(text) is None
    assert helm_provider.exact_chart_version(text) is None
    assert not helm_provider.is_version_range(text)


@pytest.mark.parametrize(
    ("text", "version", "admitted"),
    [
        # a range without a pre-release part leaves pre-releases out
        (">=1.0.0", "1.5.0-rc.1", False), ("~1.5", "1.5.1-beta", False), ("*", "2.0.0-alpha", False),
        ("1.x", "1.9.0-rc1", False), ("^1.0", "1.5.0-0", False),
        # a constraint naming a pre-release admits them, where every constraint of its group does
        (">=1.0.0-0", "1.5.0-rc.1", True), (">=1.5.0-rc.1", "1.5.0-rc.2", True), (">=1.5.0-rc.2", "1.5.0-rc.1", False),
        (">=1.0.0-0, <2.0.0", "1.5.0-rc.1", False), (">=1.0.0-0 <2.0.0-0", "1.5.0-rc.1", True),
        # a pre-release sorts below its release, identifiers dot by dot, numbers below words
        ("<1.5.0", "1.5.0-rc.1", False), ("<1.5.0-0", "1.4.9", True), (">=1.5.0-rc.1", "1.5.0", True),
        (">1.5.0-rc.9", "1.5.0-rc.10", True), (">1.5.0-rc.1", "1.5.0-rc.a", True), (">1.5.0-rc", "1.5.0-rc.1", True),
        # exact versions, build metadata ignored, a leading v
        ("1.52.1", "1.52.1+meta", True), ("v1.52.1", "1.52.1", True), ("1.0.0-rc.1", "1.0.0-rc.1", True),
        ("1.0.0-rc.1", "1.0.0", False),
        # open parts
        (">1.52", "1.52.9", False), (">1.52", "1.53.0", True), (">1", "1.99.0", False), ("<=1.52", "1.52.9", True),
        ("<=1", "1.99.0", True), ("<=1", "2.0.0", False), ("!=1.52.x", "1.52.3", False), ("!=1.52.x", "1.53.0", True),
        ("^0.2.3", "0.2.9", True), ("^0.2.3", "0.3.0", False), ("^0.0.3", "0.0.4", False), ("~0", "0.9.0", True),
        ("1.40 - 1.60", "1.60.5", True), ("1.40 - 1.60", "1.61.0", False), ("~1.51 || ~1.52", "1.52.1", True),
    ],
)
def test_masterminds_admits(text, version, admitted):
    assert chart_versions.parse(text).admits(parse_version(version)) is admitted


@pytest.mark.parametrize(
    ("text", "older"),
    [("v1.2.1", True), ("4.0.0-beta.1", True), ("3.99.0", True), ("4.0.0", False), ("4.0.15", False),
     ("~3.1", True), ("^3.0", True), ("<4.0.0", True), ("<=3.x", True), ("3.x || 2.x", True), ("3.x || 4.x", False),
     (">=3.0", False), ("*", False), ("!=3.0.0", False), ("<4.0.1", False), ("1.0 - 3.9", True), ("~4.0", False)],
)
def test_older_than_the_chart_facts(text, older):
    """Every version a text admits is older than the oldest version the ingress-nginx facts hold
    (4.0.0): a pin, or a range whose every alternative ends at or below it."""
    parsed = chart_versions.parse(text)
    assert parsed.older_than(ingress_nginx.CHART.known_since) is older
    assert charts.covers(parsed, ingress_nginx.CHART.known_since) is (False if older else
                                                                       (True if parsed.exact else None))
