"""tests/corpus/: realistic projects, each linted with every rule; the exact findings are in
tests/corpus/EXPECTED, one per line with its justification after ``--``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from fixture_support import lint

CORPUS = Path(__file__).parent / "corpus"
EXPECTED = CORPUS / "EXPECTED"
LINT_DATE = "2026-12-01"  # date-dependent rules (KAP110) judge the corpus on a fixed day


def expected_lines() -> dict[str, list[str]]:
    by_project: dict[str, list[str]] = {p.name: [] for p in CORPUS.iterdir() if p.is_dir()}
    for raw in EXPECTED.read_text(encoding="utf-8").splitlines():
        line = raw.split(" -- ", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        assert " -- " in raw, f"no justification: {raw}"
        project, _, rest = line.partition("/")
        by_project[project].append(rest)
    return by_project


def test_every_expected_line_has_a_justification():
    for raw in EXPECTED.read_text(encoding="utf-8").splitlines():
        if raw.strip() and not raw.startswith("#"):
            assert len(raw.split(" -- ", 1)[1].strip()) > 10, raw


@pytest.mark.parametrize("project", sorted(expected_lines()))
def test_corpus_project_gives_exactly_the_expected_findings(project, tmp_path, monkeypatch):
    copy = tmp_path / project
    shutil.copytree(CORPUS / project, copy, symlinks=True)
    code, findings, stderr = lint(copy, ["--today", LINT_DATE], monkeypatch)
    assert code in (0, 1), stderr
    got = sorted(f"{f['path']}:{f['line']}:{f['column']} {f['rule']}" for f in findings)
    assert got == sorted(expected_lines()[project])
