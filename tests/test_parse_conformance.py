"""Parse conformance: kapsulint accepts exactly the HCL files Terraform accepts.

Every file under ``tests/oracle/parse/`` has the verdict ``terraform fmt -check`` gave for it,
recorded in ``verdicts.json`` by ``tests/oracle/record_parse.py`` (Terraform is not needed here).
Each file goes through the loader's own parse function: a file Terraform parses must parse (no
KAP001, no internal error); a file Terraform rejects must be a located syntax error (KAP001).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kapsulint.sources import parse_content

CORPUS = Path(__file__).parent / "oracle" / "parse"
RECORDED = json.loads((CORPUS / "verdicts.json").read_text(encoding="utf-8"))


def kapsulint_verdict(path: Path) -> tuple[bool, str]:
    """(parses, detail) as the loader sees the file."""
    result = parse_content(str(path), "config", path.read_bytes())
    if result.get("internal"):
        return False, f"internal error: {result['internal']}"
    if result["error"] is not None:
        message, line, column = result["error"]
        assert line >= 1 and column >= 1, result["error"]
        return False, f"{line}:{column}: {message}"
    return True, ""


def test_recorded_with_terraform_1_11() -> None:
    assert RECORDED["terraform_version"].startswith("1.11.")
    assert len(RECORDED["verdicts"]) >= 1000
    assert set(RECORDED["verdicts"]) == {p.relative_to(CORPUS).as_posix() for p in CORPUS.rglob("*.tf")}


@pytest.mark.parametrize("group", ["hand", "generated"])
def test_verdicts_identical(group: str) -> None:
    """One test per group, listing every differing file (one test per file would cost seconds)."""
    differing = []
    for name, recorded in sorted(RECORDED["verdicts"].items()):
        if not name.startswith(group + "/"):
            continue
        parses, detail = kapsulint_verdict(CORPUS / name)
        internal = detail.startswith("internal error")
        if parses != recorded["parses"] or internal:
            terraform = "parses" if recorded["parses"] else f"{recorded.get('line')}: {recorded['message']}"
            differing.append(f"{name}: terraform {terraform}; kapsulint {'parses' if parses else detail}")
    assert not differing, f"{len(differing)} verdicts differ:\n" + "\n".join(differing)
