"""HCL's operators: arithmetic, comparison, equality and logic over :class:`Val`.

https://github.com/hashicorp/hcl/blob/v2.23.0/hclsyntax/expression_ops.go: each operator
converts its operands to the type it declares (``"5" + 1`` is 6), a null operand is an error,
and an Unknown operand gives an Unknown result of the operator's type. ``&&`` and ``||`` do not
short-circuit: both operands are evaluated, so an error on either side is reported.
"""

from __future__ import annotations

from kapsulint.findings import Loc
from kapsulint.terraform import numbers
from kapsulint.terraform.convert import convert, equal
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
    """The value of ``operator`` applied to evaluated ``args`` (one for ``!`` and ``neg``)."""
    sensitive = any(a.sensitive for a in args)
    if operator in ("==", "!="):
        same = equal(*args)
        if same is UNKNOWN:
            return Val(UNKNOWN, loc, type=BOOL, sensitive=sensitive)
        return Val(same if operator == "==" else not same, loc, sensitive=sensitive)
    operand_type: Type = BOOL if operator in ("!", "&&", "||") else NUMBER
    operands = [_operand(arg, operand_type, side) for arg, side in zip(args, _sides(len(args)))]
    result_type = NUMBER if operator in _ARITHMETIC or operator == "neg" else BOOL
    if any(a.raw is UNKNOWN for a in operands):
        return Val(UNKNOWN, loc, type=result_type, sensitive=sensitive)
    raws = [a.raw for a in operands]
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
    else:
        raise EvalError(f"Unsupported operator {operator}")
    return Val(value, loc, sensitive=sensitive)


def _sides(count: int) -> tuple[str, ...]:
    return ("unary",) if count == 1 else ("left", "right")


def _operand(value: Val, target: Type, side: str) -> Val:
    required = "a bool is required" if target == BOOL else "a number is required"
    if value.raw is None:
        raise EvalError(f"Invalid operand: Unsuitable value for {side} operand: {required}.")
    if value.raw is UNKNOWN:
        return value
    if value.contains_unknown():
        return Val(UNKNOWN, value.loc)
    try:
        return convert(value, target)
    except EvalError:
        raise EvalError(f"Invalid operand: Unsuitable value for {side} operand: {required}.") from None
