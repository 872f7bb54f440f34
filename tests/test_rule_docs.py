"""Rule documentation: fixed headings, summaries, README table up to date."""

from __future__ import annotations

import re
import subprocess

import pytest
from fixture_support import ROOT

from kapsulint.lint.docs import with_table
from kapsulint.lint.registry import all_rules


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.id)
def test_docstring_has_the_fixed_headings(rule):
    sections = rule.sections
    assert list(sections) == list(rule.headings), rule.module  # "Fix" exactly when the rule sets FIX
    assert all(sections[h].strip() for h in rule.headings), rule.module
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
    assert with_table(readme) == readme, "run: python -m kapsulint.lint.docs README.md"


# Notes a user cannot open: shipped code and rule documentation cite public URLs instead.
_PRIVATE_CITATION = re.compile(r"knowledge/|design\.md|\.\./shared|(?:scaleway|ingress|peers)\.md §")


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.id)
def test_rule_documentation_cites_only_public_sources(rule):
    assert not _PRIVATE_CITATION.search(rule.doc), rule.module
    assert not rule.title.startswith("Reports"), rule.module  # SARIF's title reads as the problem


def test_no_file_cites_private_notes():
    """Code, rule docs, tests and docs cite public sources: the team's notes do not ship."""
    cited = []
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    for relative in sorted(tracked.splitlines()):
        if not relative.endswith((".py", ".md", ".toml", ".yaml", ".yml", ".txt")) or relative == "tests/test_rule_docs.py":
            continue
        path = ROOT / relative
        if not path.is_file():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), start=1):
            if _PRIVATE_CITATION.search(line):
                cited.append(f"{relative}:{number}: {line.strip()}")
    assert cited == []
