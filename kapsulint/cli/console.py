"""``kapsulint --eval``: what kapsulint sees, expression by expression, like ``terraform console``.

Each expression is evaluated in the root module instance of a directory, with its tfvars and the
run's ``--var``/``--var-file``, and printed as one JSON object a line: the value as Terraform's
``jsonencode`` writes it and its type as ``type()`` prints it, or ``"unknown": true`` where
Terraform would know the value only after apply, or the error Terraform would report. An
expression that does not parse gets its line too, an error, and the others are still evaluated.

A value sensitive in any part prints ``"sensitive": true`` and, as ``terraform console`` shows
it, each sensitive part replaced by the string ``"(sensitive value)"``, with no type (an object's
type names its attributes, which can be the secret itself: ``{(var.token) = 1}``);
``nonsensitive(EXPR)`` shows it.
"""

from __future__ import annotations

import json
import os
import sys
from typing import NamedTuple

from kapsulint.findings import SENSITIVE_VALUE
from kapsulint.model.project import Project
from kapsulint.parsing.hcl import HclSyntaxError, parse_expression
from kapsulint.parsing.template import TemplateSyntaxError
from kapsulint.terraform.encode import ContainsUnknown, json_encode
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.types import type_of, type_text
from kapsulint.terraform.values import Val


class Parsed(NamedTuple):
    """One ``--eval`` expression: its node, or why it does not parse."""

    text: str
    node: dict | None
    syntax_error: str | None


def parse_expressions(expressions: list[str]) -> list[Parsed]:
    """Every expression parsed; one that does not parse keeps its error, the others are still
    evaluated."""
    return [_parse(text) for text in expressions]


def _parse(text: str) -> Parsed:
    try:
        return Parsed(text, parse_expression(text), None)
    except (HclSyntaxError, TemplateSyntaxError) as error:
        return Parsed(text, None, syntax_message(error))
    except Exception as error:
        return Parsed(text, None, f"Invalid expression: the expression could not be parsed (internal error: "
                                  f"{type(error).__name__}: {error}).")


def syntax_message(error: HclSyntaxError | TemplateSyntaxError) -> str:
    """A syntax error as an ``--eval`` line says it: Terraform's summary and detail where the
    error has them, else "Invalid expression" and kapsulint's description with its place."""
    terraform = getattr(error, "terraform", None)
    if terraform is not None:
        return f"{terraform[0]}: {terraform[1]}"
    line, column = getattr(error, "line", None), getattr(error, "column", None)
    place = f" (line {line}, column {column})" if line and column else ""
    return f"Invalid expression: {getattr(error, 'message', None) or error}{place}."


def no_module_message(project: Project, directory: str) -> str | None:
    """Why ``directory`` holds no module to evaluate in, or None when it holds one."""
    directory = os.path.normpath(directory)
    module = project.modules.get(directory)
    if module is not None and module.files:
        return None
    where = os.path.relpath(directory)
    ignored = [n for n in project.not_read if os.path.dirname(n.path) == directory]
    if ignored:
        return (f"--eval: no Terraform module in {where}: it holds only .tofu files, which Terraform "
                f"ignores (--engine opentofu reads them)")
    return f"--eval: no Terraform module in {where}: kapsulint read no .tf, .tf.json, .tofu or .tofu.json file there"


def evaluate_lines(project: Project, directory: str, parsed: list[Parsed]) -> list[str]:
    """One JSON line per expression, evaluated in the root module instance of ``directory``."""
    instance = project.root_instance(directory)
    path = os.path.join(os.path.normpath(directory), "<eval>")
    return [_line(expression.text, instance, expression.node, path) if expression.node is not None
            else '{"expression": ' + json.dumps(expression.text) + ', "error": '
            + json.dumps(expression.syntax_error) + "}"
            for expression in parsed]


def _line(text: str, instance, node: dict, path: str) -> str:
    head = '{"expression": ' + json.dumps(text)
    try:
        value = instance.evaluator.eval_strict(node, path)
        if value.contains_unknown():
            return head + ', "unknown": true}'
        if value.contains_sensitive():
            return head + ', "sensitive": true, "value": ' + json_encode(_masked(value)) + "}"
        encoded = json_encode(value)
    except EvalError as error:
        return head + ', "error": ' + json.dumps(str(error)) + "}"
    except ContainsUnknown:
        return head + ', "unknown": true}'
    except Exception as error:
        print(f"kapsulint: internal error evaluating {text!r}: {type(error).__name__}: {error}", file=sys.stderr)
        return head + ', "unknown": true}'
    return head + ', "value": ' + encoded + ', "type": ' + json.dumps(type_text(type_of(value))) + "}"


def _masked(value: Val) -> Val:
    """``value`` with each sensitive part replaced by the string ``(sensitive value)``."""
    if value.sensitive:
        return Val(SENSITIVE_VALUE)
    if isinstance(value.raw, dict):
        return Val({key: _masked(item) for key, item in value.raw.items()})
    if isinstance(value.raw, list):
        return Val([_masked(item) for item in value.raw])
    return value
