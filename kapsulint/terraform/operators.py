"""HCL's operators: arithmetic, comparison, equality and logic over :class:`Val`.

https://github.com/hashicorp/hcl/blob/v2.23.0/hclsyntax/expression_ops.go: each operator
converts its operands to the type it declares (``"5" + 1`` is 6), a null operand is an error,
and an Unknown operand gives an Unknown result of the operator's type. Errors are worded as
Terraform reports them: ``Invalid operand`` for a value that does not convert (the left operand
before the right), ``Operation failed`` for a null operand or an impossible division. ``&&`` and ``||`` do not
short-circuit: both operands are evaluated, so an error on either side is reported.
"""

from __future__ import annotations

from kapsulint.findings import Loc
from kapsulint.terraform import numbers
from kapsulint.terraform.convert import ConversionError, convert, equal
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.types import BOOL, NUMBER, Type
from kapsulint.terraform.values import UNKNOWN, Val

_ARITHMETIC = {
    "+": numbers.add,
    "-": numbers.subtract,
    "*": numbers.multiply,
    "/": numbers.divide,
    "%": numbers.modulo,
}
_COMPARISON = {
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
}


def apply(operator: str, args: list[Val], loc: Loc) -> Val:
    """The value of ``operator`` applied to evaluated ``args`` (one for ``!`` and ``neg``); marked
    when any part of an operand is (go-cty's operator functions unmark their operands deep)."""
    sensitive = any(a.contains_sensitive() for a in args)
    if operator in ("==", "!="):
        same = equal(*args)
        if same is UNKNOWN:
            return Val(UNKNOWN, loc, type=BOOL, sensitive=sensitive)
        return Val(same if operator == "==" else not same, loc, sensitive=sensitive)
    operand_type: Type = BOOL if operator in ("!", "&&", "||") else NUMBER
    operands = _operands(args, operand_type)
    result_type = NUMBER if operator in _ARITHMETIC or operator == "neg" else BOOL
    if any(a.contains_unknown() for a in operands):
        return Val(UNKNOWN, loc, type=result_type, sensitive=sensitive)
    raws = [a.raw for a in operands]
    value: object
    if operator == "!":
        value = not raws[0]
    elif operator == "neg":
        value = numbers.negate(raws[0])
    elif operator == "&&":
        value = raws[0] and raws[1]
    elif operator == "||":
        value = raws[0] or raws[1]
    elif operator in _COMPARISON:
        value = _COMPARISON[operator](raws[0], raws[1])
    elif operator in _ARITHMETIC:
        try:
            value = _ARITHMETIC[operator](raws[0], raws[1])
        except numbers.Unrepresentable:  # an infinity: Terraform has it, kapsulint's values do not
            return Val(UNKNOWN, loc, type=NUMBER, sensitive=sensitive)
        except EvalError as error:  # an error of the operation, as go-cty reports it
            raise EvalError(f"Operation failed: Error during operation: {error}.") from None
    else:
        raise EvalError(f"Unsupported operator {operator}")
    return Val(value, loc, sensitive=sensitive)


def _sides(count: int) -> tuple[str, ...]:
    return ("unary",) if count == 1 else ("left", "right")


def _operands(args: list[Val], target: Type) -> list[Val]:
    """The operands converted to ``target`` as HCL's BinaryOpExpr and UnaryOpExpr do: a
    conversion error of the left operand first, then of the right; then a null operand fails
    the operation itself (go-cty's ``function.Call``: no operator allows null)."""
    converted: list[Val] = []
    failure: EvalError | None = None
    for arg, side in zip(args, _sides(len(args))):
        try:
            converted.append(convert(arg, target))
        except ConversionError as error:
            failure = failure or EvalError(f"Invalid operand: Unsuitable value for {side} operand: {error}.")
    if failure is not None:
        raise failure
    if any(value.raw is None for value in converted):
        raise EvalError("Operation failed: Error during operation: argument must not be null.")
    return converted
