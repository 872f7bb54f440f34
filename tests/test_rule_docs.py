"""Rule documentation: fixed headings, summaries, README table up to date."""

from __future__ import annotations

import re

import pytest

from fixture_support import ROOT
from kapsulint.docs import with_table
from kapsulint.registry import DOC_HEADINGS, all_rules


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.id)
def test_docstring_has_the_fixed_headings(rule):
    sections = rule.sections
    assert list(sections) == list(DOC_HEADINGS), rule.module
    assert all(sections[h].strip() for h in DOC_HEADINGS), rule.module
    assert rule.summary.endswith("."), rule.summary
    assert "http" in sections["References"] or "README" in sections["References"]


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.id)
def test_rule_module_is_named_after_its_id_and_name(rule):
    assert rule.module.rsplit(".", 1)[1] == f"{rule.id.lower()}_{rule.name.replace('-', '_')}"


def test_ids_and_names_are_unique():
    rules = all_rules()
    assert len({r.id for r in rules}) == len(rules)
    assert len({r.name for r in rules}) == len(rules)


def test_readme_rule_table_is_up_to_date():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert with_table(readme) == readme, "run: python -m kapsulint.docs README.md"


# Notes a user cannot open: shipped code and rule documentation cite public URLs instead.
_PRIVATE_CITATION = re.compile(r"knowledge/|design\.md|\.\./shared|(?:scaleway|ingress|peers)\.md §")
_OWNED_ELSEWHERE = {"kapsulint/parsing/json.py"}  # its owner replaces the citation


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.id)
def test_rule_documentation_cites_only_public_sources(rule):
    assert not _PRIVATE_CITATION.search(rule.doc), rule.module
    assert not rule.title.startswith("Reports"), rule.module  # SARIF's title reads as the problem


def test_shipped_code_cites_no_private_notes():
    cited = []
    for path in sorted([*(ROOT / "kapsulint").rglob("*.py"), *(ROOT / "rules").glob("*.py")]):
        relative = path.relative_to(ROOT).as_posix()
        if relative in _OWNED_ELSEWHERE:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if _PRIVATE_CITATION.search(line):
                cited.append(f"{relative}:{number}: {line.strip()}")
    assert cited == []
