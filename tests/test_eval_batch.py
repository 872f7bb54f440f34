"""``kapsulint --eval`` given several expressions: one line each, in order, whatever the others do.

An expression that does not parse is answered with an error line and the others are still
evaluated; the exit code is then 2, once every line is printed (README, "Seeing what kapsulint
sees").
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from kapsulint.cli.command import main


def _eval(directory: Path, *expressions: str):
    arguments = [argument for expression in expressions for argument in ("--eval", expression)]
    return CliRunner().invoke(main, [*arguments, str(directory)])


def _lines(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def test_an_unparseable_expression_gets_its_line_and_the_others_are_evaluated(tmp_path):
    (tmp_path / "main.tf").write_text('locals {\n  name = "web"\n}\n', encoding="utf-8")
    result = _eval(tmp_path, "upper(local.name)", "1 +", "[1, 2][*]", '"${', "local.name")
    lines = _lines(result.stdout)
    assert [line["expression"] for line in lines] == ["upper(local.name)", "1 +", "[1, 2][*]", '"${', "local.name"]
    assert lines[0]["value"] == "WEB"
    assert lines[1]["error"].startswith("Invalid expression: ")
    assert "line 1, column" in lines[1]["error"]
    assert lines[2]["value"] == [1, 2]
    assert lines[3]["error"].startswith("Invalid expression: ")
    assert lines[4]["value"] == "web"
    assert result.exit_code == 2
    assert "'1 +', '\"${' does not parse" in result.stderr


def test_a_syntax_error_hclsyntax_words_is_said_in_its_words(tmp_path):
    result = _eval(tmp_path, "[{a = [1]}].*.a.*.b", "[[1, 2]].0.1", "[[1]][*][*]")
    lines = _lines(result.stdout)
    assert lines[0]["error"] == ("Nested splat expression not allowed: A splat expression (*) cannot be used "
                                 "inside another attribute-only splat expression.")
    assert lines[1]["error"].startswith("Invalid legacy index syntax: When using the legacy index syntax, chaining")
    assert lines[2]["value"] == [[1]]
    assert result.exit_code == 2


def test_a_batch_that_parses_exits_zero_even_with_errors_of_evaluation(tmp_path):
    result = _eval(tmp_path, "[1][5]", "nope(1)", "1")
    lines = _lines(result.stdout)
    assert [line.get("error", "")[:14] for line in lines] == ["Invalid index:", "Call to unknow", ""]
    assert lines[2]["value"] == 1
    assert result.exit_code == 0
