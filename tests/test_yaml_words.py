"""YAML syntax errors say the mistake in a user's words, with line, column and the parser's text."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kapsulint.cli.command import main
from kapsulint.parsing.yaml_words import in_words

RELEASE = """\
resource "helm_release" "ingress" {
  name       = "ingress"
  repository = "https://haproxytech.github.io/helm-charts"
  chart      = "kubernetes-ingress"
  version    = "1.52.1"
  values     = [file("${path.module}/values.yaml")]
}
"""


@pytest.mark.parametrize("text, line, column, words", [
    ("controller:\n  service:\n    type: LoadBalancer\n   extra: 1\n", 4, 4, "indentation matches no key above it"),
    ("controller:\n  replicas: 2\n   kind: x\n", 3, 8, "a line indented deeper than the keys of its mapping"),
    ("controller:\n\treplicas: 2\n", 2, 1, "a tab: YAML indents with spaces only"),
    ('controller:\n  name: "abc\n', 2, 12, "closing quote is missing"),
    ("controller: [1, 2\n", 1, 17, "a flow list `[...]` that is not closed"),
    ("controller: *base\n", 1, 13, "no anchor (`&name`) defines before it"),
])
def test_values_file_syntax_error_in_a_users_words(tmp_path, monkeypatch, text, line, column, words):
    (tmp_path / "main.tf").write_text(RELEASE)
    (tmp_path / "values.yaml").write_text(text)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["--format", "json", "--select", "KAP001"], catch_exceptions=False)
    (finding,) = json.loads(result.stdout)
    assert (finding["rule"], finding["path"], finding["line"], finding["column"]) == ("KAP001", "values.yaml",
                                                                                      line, column)
    message = finding["message"]
    assert message.startswith(f"invalid YAML at line {line}, column {column}: ") and words in message
    assert message.endswith(")") and "(YAML parser: " in message  # the parser's own text is kept


def test_problems_already_in_a_users_words_are_kept():
    assert in_words("NUL byte in a YAML file", 2, 3) == "NUL byte in a YAML file"
    assert in_words("invalid UTF-8 byte", 1, 1) == "invalid UTF-8 byte"
