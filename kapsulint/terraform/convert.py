"""Terraform's type conversions (go-cty's ``convert`` package).

https://github.com/zclconf/go-cty/tree/v1.16.2/cty/convert
"""

from __future__ import annotations

from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.numbers import format_number, parse_number
from kapsulint.terraform.types import BOOL, DYNAMIC, NUMBER, STRING, Type, type_of, type_text
from kapsulint.values import UNKNOWN, Val


def convert(value: Val, target: Type) -> Val:
    """``value`` converted to ``target``, or :class:`EvalError` with Terraform's message."""
    if target is DYNAMIC or target == DYNAMIC:
        return value
    if value.raw is UNKNOWN:
        return Val(UNKNOWN, value.loc, type=target, ref=value.ref, sensitive=value.sensitive)
    if value.raw is None:
        return Val(None, value.loc, type=target, sensitive=value.sensitive)
    source = type_of(value)
    if source == target:
        return value
    raw = value.raw
    if target == STRING and (source == NUMBER or source == BOOL):
        text = format_number(raw) if source == NUMBER else ("true" if raw else "false")
        return _like(value, text, STRING)
    if target == NUMBER and source == STRING:
        try:
            return _like(value, parse_number(raw), NUMBER)
        except EvalError:
            raise EvalError(f'a number is required') from None
    if target == BOOL and source == STRING:
        if raw in ("true", "false"):
            return _like(value, raw == "true", BOOL)
        raise EvalError("a bool is required")
    raise EvalError(f"{type_text(target).split('(')[0]} required")


def _like(value: Val, raw: object, ty: Type) -> Val:
    return Val(raw, value.loc, type=ty, sensitive=value.sensitive, origin=value.origin)
