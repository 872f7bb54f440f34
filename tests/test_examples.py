"""The bundled examples/ project: its lint exits 1 on purpose, with exactly these findings."""

from __future__ import annotations

import json

from click.testing import CliRunner

from fixture_support import ROOT
from kapsulint.cli.command import main

EXPECTED = [
    ("KAP201", "examples/production/pools.tf", 19),  # the apps pool has no create_before_destroy
    ("KAP202", "examples/production/pools.tf", 4),  # the system pool's fixed name blocks its replacement
    ("KAP302", "examples/production/values/haproxy-values.yaml", 13),  # PROXY headers trusted from 0.0.0.0/0
    ("KAP310", "examples/production/values/haproxy-values.yaml", 7),  # stats port on the public LB
    ("KAP314", "examples/production/values/haproxy-values.yaml", 10),  # PROXY v2 without use-hostname
    ("KAP401", "examples/production/versions.tf", 1),  # no backend: the admin token in a local state
]


def test_examples_lint_gives_exactly_the_documented_findings(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, ["--format", "json", "examples/"])
    assert result.exit_code == 1, result.stderr
    found = sorted((f["rule"], f["path"], f["line"]) for f in json.loads(result.stdout))
    assert found == sorted(EXPECTED)
