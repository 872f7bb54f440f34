"""Terraform's numbers: go-cty numbers, Go ``big.Float`` values with a 512-bit mantissa.

A number is held exactly as the rational value of that ``big.Float``: an ``int`` when it is
integral, else a :class:`fractions.Fraction` (always with a power-of-two denominator). Every
operation computes the exact result and rounds it to the precision Go would round it to, to
nearest even, so results and their printed form match Terraform's byte for byte.

Two facts of a ``big.Float`` a plain rational cannot carry are kept by subclasses:

- a number that came from a Go ``float64`` (``pow``, ``log``, ``floor``...) has a 53-bit
  precision, and Go keeps that precision through an operation whose operands both have it
  (``pow(2, 0.5) + pow(3, 0.5)`` prints 17 digits, ``pow(2, 0.5) + 1`` prints 53): such numbers
  are :class:`Float64Int` or :class:`Float64Fraction`;
- negative zero (``-0``, ``0 * -1``) prints ``-0``: it is :data:`NEGATIVE_ZERO`, an ``int``
  equal to 0.

Infinities (``1/0`` is ``+Inf`` in Terraform) have no place in a kapsulint value: an operation
whose result would be infinite raises :class:`Unrepresentable`, and the caller gives Unknown.

Sources, at the tags Terraform 1.11 builds with:
https://github.com/zclconf/go-cty/blob/v1.16.2/cty/value_init.go (``ParseNumberVal``),
https://github.com/zclconf/go-cty/blob/v1.16.2/cty/value_ops.go (arithmetic),
https://github.com/zclconf/go-cty/blob/v1.16.2/cty/function/stdlib/number.go (operator errors),
https://github.com/golang/go/blob/go1.23.0/src/math/big/floatconv.go (parsing),
https://github.com/golang/go/blob/go1.23.0/src/math/big/ftoa.go (``Text('f', -1)``).
"""

from __future__ import annotations

from fractions import Fraction

from kapsulint.terraform.errors import EvalError
from kapsulint.text import lazy_pattern

Number = int | Fraction

PRECISION = 512
"""The mantissa bits of a number Terraform parses or computes."""
FLOAT64_PRECISION = 53
"""The mantissa bits of a number that went through a Go ``float64``."""

