"""Versions ordered and constraints read as Terraform 1.11.4 reads them, held to what
``terraform init`` itself did (tests/oracle/versions/verdicts.json, recorded by
tests/oracle/record_versions.py against a local mirror of placeholder provider packages)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from kapsulint.model.versions import (
    Version,
    admits,
    core_constraint_problem,
    newest_admitted,
    parse_constraint,
    parse_version,
)

VERDICTS = json.loads((Path(__file__).parent / "oracle" / "versions" / "verdicts.json").read_text(encoding="utf-8"))
MIRROR = tuple(parse_version(text) for text in VERDICTS["mirror"])


def test_recorded_by_terraform_1_11():
    assert VERDICTS["terraform"].startswith("1.11.")
    assert len(VERDICTS["providers"]) >= 70 and len(VERDICTS["required_version"]) >= 20


@pytest.mark.parametrize("constraint", sorted(VERDICTS["providers"]))
def test_provider_selection_is_terraforms(constraint):
    """The version ``terraform init`` selected among the mirror's is the newest one kapsulint's
    reading admits; a constraint Terraform called invalid is refused; one that matched none of
    the mirror admits none."""
    verdict = VERDICTS["providers"][constraint]
    clauses = parse_constraint(constraint)
    if verdict.get("error") == "Invalid version constraint":
        assert clauses is None
        return
    assert clauses is not None
    selected = newest_admitted(clauses, MIRROR)
    if "selected" in verdict:
        assert selected is not None and selected.text == verdict["selected"]
    else:
        assert verdict["error"] == "Failed to query available provider packages"
        assert selected is None


@pytest.mark.parametrize("constraint", sorted(VERDICTS["required_version"]))
def test_required_version_refusals_are_terraforms(constraint):
    verdict = VERDICTS["required_version"][constraint]
    expected = None
    if verdict.get("error") == "Invalid version constraint":
        expected = "Invalid version constraint"
    elif verdict.get("error") == "Invalid required_version constraint":
        expected = "Prerelease version constraints are not supported"
    assert core_constraint_problem(constraint) == expected


def test_pre_releases_order_below_their_release():
    """Semantic Versioning 2.0.0, item 11 (https://semver.org/#spec-item-11)."""
    ordered = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11",
               "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0-0", "1.1.0", "2.0.0-rc1", "2.0.0"]
    versions = [parse_version(text) for text in ordered]
    assert sorted(reversed(versions)) == versions  # noqa: C414 (sorting starts from the reverse order)
    assert all(a < b for a, b in itertools.pairwise(versions))


def test_versions_compare_with_release_tuples():
    assert parse_version("2.54.0-rc1") < (2, 54, 0)
    assert parse_version("2.54.0-rc1") < (2, 54, 0)
    assert parse_version("2.54.0") == (2, 54, 0) and hash(parse_version("2.54.0")) == hash((2, 54, 0))
    assert parse_version("2.54.0+build") == (2, 54) and parse_version("v2.54") == Version(2, 54, 0)
    assert parse_version("2.54.0-rc1")[:2] == (2, 54) and parse_version("2.54.0-rc1").release == (2, 54, 0)


@pytest.mark.parametrize("text", ["", "2.x", "1.2.3.4", "latest", "2.0.0-", "v", "2.0.0_rc1"])
def test_not_a_version(text):
    assert parse_version(text) is None


def test_go_versions_orders_two_pre_releases_by_their_parts():
    """Terraform's provider library ranks the pre-release with fewer dot-separated parts lower as
    soon as the other has more (``2.0.0-beta`` below ``2.0.0-alpha.1``): an exact pin of one
    pre-release beside a bound written with another follows that order (recorded above), not
    Semantic Versioning's."""
    alpha = parse_version("2.0.0-alpha.1")
    assert alpha < parse_version("2.0.0-beta")  # SemVer
    assert not admits(parse_constraint("2.0.0-alpha.1, < 2.0.0-beta"), alpha)
    assert admits(parse_constraint("2.0.0-alpha.1, > 2.0.0-beta"), alpha)
