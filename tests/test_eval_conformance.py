"""kapsulint evaluates as Terraform 1.11.4 does, on the expressions recorded in tests/oracle/eval.

Each case runs ``kapsulint --eval`` once over all of its expressions and compares every answer
with the one ``terraform console`` gave (tests/oracle/README.md). A wrong known value or a crash
fails; Unknown where Terraform knows the value is allowed, on fewer than 2 % of those values.
"""

from __future__ import annotations

import pytest
from oracle.compare import load_cases, run_case

CASES = load_cases()
UNKNOWN_BUDGET = 0.02


@pytest.fixture(scope="module")
def results() -> dict[str, dict]:
    return {case.name: run_case(case) for case in CASES}


@pytest.mark.parametrize("name", [case.name for case in CASES])
def test_case_matches_terraform(results, name):
    result = results[name]
    assert not result["wrong"] and not result["crash"], [
        (outcome.expression, outcome.golden, outcome.answer) for outcome in result["wrong"] + result["crash"]
    ]


def test_unknown_on_fewer_than_two_percent_of_known_values(results):
    known = sum(len(r["same"]) + len(r["unknown"]) + len(r["wrong"]) for r in results.values())
    unknown = [o.expression for r in results.values() for o in r["unknown"]]
    assert known > 1000
    assert len(unknown) / known < UNKNOWN_BUDGET, unknown
