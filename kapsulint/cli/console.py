"""``kapsulint --eval``: what kapsulint sees, expression by expression, like ``terraform console``.

Each expression is evaluated in the root module instance of a directory, with its tfvars and the
run's ``--var``/``--var-file``, and printed as one JSON object a line: the value as Terraform's
``jsonencode`` writes it and its type as ``type()`` prints it, or ``"unknown": true`` where
Terraform would know the value only after apply, or the error Terraform would report.
"""

from __future__ import annotations

import json
import os
import sys

from kapsulint.parsing.hcl import HclSyntaxError, parse_expression
from kapsulint.parsing.template import TemplateSyntaxError
from kapsulint.model.project import Project
from kapsulint.terraform.encode import ContainsUnknown, json_encode
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.types import type_of, type_text


class ExpressionSyntaxError(Exception):
    """An expression given to ``--eval`` that does not parse."""


def parse_expressions(expressions: list[str]) -> list[dict]:
    """The parsed expressions, or :class:`ExpressionSyntaxError` naming the first that fails."""
    nodes = []
    for text in expressions:
        try:
            nodes.append(parse_expression(text))
        except (HclSyntaxError, TemplateSyntaxError) as error:
            raise ExpressionSyntaxError(f"--eval {text!r} does not parse: {error}") from None
        except Exception as error:  # noqa: BLE001 - the parser's own failure, said as such
            raise ExpressionSyntaxError(f"--eval {text!r} could not be parsed (internal error: "
                                        f"{type(error).__name__}: {error})") from None
    return nodes


def evaluate_lines(project: Project, directory: str, expressions: list[str], nodes: list[dict]) -> list[str]:
    """One JSON line per expression, evaluated in the root module instance of ``directory``."""
    instance = project.root_instance(directory)
    path = os.path.join(os.path.normpath(directory), "<eval>")
    return [_line(text, instance, node, path) for text, node in zip(expressions, nodes)]


def _line(text: str, instance, node: dict, path: str) -> str:
    head = '{"expression": ' + json.dumps(text)
    try:
        value = instance.evaluator.eval_strict(node, path)
        if value.contains_unknown():
            return head + ', "unknown": true}'
        encoded = json_encode(value)
    except EvalError as error:
        return head + ', "error": ' + json.dumps(str(error)) + "}"
    except ContainsUnknown:
        return head + ', "unknown": true}'
    except Exception as error:  # noqa: BLE001 - kapsulint's own failure: it does not know the value
        print(f"kapsulint: internal error evaluating {text!r}: {type(error).__name__}: {error}", file=sys.stderr)
        return head + ', "unknown": true}'
    return head + ', "value": ' + encoded + ', "type": ' + json.dumps(type_text(type_of(value))) + "}"
