"""Shared helpers for fixture-driven tests (fixture projects with `# expect:` markers or a case.toml)."""

from __future__ import annotations

import json
import re
import shutil
import tomllib
from collections import Counter
from pathlib import Path

from click.testing import CliRunner

from kapsulint.cli.command import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
# Rules about the files and comments themselves: a case of any rule may show their findings too.
FILE_RULES = ("KAP001", "KAP002", "KAP003", "KAP004", "KAP005", "KAP009")
_MARKER = re.compile(r"(?:#|//)\s*expect(?:\+(\d+))?:\s*([A-Z0-9@, ]+)")
_MARKED_SUFFIXES = (".tf", ".tofu", ".tfvars", ".hcl", ".yaml", ".yml", ".tftpl", ".tpl")


def cases() -> list[Path]:
    return sorted(p for p in FIXTURES.glob("KAP*/*") if p.is_dir())


def expected(case: Path) -> Counter:
    """(file, line, rule, column or None) for every marker and every case.toml expectation."""
    found: Counter = Counter()
    for path in sorted(case.rglob("*")):
        if not path.is_file() or not path.name.endswith(_MARKED_SUFFIXES):
            continue
        relative = path.relative_to(case).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8-sig", errors="replace").splitlines(), start=1):
            match = _MARKER.search(line)
            if not match:
                continue
            target = number + int(match.group(1) or 0)
            for item in match.group(2).split(","):
                item = item.strip()
                if not item:
                    continue
                rule, _, column = item.partition("@")
                found[(relative, target, rule, int(column) if column else None)] += 1
    config = case_config(case)
    for item in config.get("expect", []):
        parts = item.split(":")
        column = int(parts[3]) if len(parts) > 3 else None
        found[(parts[0], int(parts[1]), parts[2], column)] += 1
    return found


def case_config(case: Path) -> dict:
    path = case / "case.toml"
    return tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def lint(directory: Path, args: list[str], monkeypatch, env: dict | None = None) -> tuple[int, list[dict], str]:
    """Run the CLI in ``directory`` with JSON output; (exit code, findings, stderr)."""
    monkeypatch.chdir(directory)
    for key, value in (env or {}).items():
        monkeypatch.setenv(key, value)
    result = CliRunner().invoke(main, ["--format", "json", *args], catch_exceptions=False)
    findings = json.loads(result.stdout) if result.stdout.strip().startswith("[") else []
    return result.exit_code, findings, result.stderr


def copy_case(case: Path, tmp_path: Path) -> Path:
    """Fixtures are linted from a copy outside the repository, so the case is its own project root."""
    target = tmp_path / case.name
    shutil.copytree(case, target, symlinks=True)
    return target


def observed(findings: list[dict], columns: Counter) -> Counter:
    """Findings as (file, line, rule, column) where the expectation fixes a column, else None."""
    with_column = {(path, line, rule) for (path, line, rule, column) in columns if column is not None}
    result: Counter = Counter()
    for item in findings:
        key = (item["path"], item["line"], item["rule"])
        column = item["column"] if key in with_column else None
        result[(*key, column)] += 1
    return result
