"""Terraform's numeric functions: abs, ceil, floor, log, pow, signum, parseint.

All of them come from go-cty's stdlib as Terraform 1.11 registers them
(https://github.com/hashicorp/terraform/blob/v1.11.4/internal/lang/functions.go), declared as in
https://github.com/zclconf/go-cty/blob/v1.16.0/cty/function/stdlib/number.go. ``log`` and ``pow``
compute in Go ``float64``; ``signum`` and the base of ``parseint`` go through a Go ``int``
(``gocty.FromCtyValue``), which refuses what is not a whole number in int64's range
(https://github.com/zclconf/go-cty/blob/v1.16.0/cty/gocty/out.go).

This module also holds the two error shapes every function group raises, as Terraform's console
prints them: an error about one argument, and a failure of the call as a whole.
"""

from __future__ import annotations

import math

from kapsulint.terraform.convert import go_quote
from kapsulint.terraform.functions.registry import Call, Param, argument_error, call_error, function
from kapsulint.terraform.numbers import (
    Number,
    Unrepresentable,
    from_float,
    negate,
    precision,
    round_to_precision,
    to_float,
)
from kapsulint.terraform.types import DYNAMIC, NUMBER, STRING, Type, type_of, type_text
from kapsulint.terraform.values import UNKNOWN, Val

INT64_RANGE = "value must be a whole number, between -9223372036854775808 and 9223372036854775807"
_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1


def go_int(value: Val) -> int | None:
    """``value`` as a Go int64 (``gocty.FromCtyValue`` into an ``int``), None if it is not one."""
    raw = value.raw
    if isinstance(raw, int) and _INT64_MIN <= raw <= _INT64_MAX:
        return int(raw)
    return None


def number(raw: Number, loc: object) -> Val:
    return Val(raw, loc, type=NUMBER)  # type: ignore[arg-type]


@function("abs", Param("num", NUMBER), returns=NUMBER)
def _abs(args: list[Val], call: Call) -> Val:
    raw = args[0].raw
    if raw == 0:
        return number(0, call.loc)
    return number(negate(raw) if raw < 0 else raw, call.loc)  # negate keeps a float64's precision


@function("ceil", Param("num", NUMBER), returns=NUMBER)
def _ceil(args: list[Val], call: Call) -> Val:
    raw = args[0].raw
    return number(_integral(math.ceil(raw), raw), call.loc)


@function("floor", Param("num", NUMBER), returns=NUMBER)
def _floor(args: list[Val], call: Call) -> Val:
    raw = args[0].raw
    return number(_integral(math.floor(raw), raw), call.loc)


def _integral(result: int, source: Number) -> Number:
    """go-cty's ``Floor``/``Ceil`` go through a ``big.Int``, which has no negative zero
    (``floor(-0)`` and ``ceil(-0.5)`` are 0); ``big.Float.SetInt`` then keeps the argument's
    precision (53 bits after ``pow``/``log``).
    https://github.com/zclconf/go-cty/blob/v1.16.0/cty/function/stdlib/number.go"""
    if result == 0:
        return 0
    return round_to_precision(result, precision(source))


@function("log", Param("num", NUMBER), Param("base", NUMBER), returns=NUMBER)
def _log(args: list[Val], call: Call) -> Val:
    num, base = (_float64(arg, call) for arg in args)
    return _from_float(_divide(_ln(num), _ln(base)), call)


def _ln(x: float) -> float:
    """Go's ``math.Log`` (FreeBSD's ``e_log.c``; C's ``log`` rounds differently):
    -Inf at zero, NaN below.

    https://github.com/golang/go/blob/go1.23.0/src/math/log.go"""
    if x < 0:
        return math.nan
    if x == 0:
        return -math.inf
    fraction, exponent = math.frexp(x)
    if fraction < math.sqrt(2) / 2:
        fraction, exponent = fraction * 2, exponent - 1
    f, k = fraction - 1, float(exponent)
    s = f / (2 + f)
    s2 = s * s
    s4 = s2 * s2
    t1 = s2 * (_L1 + s4 * (_L3 + s4 * (_L5 + s4 * _L7)))
    t2 = s4 * (_L2 + s4 * (_L4 + s4 * _L6))
    half_square = 0.5 * f * f
    return k * _LN2_HI - ((half_square - (s * (half_square + t1 + t2) + k * _LN2_LO)) - f)


_LN2_HI, _LN2_LO = 6.93147180369123816490e-01, 1.90821492927058770002e-10
_L1, _L2, _L3, _L4 = 6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01, 2.222219843214978396e-01
_L5, _L6, _L7 = 1.818357216161805012e-01, 1.531383769920937332e-01, 1.479819860511658591e-01

def _divide(a: float, b: float) -> float:
    """IEEE 754 division, as Go divides float64s (Python raises on a zero divisor)."""
    if b != 0:
        return a / b
    if a == 0 or a != a:
        return math.nan
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