_LIMIT = 1 << PRECISION  # integers strictly inside (-_LIMIT, _LIMIT) are exact at 512 bits
_HALF_LIMIT = 1 << (PRECISION // 2)  # below, Go's rounded quotient truncates to the exact one
_MAX_DECIMAL_EXPONENT = 100_000  # beyond, the value is absurd for a configuration: Unrepresentable


class Unrepresentable(Exception):
    """Terraform's result is a number a kapsulint value cannot hold (``+Inf``, ``-Inf``, or an
    exponent beyond any configuration's needs): the caller gives Unknown."""


class Float64Int(int):
    """An integral number with a 53-bit precision (it came from a Go ``float64``)."""

    __slots__ = ()


class Float64Fraction(Fraction):
    """A non-integral number with a 53-bit precision (it came from a Go ``float64``)."""

    __slots__ = ()


class _NegativeZero(int):
    """Go's negative zero: equal to 0, printed ``-0``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NEGATIVE_ZERO"


NEGATIVE_ZERO = _NegativeZero(0)


def precision(x: Number) -> int:
    """The mantissa bits Go holds ``x`` with."""
    return FLOAT64_PRECISION if isinstance(x, (Float64Int, Float64Fraction)) else PRECISION


def _negative(x: Number) -> bool:
    """The sign bit of ``x`` (true for negative zero)."""
    return x < 0 or x is NEGATIVE_ZERO


def round_to_precision(x: Number, bits: int = PRECISION) -> Number:
    """``x`` rounded to ``bits`` mantissa bits, to nearest even, as a ``big.Float`` holds it.

    A result of 53 bits is tagged as such (:class:`Float64Int`, :class:`Float64Fraction`)."""
    if type(x) is int and bits == PRECISION and -_LIMIT < x < _LIMIT:
        return x
    if x == 0:
        return x if x is NEGATIVE_ZERO else 0
    num, den = abs(x.numerator), x.denominator
    # exponent e with 2**(e-1) <= |x| < 2**e
    e = num.bit_length() - den.bit_length()
    if (num >= den << e) if e >= 0 else (num << -e >= den):
        e += 1
    shift = bits - e  # mantissa = |x| * 2**shift, in [2**(bits-1), 2**bits)
    if shift >= 0:
        mantissa, remainder = divmod(num << shift, den)
        twice, divisor = remainder * 2, den
    else:
        mantissa, remainder = divmod(num, den << -shift)
        twice, divisor = remainder * 2, den << -shift
    if twice > divisor or (twice == divisor and mantissa & 1):
        mantissa += 1
    if x < 0:
        mantissa = -mantissa
    if shift <= 0:
        result: Number = mantissa << -shift
    else:
        result = Fraction(mantissa, 1 << shift)
        if result.denominator == 1:
            result = result.numerator
    if bits == FLOAT64_PRECISION:
        return Float64Int(result) if isinstance(result, int) else Float64Fraction(result)
    return result


def _result(exact: Number, a: Number, b: Number, negative_zero: bool) -> Number:
    """The exact result of an operation on ``a`` and ``b``, as Go rounds and signs it."""
    if exact == 0:
        return NEGATIVE_ZERO if negative_zero else 0
    return round_to_precision(exact, max(precision(a), precision(b)))


_NUMBER = lazy_pattern(r"([+-]?)([0-9]*)(?:\.([0-9]*))?(?:([eEpP])([+-]?[0-9]+))?")


def parse_number(text: str) -> Number:
    """The number Terraform reads from ``text`` (go-cty's ``ParseNumberVal``:
    ``big.ParseFloat(text, 10, 512, ToNearestEven)``), or :class:`EvalError`.

    Go's base-10 syntax: an optional sign, decimal digits with at most one ``.``, an optional
    exponent ``e``/``E`` (a power of ten) or ``p``/``P`` (a power of two); no spaces, no
    underscores, no ``0x``. ``Inf`` and ``inf`` (signed or not) parse as infinities:
    :class:`Unrepresentable`."""
    if text in ("Inf", "inf", "+Inf", "+inf", "-Inf", "-inf"):
        raise Unrepresentable(text)
    match = _NUMBER.fullmatch(text)
    if match is None or not (match.group(2) or match.group(3)):
        raise EvalError("a number is required")
    sign, whole, fraction, marker, exponent = match.groups()
    fraction = fraction or ""
    mantissa = int(whole + fraction) if whole + fraction else 0
    if mantissa == 0:
        return NEGATIVE_ZERO if sign == "-" else 0
    exp2 = exp5 = -len(fraction)
    if exponent is not None:
        power = int(exponent)
        exp2 += power
        if marker in "eE":
            exp5 += power
    if not -(1 << 31) <= mantissa.bit_length() + exp2 < 1 << 31:
        raise EvalError("a number is required")  # Go: "exponent overflow"
    if abs(exp5) > _MAX_DECIMAL_EXPONENT or abs(exp2) > 4 * _MAX_DECIMAL_EXPONENT:
        raise Unrepresentable(text)
    value: Number = mantissa << exp2 if exp2 >= 0 else Fraction(mantissa, 1 << -exp2)
    if exp5 > 0:
        value = value * _pow5(exp5)
    elif exp5 < 0:
        value = Fraction(value) / _pow5(-exp5)
    value = round_to_precision(value)
    return -value if sign == "-" else value


def _pow5(n: int) -> Number:
    """5**n as Go's ``Float.pow5`` computes it for a parse: 576 bits, its factor 640 bits."""
    if n <= 27:
        return 5**n
    result: Number = 5**27
    factor: Number = 5
    n -= 27
    while n:
        if n & 1:
            result = round_to_precision(result * factor, PRECISION + 64)
        factor = round_to_precision(factor * factor, PRECISION + 128)
        n >>= 1
    return result


def add(a: Number, b: Number) -> Number:
    if type(a) is int and type(b) is int:
        exact = a + b
        return exact if -_LIMIT < exact < _LIMIT else round_to_precision(exact)
    return _result(a + b, a, b, a is NEGATIVE_ZERO and b is NEGATIVE_ZERO)


def subtract(a: Number, b: Number) -> Number:
    if type(a) is int and type(b) is int:
        exact = a - b
        return exact if -_LIMIT < exact < _LIMIT else round_to_precision(exact)
    return _result(a - b, a, b, a is NEGATIVE_ZERO and b == 0 and b is not NEGATIVE_ZERO)


def multiply(a: Number, b: Number) -> Number:
    if type(a) is int and type(b) is int and a and b:
        exact = a * b
        return exact if -_LIMIT < exact < _LIMIT else round_to_precision(exact)
    return _result(a * b, a, b, _negative(a) != _negative(b))


def divide(a: Number, b: Number) -> Number:
    """``a / b``; ``x / 0`` is an infinity (:class:`Unrepresentable`), ``0 / 0`` an error."""
    if b == 0:
        if a == 0:
            raise EvalError("can't divide zero by zero or infinity by infinity")
        raise Unrepresentable("infinity")
    return _result(Fraction(a) / b, a, b, _negative(a) != _negative(b))


def modulo(a: Number, b: Number) -> Number:
    """``a % b`` as go-cty computes it: ``a - b * trunc(a / b)``, so the result has the sign of
    ``a`` (``-5 % 3`` is -2, ``5.5 % 2`` is 1.5), and ``a % 0`` is ``a``."""
    if b == 0:
        return a
    if type(a) is int and type(b) is int:
        if -_HALF_LIMIT < a < _HALF_LIMIT and -_HALF_LIMIT < b < _HALF_LIMIT:
            remainder = abs(a) % abs(b)
            return -remainder if a < 0 else remainder
    quotient = divide(a, b)
    truncated = int(quotient)  # toward zero, as big.Float.Int
    bits = precision(a)
    work = round_to_precision(truncated, bits) if truncated else 0
    work = round_to_precision(b * work, bits) if work else (NEGATIVE_ZERO if _negative(b) else 0)
    exact = a - work
    if exact == 0:
        return NEGATIVE_ZERO if a is NEGATIVE_ZERO and not _negative(work) else 0
    return round_to_precision(exact, bits)


def negate(a: Number) -> Number:
    if a == 0:
        return 0 if a is NEGATIVE_ZERO else NEGATIVE_ZERO
    return type(a)(-a) if isinstance(a, (Float64Int, Float64Fraction)) else -a


def equals(a: Number, b: Number) -> bool:
    """go-cty compares numbers by their printed form; at one precision that is equality."""
    return a == b


def less_than(a: Number, b: Number) -> bool:
    return a < b


def less_than_or_equal(a: Number, b: Number) -> bool:
    return a <= b


def greater_than(a: Number, b: Number) -> bool:
    return a > b


def greater_than_or_equal(a: Number, b: Number) -> bool:
    return a >= b


def from_float(f: float) -> Number:
    """The number a Go function returning a ``float64`` gives (``cty.NumberFloatVal``): exact,
    with a 53-bit precision. NaN and infinities raise :class:`Unrepresentable`."""
    if f != f or f in (float("inf"), float("-inf")):
        raise Unrepresentable(repr(f))
    if f == 0:
        return NEGATIVE_ZERO if str(f).startswith("-") else 0
    exact = Fraction(f)
    if exact.denominator == 1:
        return Float64Int(exact.numerator)
    return Float64Fraction(exact)


def to_float(x: Number) -> float:
    """``x`` as a Go ``float64`` (``big.Float.Float64``, nearest even), for functions that
    compute in ``float64``. :class:`OverflowError` beyond its range."""
    return -0.0 if x is NEGATIVE_ZERO else float(x)


def format_number(x: Number) -> str:
    """The text Terraform writes for ``x`` (``tostring``, templates, ``jsonencode``): Go's
    ``big.Float.Text('f', -1)``, the shortest decimal that reads back as ``x`` at its precision,
    never in exponent form."""
    if type(x) is int and -_LIMIT < x < _LIMIT:
        return str(x)
    if x == 0:
        return "-0" if x is NEGATIVE_ZERO else "0"
    digits, point = _shortest(-x if x < 0 else x, precision(x))
    sign = "-" if x < 0 else ""
    if point >= len(digits):
        return sign + digits + "0" * (point - len(digits))
    if point > 0:
        return sign + digits[:point] + "." + digits[point:]
    return sign + "0." + "0" * -point + digits


def _decimal(mantissa: int, exponent: int) -> tuple[str, int]:
    """The exact decimal of ``mantissa * 2**exponent``: digits without trailing zeros, and
    the position of the decimal point (value = 0.digits * 10**point)."""
    if exponent >= 0:
        digits = str(mantissa << exponent)
        point = len(digits)
    else:
        digits = str(mantissa * 5**-exponent)
        point = len(digits) + exponent
    return digits.rstrip("0"), point


def _shortest(x: Number, bits: int) -> tuple[str, int]:
    """Go's ``roundShortest`` for positive ``x`` held with ``bits`` of mantissa: the exact
    decimal of ``x`` cut at the first digit where it is told apart from the decimals of
    ``x - ulp/2`` and ``x + ulp/2`` (digit by digit, as Go compares them)."""
    num, den = x.numerator, x.denominator
    e = num.bit_length() - den.bit_length()  # Go's x.exp: 2**(e-1) <= x < 2**e
    if (num >= den << e) if e >= 0 else (num << -e >= den):
        e += 1
    exponent = e - bits - 1  # mantissa of bits+1 bits: its lsb is half an ulp
    mantissa = (num << -exponent) // den if exponent < 0 else num >> exponent
    digits, point = _decimal(mantissa, exponent)
    lower, _ = _decimal(mantissa - 1, exponent)
    upper, _ = _decimal(mantissa + 1, exponent)
    inclusive = mantissa & 2 == 0
    for i, m in enumerate(digits):
        low = lower[i] if i < len(lower) else "0"
        up = upper[i] if i < len(upper) else "0"
        okdown = low != m or (inclusive and i + 1 == len(lower))
        okup = m != up and (inclusive or int(m) + 1 < int(up) or i + 1 < len(upper))
        if okdown and okup:
            return _round_half_even(digits, point, i + 1)
        if okdown:
            return digits[: i + 1].rstrip("0"), point
        if okup:
            return _round_up(digits, point, i + 1)
    return digits, point


def _round_half_even(digits: str, point: int, n: int) -> tuple[str, int]:
    """Go's ``decimal.round``: to ``n`` digits, half to even."""
    if n >= len(digits):
        return digits, point
    if digits[n] == "5" and n + 1 == len(digits):
        up = n > 0 and int(digits[n - 1]) % 2 == 1
    else:
        up = digits[n] >= "5"
    return _round_up(digits, point, n) if up else (digits[:n].rstrip("0"), point)


def _round_up(digits: str, point: int, n: int) -> tuple[str, int]:
    """Go's ``decimal.roundUp``: keep ``n`` digits, add one at the last."""
    if n >= len(digits):
        return digits, point
    head = digits[:n].rstrip("9")
    if not head:
        return "1", point + 1
    return head[:-1] + str(int(head[-1]) + 1), point
