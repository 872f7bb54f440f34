"""Questions rules ask the domain and the model instead of answering them themselves: how many
nested blocks a ``dynamic`` block makes, how the CCM reads a PROXY annotation, where a minor
stands in the support calendar and which minor an upgrade moves to."""

from __future__ import annotations

import ast
import datetime
from pathlib import Path

import pytest

from kapsulint.api import Val
from kapsulint.kapsule import lb_annotation_keys, proxy_ports, version_calendar
from kapsulint.kapsule.version_calendar import State, Status
from kapsulint.model.options import ScanOptions
from kapsulint.model.project import Project

ROOT = Path(__file__).resolve().parent.parent
RULES = sorted((ROOT / "rules").glob("kap*.py"))

ACL = """
variable "ranges" {
  type = list(string)
}

resource "scaleway_k8s_acl" "known" {
  cluster_id = "fr-par/11111111-1111-1111-1111-111111111111"
  acl_rules {
    ip = "10.0.0.0/8"
  }
  dynamic "acl_rules" {
    for_each = ["192.168.0.0/16", "172.16.0.0/12"]
    content {
      ip = acl_rules.value
    }
  }
}

resource "scaleway_k8s_acl" "unknown" {
  cluster_id = "fr-par/11111111-1111-1111-1111-111111111111"
  dynamic "acl_rules" {
    for_each = var.ranges
    content {
      ip = acl_rules.value
    }
  }
}
"""


def test_nested_blocks_of_an_unknown_for_each_say_so(tmp_path):
    (tmp_path / "main.tf").write_text(ACL, encoding="utf-8")
    project = Project(ScanOptions(root=tmp_path, cache=False, jobs=1)).load()
    by_name = {acl.resource.name: acl for acl in project.resources("scaleway_k8s_acl")}
    known = by_name["known"].nested("acl_rules")
    assert [(block.dynamic, block.count_unknown, block.arg("ip").raw) for block in known] == [
        (False, False, "10.0.0.0/8"), (True, False, "192.168.0.0/16"), (True, False, "172.16.0.0/12"),
    ]
    unknown = by_name["unknown"].nested("acl_rules")
    assert [(block.dynamic, block.count_unknown, block.arg("ip").known) for block in unknown] == [(True, True, False)]


def _rule_reads(path: Path) -> list[str]:
    """What a rule module does that is the model's or the domain's job."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Name) and node.id in ("iteration_pairs", "expand_block"):
            found.append(f"line {node.lineno}: {node.id}")
        elif isinstance(node, ast.alias) and node.name in ("iteration_pairs", "expand_block"):
            found.append(f"line {node.lineno}: imports {node.name}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "eval_attr" and any(
            isinstance(argument, ast.Constant) and argument.value == "for_each" for argument in node.args
        ):
            found.append(f"line {node.lineno}: evaluates for_each")
        elif isinstance(node, ast.Dict) and node.values and all(
            isinstance(value, (ast.Attribute, ast.Name)) and not isinstance(value.ctx, ast.Store)
            for value in node.values
        ) and any(isinstance(key, ast.Attribute) and isinstance(key.value, ast.Name)
                  and key.value.id == "lb_annotation_keys" for key in node.keys):
            found.append(f"line {node.lineno}: a table keyed by annotation")
    return found


@pytest.mark.parametrize("path", RULES, ids=lambda p: p.stem)
def test_rules_neither_expand_blocks_nor_hold_annotation_readers(path):
    assert _rule_reads(path) == [], f"{path.name} answers a domain question itself: {_rule_reads(path)}"


def test_the_rule_check_catches_what_it_forbids(tmp_path):
    sample = tmp_path / "kap999_sample.py"
    sample.write_text(
        "from kapsulint.api import iteration_pairs\n"
        "_PARSERS = {lb_annotation_keys.LB_PROXY_PROTOCOL_V1: proxy_ports.parse_proxy_protocol_ports}\n"
        "def check(project):\n"
        "    pairs = iteration_pairs(acl.module.eval_attr(dynamic, 'for_each', acl.scope))\n",
        encoding="utf-8",
    )
    assert len(_rule_reads(sample)) == 4


@pytest.mark.parametrize(("name", "text", "ports"), [
    (lb_annotation_keys.LB_PROXY_PROTOCOL_V2, " true ", proxy_ports.EVERY_PORT),
    (lb_annotation_keys.LB_PROXY_PROTOCOL_V1, "80, 0x1bb", proxy_ports.PortSet(False, frozenset({80, 443}))),
    (lb_annotation_keys.LB_PROXY_PROTOCOL_V1, "1", proxy_ports.PortSet(False, frozenset({1}))),
    (lb_annotation_keys.LB_SEND_PROXY_V2, "1", proxy_ports.EVERY_PORT),
    (lb_annotation_keys.LB_SEND_PROXY_V2, "*", None),
    (lb_annotation_keys.LB_PROXY_PROTOCOL_V2, "http", None),
    (lb_annotation_keys.LB_USE_HOSTNAME, "true", None),
])
def test_annotation_ports_read_as_the_ccm_reads_them(name, text, ports):
    assert proxy_ports.annotation_ports(name, Val(text)) == ports


def test_annotation_ports_of_an_unknown_value():
    from kapsulint.api import UNKNOWN

    assert proxy_ports.annotation_ports(lb_annotation_keys.LB_PROXY_PROTOCOL_V2, Val(UNKNOWN)) is None


@pytest.mark.parametrize(("minor", "day", "state"), [
    ((1, 31), datetime.date(2025, 11, 1), State.SUPPORTED),
    ((1, 31), datetime.date(2025, 12, 2), State.DEPRECATED),
    ((1, 31), datetime.date(2026, 2, 2), State.END_OF_SUPPORT),
    ((1, 20), datetime.date(2026, 1, 1), State.END_OF_SUPPORT),
])
def test_status_is_a_state_with_dates(minor, day, state):
    judged = version_calendar.status(minor, day)
    assert isinstance(judged, Status) and judged.state is state
    assert judged.dates == version_calendar.CALENDAR.get(minor)


@pytest.mark.parametrize(("minor", "day", "following"), [
    ((1, 31), datetime.date(2026, 3, 1), (1, 32)),  # 1.32 supported then
    ((1, 31), datetime.date(2026, 4, 1), None),  # 1.32 deprecated by then: no one-minor upgrade
    ((1, 33), datetime.date(2026, 12, 1), None),  # 1.34 past its end of support
    ((1, 26), datetime.date(2026, 1, 1), None),  # 1.27 is past its end of support too
    ((1, 99), datetime.date(2026, 1, 1), None),  # Kapsule offers no 1.100
])
def test_next_supported_minor(minor, day, following):
    assert version_calendar.next_supported_minor(minor, day) == following


def test_the_next_minor_of_the_newest_listed_one_counts_when_kapsule_offers_it():
    from kapsulint.kapsule import version_features

    newest = version_calendar.NEWEST_LISTED
    following = (newest[0], newest[1] + 1)
    expected = following if following in version_features.FEATURE_GATES else None
    assert version_calendar.next_supported_minor(newest, datetime.date(2026, 1, 1)) == expected
