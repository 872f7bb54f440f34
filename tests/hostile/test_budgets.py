"""Evaluation is bounded: hostile expressions end in a located KAP015 note, within 300 MB.

Each case of ``budget_cases.CASES`` (regular expressions in loops, nested ``join``s, YAML alias
bombs in ``yamldecode``, and the other builders) is linted by the command line in a child
process, with a generous timeout that only bounds a hang (speed is measured by
``benchmarks/hostile.py``). The run exits 0 (a note does not fail it), KAP015 points where the
case says, and the child's peak memory stays under 300 MB.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hostile.budget_cases import CASES, run_case

from kapsulint.model.options import ScanOptions
from kapsulint.model.project import Project
from kapsulint.parsing.hcl import parse_expression
from kapsulint.terraform.budget import Limits

PEAK_BYTES = 300 * 1024 * 1024


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_hostile_evaluation_ends_with_a_located_note_in_bounded_memory(case) -> None:
    outcome = run_case(case, timeout=60)
    assert outcome.returncode == 0, outcome
    assert outcome.notes == list(case.notes)
    assert outcome.peak_bytes < PEAK_BYTES, outcome.peak_bytes
    for (expression, answer), line in zip(case.evaluations, outcome.evaluations):
        assert answer in line, (expression, line)


# -- the budget's semantics, in process --------------------------------------------------------


KIND = "evaluation-budget-exceeded"


def project(tmp_path: Path, text: str, limits: Limits | None = None) -> Project:
    (tmp_path / "main.tf").write_text(text, encoding="utf-8")
    return Project(ScanOptions(root=tmp_path, cache=False, limits=limits)).load()


def evaluate(loaded: Project, expression: str):
    instance = loaded.root_instance(str(loaded.root))
    return instance.evaluator.eval_strict(parse_expression(expression), str(loaded.root / "<eval>"))


LOOPS = ('locals {\n  numbers = range(300)\n'
         '  pairs   = [for i in local.numbers : [for j in local.numbers : j if i == j]]\n'
         '  count   = length(local.pairs)\n}\n')


def test_what_an_expression_reads_is_charged_to_the_expression_that_builds_it(tmp_path) -> None:
    # whichever is evaluated first, the note is on the loops and local.count is Unknown because of it
    for first in ("local.count", "local.pairs"):
        loaded = project(tmp_path, LOOPS)
        evaluate(loaded, first)
        assert not evaluate(loaded, "local.count").known
        assert [(loc.line, loc.column) for loc, _ in loaded.blind_spots(KIND)] == [(3, 13)]


def test_the_evaluate_everything_pass_is_bounded_by_the_run_budget(tmp_path) -> None:
    text = 'locals {\n  a = [for i in range(1000) : i]\n  b = [for i in range(100) : i]\n}\n'
    loaded = project(tmp_path, text, Limits(run_steps=1050))  # a takes 1,005 steps, b 105
    (loc, message), = loaded.blind_spots(KIND)  # evaluates a, then b, in the order written
    assert (loc.line, loc.column) == (3, 7) and "`max-run-steps`" in message and "1,050" in message
    assert 1050 < loaded.budget.steps < 1100  # b stopped where the run's steps ran out


def test_try_and_can_do_not_swallow_a_budget(tmp_path) -> None:
    text = 'locals {\n  big = can(join(join(join(",", range(1024)), range(1024)), range(1024)))\n}\n'
    loaded = project(tmp_path, text)
    assert not evaluate(loaded, "local.big").known  # Terraform would say true: kapsulint does not know
    (loc, message), = loaded.blind_spots(KIND)
    assert (loc.line, loc.column) == (2, 13) and "`join()`" in message and "`max-expression-bytes`" in message


def test_the_limits_are_the_configuration_s(tmp_path) -> None:
    loaded = project(tmp_path, LOOPS, Limits(expression_steps=1_000_000))
    assert evaluate(loaded, "local.count").raw == 300
    assert loaded.blind_spots(KIND) == []


def test_configuration_cannot_lift_a_budget_beyond_ten_times_its_default(tmp_path: Path) -> None:
    """A pull request edits `.kapsulint.toml` as easily as the code: it may raise a budget, within a ceiling."""
    (tmp_path / "main.tf").write_text('locals {\n  a = 1\n}\n')
    (tmp_path / ".kapsulint.toml").write_text("max-run-steps = 40000001\n")
    refused = subprocess.run([sys.executable, "-m", "kapsulint", str(tmp_path)], capture_output=True, text=True,
                             timeout=120)
    assert refused.returncode == 2
    assert "`max-run-steps` may be at most 40,000,000" in refused.stderr
    (tmp_path / ".kapsulint.toml").write_text("max-run-steps = 40000000\n")
    accepted = subprocess.run([sys.executable, "-m", "kapsulint", str(tmp_path)], capture_output=True, text=True,
                              timeout=120)
    assert accepted.returncode == 0, accepted.stderr
