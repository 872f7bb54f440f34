"""Terraform's arithmetic, comparison and logical operators over :class:`Val`."""

from __future__ import annotations

from kapsulint.findings import Loc
from kapsulint.values import UNKNOWN, Val, unknown_from


def apply_operator(operator: str, args: list[Val], loc: Loc) -> Val:
    from kapsulint.evaluate import number

    if any(not a.known for a in args):
        return unknown_from(*args, loc=loc)
    sensitive = any(a.sensitive for a in args)
    if operator == "!":
        return _logical(args[0], loc, negate=True)
    if operator == "neg":
        value = number(args[0])
        return Val(-value, loc, sensitive=sensitive) if value is not None else Val(UNKNOWN, loc)
    left, right = args
    if operator in ("==", "!="):
        if left.contains_unknown() or right.contains_unknown():
            return unknown_from(left, right, loc=loc)
        equal = _equal(left, right)
        return Val(equal if operator == "==" else not equal, loc)
    if operator in ("&&", "||"):
        a, b = _bool(left), _bool(right)
        if a is None or b is None:
            return Val(UNKNOWN, loc)
        return Val(a and b if operator == "&&" else a or b, loc)
    a, b = number(left), number(right)
    if a is None or b is None:
        return Val(UNKNOWN, loc)
    if operator in ("<", ">", "<=", ">="):
        result = {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[operator]
        return Val(result, loc)
    try:
        if operator == "+":
            value = a + b
        elif operator == "-":
            value = a - b
        elif operator == "*":
            value = a * b
        elif operator == "/":
            value = a / b
        elif operator == "%":
            value = a % b
        else:
            return Val(UNKNOWN, loc)
    except (ZeroDivisionError, OverflowError):
        return Val(UNKNOWN, loc)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return Val(value, loc, sensitive=sensitive)


def _bool(value: Val) -> bool | None:
    if value.is_true():
        return True
    if value.is_false():
        return False
    return None


def _logical(value: Val, loc: Loc, negate: bool) -> Val:
    result = _bool(value)
    if result is None:
        return Val(UNKNOWN, loc)
    return Val(not result if negate else result, loc)


def _equal(left: Val, right: Val) -> bool:
    return _comparable(left.plain()) == _comparable(right.plain())


def _comparable(data):
    if isinstance(data, bool) or data is None:
        return data
    if isinstance(data, float) and data.is_integer():
        return int(data)
    return data
