"""A rule's findings do not depend on which other rules ran (issue 22): every fixture case is
linted with every rule selected and with its own rule alone (the run the fixture test makes), and
that rule's findings must be the same, whole: place, message, related locations, hint, fix title,
applicability and edits. ``check(project)`` is pure, and values are never changed once made."""

from __future__ import annotations

import textwrap

import pytest
from fixture_support import case_config, cases, copy_case, finding_block, lint, own_rule_run

# Rules whose findings depend on the selection by definition, and why.
SELECTION_DEPENDENT = {
    "KAP003": "a suppression is judged unused only against the rules that ran (its documentation)",
}


def _blocks(reported: list, rule: str, base) -> list[str]:
    return [finding_block(finding, base) for finding in reported if finding.rule == rule]


@pytest.mark.parametrize("case", [c for c in cases() if c.parent.name not in SELECTION_DEPENDENT],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_rule_says_the_same_whichever_rules_run(case, tmp_path, tmp_path_factory, monkeypatch):
    rule = case.parent.name
    config = case_config(case)
    alone = own_rule_run(case, tmp_path_factory, monkeypatch)
    project = copy_case(case, tmp_path)
    reported: list = []
    lint(project, ["--select", "ALL", *config.get("args", [])], monkeypatch, config.get("env"), reported)
    assert _blocks(reported, rule, project) == _blocks(alone.reported, rule, alone.project)


SET_SENSITIVE = """\
    variable "chart_version" {
      type    = string
      default = "~> 1.52"
    }

    resource "helm_release" "haproxy" {
      name       = "haproxy"
      repository = "https://haproxytech.github.io/helm-charts"
      chart      = "kubernetes-ingress"
      version    = var.chart_version

      set_sensitive {
        name  = "controller.extraArgs.version"
        value = var.chart_version
      }
    }
    """


def test_a_value_set_sensitive_is_masked_whichever_rules_read_it(tmp_path, monkeypatch):
    """The issue's example: the range of a variable used as a release's version and inside
    set_sensitive. KAP302 reads the release's effective values (where the entry is sensitive);
    KAP308's message quotes the version. Alone or beside KAP302, KAP308 says the same, and never
    the text the provider keeps secret."""
    (tmp_path / "main.tf").write_text(textwrap.dedent(SET_SENSITIVE), encoding="utf-8")
    messages = {}
    for selection in ("KAP308", "KAP302,KAP308", "ALL"):
        _, findings, stderr = lint(tmp_path, ["--select", selection], monkeypatch)
        messages[selection] = [f["message"] for f in findings if f["rule"] == "KAP308"]
        assert "~> 1.52" not in stderr
    assert len(messages["KAP308"]) == 1
    assert "(sensitive value)" in messages["KAP308"][0]
    assert "~> 1.52" not in messages["KAP308"][0]
    assert messages["KAP302,KAP308"] == messages["KAP308"] == messages["ALL"]


def test_a_value_refuses_to_be_changed():
    """A change made in place for one rule would show in what another reports: it fails loudly."""
    from kapsulint.findings import Loc
    from kapsulint.terraform.values import Val

    value = Val("~> 1.52", Loc("main.tf", 3, 13, 3, 22))
    for field, new in (("sensitive", True), ("raw", "1.52.1"), ("loc", None), ("keylocs", {})):
        with pytest.raises(AttributeError, match="not changed once made"):
            setattr(value, field, new)
    with pytest.raises(AttributeError, match="not changed once made"):
        del value.raw
    marked = value.with_sensitive()
    assert marked.sensitive and not value.sensitive
    moved = value.replaced(loc=None)
    assert (moved.raw, moved.loc, value.loc) == ("~> 1.52", None, Loc("main.tf", 3, 13, 3, 22))
