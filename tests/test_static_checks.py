"""The static checks of the code: mypy (strict for the API, the domain and the rules) and Ruff's
linter, as pyproject.toml configures them, so the README's test command runs them.

A failure prints the checker's own report. To run them alone:

    .venv/bin/python -m mypy
    .venv/bin/python -m ruff check
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 600  # bounds a hang; mypy takes seconds with its cache, under a minute without
# A rule given a helper without annotations and a wrong argument type: strict mode refuses both.
BROKEN_RULE = '''

def _untyped(value):
    return value


def _wrong() -> int:
    return finding("not a location", "a message")
'''


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True,
                          timeout=TIMEOUT)


def _report(result: subprocess.CompletedProcess[str]) -> str:
    return f"exit {result.returncode}\n{result.stdout}{result.stderr}"


def test_mypy_finds_no_error():
    result = _run("mypy")
    assert result.returncode == 0, _report(result)


def test_ruff_finds_no_problem():
    result = _run("ruff", "check", "--no-cache")
    assert result.returncode == 0, _report(result)


@pytest.mark.parametrize("rule", ["kap101_delete_additional_resources.py"])
def test_mypy_refuses_a_type_error_in_a_rule(rule, tmp_path):
    """The configuration reaches rules/: an error written into a rule fails the check."""
    source = ROOT / "rules" / rule
    broken = tmp_path / rule
    broken.write_text(source.read_text(encoding="utf-8") + BROKEN_RULE, encoding="utf-8")
    result = _run("mypy", "--shadow-file", str(source), str(broken))
    assert result.returncode == 1, _report(result)
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert all(line.startswith(f"rules/{rule}:") for line in errors), _report(result)
    assert any(line.endswith("[no-untyped-def]") for line in errors), _report(result)
    assert any(line.endswith("[arg-type]") for line in errors), _report(result)
    assert any(line.endswith("[return-value]") for line in errors), _report(result)
