"""``--eval`` reports Terraform's own error for what a module call, an object or a sequence does not
have, word for word, and says so on stderr when PATH holds no module to evaluate in.

The answers are those ``terraform console`` 1.11.4 gave on ``tests/oracle/eval/modules/module_outputs``
(recorded by ``tests/oracle/record``, which runs ``terraform init`` for its local module calls);
the conformance test only checks that both sides error, this one checks the messages.
"""

from __future__ import annotations

import json

from click.testing import CliRunner
from oracle.compare import load_cases, run_case

from kapsulint.cli.command import main

MODULE_OUTPUTS = next(case for case in load_cases() if case.name == "modules/module_outputs")


def test_every_message_is_terraforms_and_every_value_agrees():
    result = run_case(MODULE_OUTPUTS)
    assert not result["wrong"] and not result["crash"] and not result["unknown"], result
    agreed = result["error_agreed"]
    assert len(agreed) == 17
    for outcome in agreed:
        golden = outcome.golden
        assert outcome.answer["error"] == f"{golden['error']}: {golden['detail']}", outcome.expression


def _evaluate(directory, monkeypatch, *args: str):
    monkeypatch.chdir(directory)
    return CliRunner().invoke(main, ["--no-cache", *args], catch_exceptions=False)


def _answers(result) -> list[dict]:
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_a_module_kapsulint_did_not_read_is_unknown_not_an_error(tmp_path, monkeypatch):
    (tmp_path / "main.tf").write_text(
        'module "registry" {\n  source = "particuleio/kapsule/scaleway"\n}\n'
        'module "local" {\n  source = "./missing"\n}\n'
        'module "broken" {\n  source = "./broken"\n}\n')
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "main.tf").write_text('output "a" {\n  value = 1\n}\n')
    (tmp_path / "broken" / "more.tf").write_text("output {\n")  # a file that does not parse
    result = _evaluate(tmp_path, monkeypatch, "--eval", "module.registry.nonexistent_output",
                       "--eval", "module.local.anything", "--eval", "module.broken.nonexistent", "--eval",
                       "module.broken.a", ".")
    assert result.exit_code == 0, result.stderr
    assert _answers(result) == [
        {"expression": "module.registry.nonexistent_output", "unknown": True},
        {"expression": "module.local.anything", "unknown": True},
        {"expression": "module.broken.nonexistent", "unknown": True},  # it may be in the broken file
        {"expression": "module.broken.a", "value": 1, "type": "number"},
    ]


def test_an_unknown_count_or_a_resource_attribute_is_unknown(tmp_path, monkeypatch):
    (tmp_path / "child").mkdir()
    (tmp_path / "child" / "main.tf").write_text('output "a" {\n  value = 1\n}\n')
    (tmp_path / "main.tf").write_text(
        'variable "n" {\n  type = number\n}\n'
        'module "some" {\n  source = "./child"\n  count  = var.n\n}\n'
        'resource "scaleway_k8s_cluster" "main" {\n  name = "prod"\n}\n')
    result = _evaluate(tmp_path, monkeypatch, "--eval", "module.some[5].a", "--eval", "module.some[0].nope",
                       "--eval", "scaleway_k8s_cluster.main.nonexistent", "--eval",
                       "scaleway_k8s_cluster.main.name", ".")
    assert _answers(result) == [
        {"expression": "module.some[5].a", "unknown": True},
        {"expression": "module.some[0].nope", "unknown": True},
        # kapsulint has no provider schema: an attribute not written may be one the provider computes
        {"expression": "scaleway_k8s_cluster.main.nonexistent", "unknown": True},
        {"expression": "scaleway_k8s_cluster.main.name", "value": "prod", "type": "string"},
    ]


def test_a_path_with_no_module_says_so_and_evaluates_as_terraform_console_does(tmp_path, monkeypatch):
    (tmp_path / "docs").mkdir()
    (tmp_path / "main.tf").write_text('locals {\n  a = 1\n}\n')
    result = _evaluate(tmp_path, monkeypatch, "--eval", "local.a", "--eval", "1 + 1", "docs")
    assert result.exit_code == 0
    assert _answers(result) == [
        {"expression": "local.a", "error": 'Reference to undeclared local value: A local value with the name "a" '
                                           "has not been declared."},
        {"expression": "1 + 1", "value": 2, "type": "number"}]
    assert result.stderr == ("kapsulint: --eval: no Terraform module in docs: kapsulint read no .tf, .tf.json, "
                             ".tofu or .tofu.json file there; evaluating in an empty module, as terraform console "
                             "does\n")
    assert _answers(_evaluate(tmp_path, monkeypatch, "--eval", "local.a", ".")) == [
        {"expression": "local.a", "value": 1, "type": "number"}]


def test_a_path_with_only_tofu_files_under_terraform_says_so(tmp_path, monkeypatch):
    (tmp_path / "main.tofu").write_text('locals {\n  a = 1\n}\n')
    result = _evaluate(tmp_path, monkeypatch, "--engine", "terraform", "--eval", "local.a", ".")
    assert result.exit_code == 0
    assert result.stderr == ("kapsulint: --eval: no Terraform module in .: it holds only .tofu files, which "
                             "Terraform ignores (--engine opentofu reads them); evaluating in an empty module, as "
                             "terraform console does\n")
    assert _answers(_evaluate(tmp_path, monkeypatch, "--eval", "local.a", ".")) == [
        {"expression": "local.a", "value": 1, "type": "number"}]
