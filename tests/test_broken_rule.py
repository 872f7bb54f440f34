"""A rule module that fails to import is an internal error of that rule, never a traceback."""

from __future__ import annotations

from kapsulint.lint import registry
from kapsulint.lint.runner import Settings, run
from kapsulint.model.options import ScanOptions


def test_an_unimportable_rule_module_becomes_a_rule_that_fails(tmp_path):
    rule = registry._unloadable("kap299_broken_thing", ImportError("cannot import name 'x' from 'kapsulint.api'"))
    assert (rule.id, rule.name, rule.module) == ("KAP299", "broken-thing", "kapsulint.rules.kap299_broken_thing")
    assert registry._unloadable("helpers", ImportError("x")) is None  # not a rule module: nothing to report

    (tmp_path / "main.tf").write_text('locals {\n  a = 1\n}\n', encoding="utf-8")
    result = run(Settings(scan=ScanOptions(root=tmp_path, cache=False), rules=[rule]))
    assert [e[2] for e in result.errors] == ["KAP299"]  # the run exits 2
    internal = [f for f in result.findings if f.rule == registry.INTERNAL_ERROR]
    assert len(internal) == 1
    assert "KAP299" in internal[0].message and "could not be imported" in internal[0].message
    assert (internal[0].loc.path, internal[0].loc.line) == (str(tmp_path), 1)