@function("pow", Param("num", NUMBER), Param("power", NUMBER), returns=NUMBER)
def _pow(args: list[Val], call: Call) -> Val:
    num, power = (_float64(arg, call) for arg in args)
    try:
        return _from_float(go_pow(num, power), call)
    except _MachineDependent:
        return Val(UNKNOWN, call.loc, type=NUMBER)


def go_pow(x: float, y: float) -> float:
    """Go's ``math.Pow`` (pure Go on amd64): integral powers by repeated squaring of the
    mantissa, which rounds differently from C's ``pow``.

    https://github.com/golang/go/blob/go1.23.0/src/math/pow.go"""
    if y == 0 or x == 1:
        return 1.0
    if y == 1:
        return x
    if x == 0:
        odd = _is_odd_int(y) and math.copysign(1.0, x) < 0
        if y < 0:
            return -math.inf if odd else math.inf
        return x if odd else 0.0
    if y == 0.5:
        return math.sqrt(x) if x >= 0 else math.nan
    if y == -0.5:
        return 1 / math.sqrt(x) if x > 0 else math.nan
    yf, yi = math.modf(abs(y))
    if yf != 0 and x < 0:
        return math.nan
    if yi >= 1 << 63:
        if x == -1:
            return 1.0
        return 0.0 if (abs(x) < 1) == (y > 0) else math.inf
    a1, ae = 1.0, 0
    if yf != 0:
        # Go computes x**yf as Exp(yf*Log(x)), and Exp on amd64 is assembly whose rounding
        # depends on whether the processor has FMA: no answer to give independent of the machine
        raise _MachineDependent()
    x1, xe = math.frexp(x)
    i = int(yi)
    while i != 0:
        if xe < -(1 << 12) or xe > (1 << 12):
            ae += xe
            break
        if i & 1:
            a1 *= x1
            ae += xe
        x1 *= x1
        xe <<= 1
        if x1 < 0.5:
            x1 += x1
            xe -= 1
        i >>= 1
    if y < 0:
        a1, ae = 1 / a1, -ae
    return _ldexp(a1, ae)


class _MachineDependent(Exception):
    """Terraform's result depends on the processor it runs on."""


def _is_odd_int(y: float) -> bool:
    if abs(y) >= 1 << 53:
        return False
    fraction, integral = math.modf(y)
    return fraction == 0 and int(integral) & 1 == 1


def _ldexp(fraction: float, exponent: int) -> float:
    """``math.Ldexp``: overflow gives an infinity, never an exception."""
    try:
        return math.ldexp(fraction, exponent)
    except OverflowError:
        return math.copysign(math.inf, fraction)


def _float64(value: Val, call: Call) -> float:
    """``gocty.FromCtyValue`` into a float64: beyond its range is an error, not an infinity."""
    try:
        return to_float(value.raw)
    except OverflowError:
        limit = f"{1.7976931348623157e308:f}"
        raise call_error(call.name, f"value must be between -{limit} and {limit} inclusive") from None


def _from_float(result: float, call: Call) -> Val:
    """``cty.NumberFloatVal``: NaN makes Go's ``big.Float`` panic, which Terraform reports; an
    infinity is a value kapsulint cannot hold, so Unknown."""
    if result != result:
        raise call_error(call.name, "panic in function implementation: Float.SetFloat64(NaN)")
    try:
        return number(from_float(result), call.loc)
    except Unrepresentable:
        return Val(UNKNOWN, call.loc, type=NUMBER)


@function("signum", Param("num", NUMBER), returns=NUMBER)
def _signum(args: list[Val], call: Call) -> Val:
    value = go_int(args[0])
    if value is None:
        raise call_error(call.name, INT64_RANGE)
    return number((value > 0) - (value < 0), call.loc)


def _parseint_type(args: list[Val]) -> Type:
    if type_of(args[0]) != STRING:
        raise argument_error("number", f"first argument must be a string, not {type_text(type_of(args[0]))}")
    return NUMBER


@function("parseint", Param("number", DYNAMIC), Param("base", NUMBER), returns=_parseint_type)
def _parseint(args: list[Val], call: Call) -> Val:
    _parseint_type(args)
    base = go_int(args[1])
    if base is None:
        raise argument_error("base", INT64_RANGE)
    if not 2 <= base <= 62:
        raise argument_error("base", "base must be a whole number between 2 and 62 inclusive")
    text = args[0].raw
    parsed = _big_int(text, base)
    if parsed is None:
        raise argument_error("number", f"cannot parse {go_quote(text)} as a base {base} integer")
    return number(round_to_precision(parsed), call.loc)


_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _big_int(text: str, base: int) -> int | None:
    """Go's ``big.Int.SetString(text, base)`` for a base from 2 to 62: an optional sign, then
    digits only (no prefix, no underscore); up to base 36 letters of either case are digits."""
    body = text[1:] if text[:1] in "+-" else text
    if not body:
        return None
    result = 0
    for char in body:
        if not char.isascii():
            return None
        digit = _DIGITS.find(char if base > 36 else char.lower())
        if digit < 0 or digit >= base:
            return None
        result = result * base + digit
    return -result if text.startswith("-") else result
