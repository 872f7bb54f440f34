"""Terraform's string functions, each declared and behaving as Terraform 1.11 does.

Declarations and behaviour follow go-cty v1.16.0 (the version Terraform 1.11.4 builds with):
https://github.com/zclconf/go-cty/blob/v1.16.0/cty/function/stdlib/string.go,
https://github.com/zclconf/go-cty/blob/v1.16.0/cty/function/stdlib/format.go (with its scanner
``format_fsm.rl``), https://github.com/zclconf/go-cty/blob/v1.16.0/cty/function/stdlib/regexp.go,
and Terraform's https://github.com/hashicorp/terraform/blob/v1.11.4/internal/lang/funcs/string.go
(``startswith``, ``endswith``, ``strcontains``, ``replace``, ``templatestring``). Go's library
functions they call are reproduced where Python's differ: ``strings.ToUpper`` maps rune by rune
with simple case mappings (``upper("ß")`` is ``ß``), ``strings.TrimSpace`` uses Go's
``unicode.IsSpace``, ``fmt`` formats ``big.Float`` and ``big.Int`` as Go does
(https://github.com/golang/go/blob/go1.23.3/src/math/big/ftoa.go, ``intconv.go``).

Characters are grapheme clusters (``substr``, ``strrev``, ``format`` widths), as go-textseg v15
segments them (Unicode 15.0, https://www.unicode.org/reports/tr29/tr29-41.html): see
:func:`grapheme_clusters`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

from kapsulint.terraform import numbers
from kapsulint.terraform.budget import NODE_BYTES as _NODE_BYTES
from kapsulint.terraform.budget import RegexTimer
from kapsulint.terraform.convert import convert, go_quote
from kapsulint.terraform.encode import json_encode, json_string
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.functions.regex import GoSyntaxError, Translation, Untranslatable, translate
from kapsulint.terraform.functions.registry import Call, Param, function
from kapsulint.terraform.types import (
    BOOL,
    DYNAMIC,
    NUMBER,
    STRING,
    ListType,
    MapType,
    ObjectType,
    SetType,
    TupleType,
    Type,
    type_of,
)
from kapsulint.terraform.values import UNKNOWN, Val

if TYPE_CHECKING:
    import regex as engine

# ------------------------------------------------------------------------------ grapheme clusters

@cache
def _pattern(text: str) -> engine.Pattern:
    """A ``regex`` pattern compiled on first use: most runs never need the engine, whose import
    costs more than the rest of the function library."""
    import regex

    return regex.compile(text)


def grapheme_clusters(text: str) -> list[str]:
    """``text`` split into extended grapheme clusters as go-textseg v15 splits it.

    The ``regex`` engine's ``\\X`` follows a later Unicode, whose rule GB9c keeps an Indic
    conjunct (consonant, virama, consonant) in one cluster; Unicode 15.0 breaks before the
    second consonant (``length("क्ष")`` is 2 in Terraform), so clusters are split there."""
    if text.isascii():
        if "\r\n" not in text:
            return list(text)
        return _pattern(r"\X").findall(text)
    clusters: list[str] = []
    for cluster in _pattern(r"\X").findall(text):
        start = 0
        for index in range(1, len(cluster)):
            if _breaks_conjunct(cluster, index):
                clusters.append(cluster[start:index])
                start = index
        clusters.append(cluster[start:])
    return clusters


def _breaks_conjunct(cluster: str, index: int) -> bool:
    """Unicode 15.0 breaks a cluster of the engine's before an Indic conjunct's consonant."""
    return bool(_pattern(r"\p{InCB=Consonant}").match(cluster[index])
                and not _pattern(r"\p{GCB=Prepend}").match(cluster[index - 1]))


def cluster_count(text: str) -> int:
    """``len(grapheme_clusters(text))``, without building the clusters of a long text."""
    if text.isascii():
        return len(text) - text.count("\r\n")
    count = 0
    for match in _pattern(r"\X").finditer(text):
        cluster = match.group()
        count += 1 + sum(1 for index in range(1, len(cluster)) if _breaks_conjunct(cluster, index))
    return count


_CLUSTER_BYTES = 64
"""What one cluster of a text that is not ASCII costs once split (a string object each)."""


def _clusters(text: str, call: Call) -> list[str] | str:
    """The grapheme clusters of ``text`` for slicing: an ASCII text without CR LF is its own
    list of clusters; another is split, its clusters charged first."""
    if text.isascii() and "\r\n" not in text:
        return text
    call.ensure(len(text) * _CLUSTER_BYTES)
    return grapheme_clusters(text)


# --------------------------------------------------------------------------------------- helpers


def _string(raw: str, call: Call) -> Val:
    return Val(raw, call.loc, type=STRING)


def _bool(raw: bool, call: Call) -> Val:
    return Val(raw, call.loc, type=BOOL)


def _failed(call: Call, detail: str) -> EvalError:
    """A function's own error, as HCL reports it."""
    return EvalError(f'Error in function call: Call to function "{call.name}" failed: {detail}.')


def _invalid(param: str, detail: str) -> EvalError:
    """An error go-cty attributes to one argument (``function.NewArgError``)."""
    return EvalError(f'Invalid function argument: Invalid value for "{param}" parameter: {detail}.')


_INT64 = (-(1 << 63), (1 << 63) - 1)


def _go_int(value: Val, call: Call) -> int:
    """``gocty.FromCtyValue(number, &int)``: a whole number in Go's int range, or its error."""
    raw = value.raw
    if not isinstance(raw, int) or not _INT64[0] <= raw <= _INT64[1]:
        raise _failed(call, f"value must be a whole number, between {_INT64[0]} and {_INT64[1]}")
    return int(raw)


_GO_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
"""Go's ``unicode.IsSpace``: Latin-1 spaces and the White_Space property."""


def _map_runes(text: str, mapping: dict[str, str], convert_char: Callable[[str], str]) -> str:
    """``text`` mapped rune by rune (Go's ``strings.Map``), each rune's mapping cached."""
    out = []
    for char in text:
        mapped = mapping.get(char)
        if mapped is None:
            mapped = mapping[char] = convert_char(char)
        out.append(mapped)
    return "".join(out)


def _simple_upper(char: str) -> str:
    """Go's ``unicode.ToUpper``: a one-rune mapping, never ``ß`` -> ``SS``."""
    upper = char.upper()
    if len(upper) == 1:
        return upper
    title = char.title()  # U+1FB3 and its kin: the simple uppercase is the one-rune titlecase
    return title if len(title) == 1 else char


def _simple_lower(char: str) -> str:
    lower = char.lower()
    if len(lower) == 1:
        return lower
    return "i" if char == "\u0130" else char


def _simple_title(char: str) -> str:
    title = char.title()
    return title if len(title) == 1 else char


def _room_to_map(text: str, call: Call, every_character: bool = False) -> None:
    """Room in the budget for mapping ``text`` rune by rune: a list of its characters beside the
    result (ASCII is mapped by Python in one piece, unless ``every_character``)."""
    call.ensure(len(text) * (9 if every_character or not text.isascii() else 1))


_UPPER: dict[str, str] = {}
_LOWER: dict[str, str] = {}
_TITLE: dict[str, str] = {}


# ------------------------------------------------------------------------ case and plain editing


@function("upper", Param("str", STRING), returns=STRING)
def _upper(args: list[Val], call: Call) -> Val:
    text = args[0].raw
    _room_to_map(text, call)
    return _string(text.upper() if text.isascii() else _map_runes(text, _UPPER, _simple_upper), call)


@function("lower", Param("str", STRING), returns=STRING)
def _lower(args: list[Val], call: Call) -> Val:
    text = args[0].raw
    _room_to_map(text, call)
    return _string(text.lower() if text.isascii() else _map_runes(text, _LOWER, _simple_lower), call)


def _is_separator(char: str) -> bool:
    """Go's ``strings.isSeparator`` (the word boundaries of ``strings.Title``)."""
    if char.isascii():
        return not (char.isalnum() or char == "_")
    category = unicodedata.category(char)
    if category.startswith("L") or category == "Nd":
        return False
    return char in _GO_SPACE


@function("title", Param("str", STRING), returns=STRING)
def _title(args: list[Val], call: Call) -> Val:
    _room_to_map(args[0].raw, call, every_character=True)
    out = []
    previous = " "
    for char in args[0].raw:
        out.append(_map_runes(char, _TITLE, _simple_title) if _is_separator(previous) else char)
        previous = char
    return _string("".join(out), call)


@function("strrev", Param("str", STRING), returns=STRING)
def _strrev(args: list[Val], call: Call) -> Val:
    return _string("".join(reversed(_clusters(args[0].raw, call))), call)


@function("chomp", Param("str", STRING), returns=STRING)
def _chomp(args: list[Val], call: Call) -> Val:
    # go-cty removes the match of (?:\r\n?|\n)*\z: every trailing \r and \n, in any order
    return _string(args[0].raw.rstrip("\r\n"), call)


@function("trimspace", Param("str", STRING), returns=STRING)
def _trimspace(args: list[Val], call: Call) -> Val:
    return _string(args[0].raw.strip(_GO_SPACE), call)


@function("trim", Param("str", STRING), Param("cutset", STRING), returns=STRING)
def _trim(args: list[Val], call: Call) -> Val:
    cutset = args[1].raw
    return _string(args[0].raw.strip(cutset) if cutset else args[0].raw, call)


@function("trimprefix", Param("str", STRING), Param("prefix", STRING), returns=STRING)
def _trimprefix(args: list[Val], call: Call) -> Val:
    return _string(args[0].raw.removeprefix(args[1].raw), call)


@function("trimsuffix", Param("str", STRING), Param("suffix", STRING), returns=STRING)
def _trimsuffix(args: list[Val], call: Call) -> Val:
    return _string(args[0].raw.removesuffix(args[1].raw), call)


@function("indent", Param("spaces", NUMBER), Param("str", STRING), returns=STRING)
def _indent(args: list[Val], call: Call) -> Val:
    spaces = _go_int(args[0], call)
    if spaces < 0:
        # strings.Repeat panics; go-cty reports the panic (with a stack trace) as the error
        raise _failed(call, "panic in function implementation: strings: negative Repeat count")
    text = args[1].raw
    call.ensure(len(text) + text.count("\n") * spaces)
    return _string(text.replace("\n", "\n" + " " * spaces), call)


@function("startswith", Param("str", STRING, allow_unknown=True), Param("prefix", STRING), returns=BOOL)
def _startswith(args: list[Val], call: Call) -> Val:
    text, prefix = args
    if text.raw is UNKNOWN:
        # an Unknown string may still have a known prefix in Terraform; kapsulint's has none
        return _bool(True, call) if prefix.raw == "" else Val(UNKNOWN, call.loc, type=BOOL)
    return _bool(text.raw.startswith(prefix.raw), call)


@function("endswith", Param("str", STRING), Param("suffix", STRING), returns=BOOL)
def _endswith(args: list[Val], call: Call) -> Val:
    return _bool(args[0].raw.endswith(args[1].raw), call)


@function("strcontains", Param("str", STRING), Param("substr", STRING), returns=BOOL)
def _strcontains(args: list[Val], call: Call) -> Val:
    return _bool(args[1].raw in args[0].raw, call)


@function("split", Param("separator", STRING), Param("str", STRING), returns=ListType(STRING))
def _split(args: list[Val], call: Call) -> Val:
    separator, text = args[0].raw, args[1].raw
    # Go's strings.Split: an empty separator splits after each rune, and "" splits to nothing
    call.ensure(len(text) + _NODE_BYTES * (len(text) if separator == "" else text.count(separator) + 1))
    parts = list(text) if separator == "" else text.split(separator)
    return Val([_string(part, call) for part in parts], call.loc, type=ListType(STRING))


@function("join", Param("separator", STRING), varparam=Param("lists", ListType(STRING)), returns=STRING)
def _join(args: list[Val], call: Call) -> Val:
    lists = args[1:]
    if not lists:
        raise _failed(call, "at least one list is required")
    items: list[str] = []
    for number, joined in enumerate(lists, start=1):
        for index, element in enumerate(joined.raw):
            if element.raw is None:
                where = f"element {index} of list {number}" if len(lists) > 1 else f"element {index}"
                raise _invalid("lists", f"{where} is null; cannot concatenate null values")
            items.append(element.raw)
    separator = args[0].raw
    call.ensure(sum(map(len, items)) + len(separator) * max(0, len(items) - 1))  # before joining
    return _string(separator.join(items), call)


@function("substr", Param("str", STRING), Param("offset", NUMBER), Param("length", NUMBER), returns=STRING)
def _substr(args: list[Val], call: Call) -> Val:
    """go-cty's ``substr``, including its corners: an offset still negative after adding the
    length counts from the start, and a zero length with a negative offset takes the rest."""
    offset = _go_int(args[1], call)
    length = _go_int(args[2], call)
    clusters = _clusters(args[0].raw, call)
    if offset < 0:
        offset += len(clusters)
    elif length == 0:
        return _string("", call)
    if offset > len(clusters):
        return _string("", call)
    rest = clusters[offset:] if offset > 0 else clusters
    if length <= 0:
        return _string("".join(rest), call)
    return _string("".join(rest[:length]), call)


# ----------------------------------------------------------------------------------------- format


class _Verb:
    """One ``%`` sequence of a format string, as go-cty's scanner reads it."""

    __slots__ = ("arg", "minus", "mode", "offset", "plus", "precision", "raw", "sharp", "space", "width", "zero")

    def __init__(self, offset: int, arg: int) -> None:
        self.raw = ""
        self.offset = offset
        self.arg = arg
        self.mode = ""
        self.zero = self.sharp = self.plus = self.minus = self.space = False
        self.width = -1
        self.precision = -1


class _FormatError(Exception):
    """An error of the format scanner or of one verb; ``argument`` when go-cty blames an argument."""

    def __init__(self, message: str, argument: bool = False) -> None:
        super().__init__(message)
        self.argument = argument


_FLAGS = {"0": "zero", "#": "sharp", "-": "minus", "+": "plus", " ": "space"}


def _scan_verb(text: str, start: int, next_arg: int) -> tuple[_Verb, int]:
    """The verb at ``text[start]`` (a ``%``): the ragel machine ``fmt_verb`` of format_fsm.rl."""
    verb = _Verb(start, next_arg)
    i = start + 1
    end = len(text)

    def unexpected(at: int) -> _FormatError:
        if at >= end:
            return _FormatError(f"invalid format string starting at offset {end}")
        return _FormatError(f"unrecognized format character {_go_rune(text[at])} at offset {at}")

    while i < end and text[i] in _FLAGS:
        setattr(verb, _FLAGS[text[i]], True)
        i += 1
    if i < end and "1" <= text[i] <= "9":
        j = i
        while j < end and "0" <= text[j] <= "9":
            j += 1
        verb.width, i = int(text[i:j]), j
    if i < end and text[i] == ".":
        j = i + 1
        while j < end and "0" <= text[j] <= "9":
            j += 1
        verb.precision, i = int(text[i + 1:j] or "0"), j
    if i < end and text[i] == "[":
        i += 1
        if not (i < end and "1" <= text[i] <= "9"):
            raise unexpected(i)
        j = i
        while j < end and "0" <= text[j] <= "9":
            j += 1
        verb.arg = int(text[i:j])
        if j >= end or text[j] != "]":
            raise unexpected(j)
        i = j + 1
    if i >= end or not (text[i].isascii() and text[i].isalpha()):
        raise unexpected(i)
    verb.mode = text[i]
    verb.raw = text[start:i + 1]
    return verb, i + 1


def _go_rune(char: str) -> str:
    """Go's ``%q`` of a rune (``strconv.QuoteRune``): single-quoted."""
    quoted = {'"': '"', "'": "\\'"}.get(char) or go_quote(char)[1:-1]
    return f"'{quoted}'"


def _format(text: str, args: list[Val], call: Call, built: int = 0) -> str:
    """go-cty's ``formatFSM``. Before each verb the call's budget must have room for what is
    built so far (``built`` bytes by the caller before this text) and the verb's width and
    precision: ``%10000000d`` is refused before its padding exists."""
    out: list[str] = []
    next_arg = 1
    highest = 0
    i = 0
    end = len(text)
    while i < end:
        char = text[i]
        if char != "%":
            out.append(char)
            i += 1
            continue
        if i + 1 < end and text[i + 1] == "%":
            out.append("%")
            i += 2
            continue
        verb, i = _scan_verb(text, i, next_arg)
        highest = max(highest, verb.arg)
        call.ensure(built + i + max(verb.width, 0) + max(verb.precision, 0))
        piece = _format_verb(verb, args, call)
        built += len(piece)
        out.append(piece)
        next_arg = verb.arg + 1
    if highest < len(args):
        if highest == 0:
            raise _FormatError("too many arguments; no verbs in format string", argument=True)
        raise _FormatError(f"too many arguments; only {highest} used by format string", argument=True)
    return "".join(out)


def _format_verb(verb: _Verb, args: list[Val], call: Call) -> str:
    """go-cty's ``formatAppend``."""
    if verb.arg > len(args):
        raise _FormatError(
            f"not enough arguments for {go_quote(verb.raw)} at {verb.offset}: "
            f"need index {verb.arg} but have {len(args)} total"
        )
    arg = args[verb.arg - 1]
    if verb.mode != "v" and arg.raw is None:
        raise _FormatError(f"unsupported value for {go_quote(verb.raw)} at {verb.offset}: null value cannot be formatted")
    mode = verb.mode
    if mode == "v":
        return _format_as_is(verb, arg, call)
    if mode == "t":
        return "true" if _converted(verb, arg, BOOL).raw else "false"
    if mode in "bdoxXeEfgG":
        number = _converted(verb, arg, NUMBER).raw
        if mode in "bdoxX":
            if not isinstance(number, int):
                raise _FormatError(f"unsupported value for {go_quote(verb.raw)} at {verb.offset}: an integer is required")
            return _go_int_format(verb, int(number))
        return _go_float_format(verb, number)
    if mode in "sq":
        string = _converted(verb, arg, STRING).raw
        if verb.precision > 0:
            string = "".join(_clusters(string, call)[: verb.precision])
        return _pad(verb, string if mode == "s" else json_string(string), call)
    raise _FormatError(f"unsupported format verb {_go_rune(mode)} in {go_quote(verb.raw)} at offset {verb.offset}")


def _converted(verb: _Verb, arg: Val, target: Type) -> Val:
    try:
        return convert(arg, target)
    except EvalError as error:
        raise _FormatError(f"unsupported value for {go_quote(verb.raw)} at {verb.offset}: {error}") from None


def _format_as_is(verb: _Verb, arg: Val, call: Call) -> str:
    """``%v`` and ``%#v``: strings and numbers plainly (numbers as ``%g``), the rest as JSON."""
    if not verb.sharp and arg.raw is not None:
        ty = type_of(arg)
        if ty == STRING:
            return _pad(verb, arg.raw, call)
        if ty == NUMBER:
            return _pad(verb, _float_text(arg.raw, "g", -1), call)
    call.room_for(arg)
    return _pad(verb, json_encode(arg), call)


def _pad(verb: _Verb, text: str, call: Call) -> str:
    """go-cty's ``formatPadWidth``: width in grapheme clusters, zeros or spaces, either side."""
    if verb.width < 0:
        return text
    missing = verb.width - cluster_count(text)
    if missing <= 0:
        return text
    padding = ("0" if verb.zero else " ") * missing
    return text + padding if verb.minus else padding + text


def _go_int_format(verb: _Verb, number: int) -> str:
    """Go's ``big.Int.Format`` for ``%b %d %o %x %X`` with flags, width and precision."""
    base = {"b": 2, "d": 10, "o": 8, "x": 16, "X": 16}[verb.mode]
    digits = _to_base(abs(number), base)
    if verb.mode == "X":
        digits = digits.upper()
    sign = "-" if number < 0 else "+" if verb.plus else " " if verb.space else ""
    prefix = {"b": "0b", "o": "0", "x": "0x", "X": "0X"}.get(verb.mode, "") if verb.sharp else ""
    zeros = 0
    if verb.precision >= 0:
        if len(digits) < verb.precision:
            zeros = verb.precision - len(digits)
        elif digits == "0" and verb.precision == 0:
            return ""
    left = right = 0
    length = len(sign) + len(prefix) + zeros + len(digits)
    if verb.width >= 0 and length < verb.width:
        missing = verb.width - length
        if verb.minus:
            right = missing
        elif verb.zero and verb.precision < 0:
            zeros = missing
        else:
            left = missing
    return " " * left + sign + prefix + "0" * zeros + digits + " " * right


def _to_base(number: int, base: int) -> str:
    if base == 10:
        return str(number)
    return format(number, {2: "b", 8: "o", 16: "x"}[base])


def _go_float_format(verb: _Verb, number: numbers.Number) -> str:
    """Go's ``big.Float.Format`` for ``%e %E %f %g %G``: default precision 6, shortest for
    ``%g``; the ``0`` flag pads with zeros after the sign even with ``-`` (Go's ``fmt`` keeps
    both flags and ``big.Float`` tests ``0`` first)."""
    precision = verb.precision
    if precision < 0 and verb.mode in "eEf":
        precision = 6
    text = _float_text(number, verb.mode, precision)
    sign = ""
    if text.startswith("-"):
        sign, text = "-", text[1:]
    elif verb.plus:
        sign = "+"
    elif verb.space:
        sign = " "
    padding = max(verb.width - len(sign) - len(text), 0) if verb.width >= 0 else 0
    if verb.zero:
        return sign + "0" * padding + text
    if verb.minus:
        return sign + text + " " * padding
    return " " * padding + sign + text


def _exact_decimal(number: numbers.Number) -> tuple[str, int]:
    """The exact decimal digits of a nonzero ``|number|`` (a ``big.Float``, so a dyadic
    rational) and its decimal point: value = 0.digits * 10**point."""
    value = abs(Fraction(number))
    denominator = value.denominator
    exponent = denominator.bit_length() - 1  # a power of two
    mantissa = value.numerator
    if exponent == 0:
        digits = str(mantissa)
        point = len(digits)
    else:
        digits = str(mantissa * 5**exponent)
        point = len(digits) - exponent
    return digits.rstrip("0"), point


def _round(digits: str, point: int, n: int) -> tuple[str, int]:
    """Go's ``decimal.round``: to ``n`` digits, half to even; nothing when n < 0 or n covers
    all digits; a result with no digits has point 0."""
    if n < 0 or n >= len(digits):
        return digits, point
    if digits[n] == "5" and n + 1 == len(digits):
        up = n > 0 and int(digits[n - 1]) % 2 == 1
    else:
        up = digits[n] >= "5"
    if not up:
        kept = digits[:n].rstrip("0")
        return (kept, point) if kept else ("", 0)
    head = digits[:n].rstrip("9")
    if not head:
        return "1", point + 1
    return head[:-1] + str(int(head[-1]) + 1), point


def _float_text(number: numbers.Number, mode: str, precision: int) -> str:
    """Go's ``big.Float.Text(mode, precision)`` (``Append``), sign included."""
    negative = number < 0 or number is numbers.NEGATIVE_ZERO
    if number == 0:
        digits, point = "", 0
    else:
        digits, point = _exact_decimal(number)
    shortest = precision < 0
    lower = mode.lower()
    if shortest:
        if digits:
            digits, point = numbers._shortest(abs(Fraction(number)), numbers.precision(number))
        precision = {"e": len(digits) - 1, "f": max(len(digits) - point, 0), "g": len(digits)}[lower]
    elif lower == "e":
        digits, point = _round(digits, point, 1 + precision)
    elif lower == "f":
        digits, point = _round(digits, point, point + precision)
    else:
        precision = precision or 1
        digits, point = _round(digits, point, precision)
    sign = "-" if negative else ""
    if lower == "e":
        return sign + _fmt_e(digits, point, precision, mode)
    if lower == "f":
        return sign + _fmt_f(digits, point, precision)
    eprec = precision
    if eprec > len(digits) and len(digits) >= point:
        eprec = len(digits)
    if shortest:
        eprec = 6
    exponent = point - 1
    if exponent < -4 or exponent >= eprec:
        precision = min(precision, len(digits))
        return sign + _fmt_e(digits, point, precision - 1, "e" if mode == "g" else "E")
    if precision > point:
        precision = len(digits)
    return sign + _fmt_f(digits, point, max(precision - point, 0))


def _fmt_e(digits: str, point: int, precision: int, letter: str) -> str:
    out = digits[0] if digits else "0"
    if precision > 0:
        out += "." + digits[1:precision + 1].ljust(precision, "0")
    exponent = point - 1 if digits else 0
    return f"{out}{letter}{'-' if exponent < 0 else '+'}{abs(exponent):02d}"


def _fmt_f(digits: str, point: int, precision: int) -> str:
    if point > 0:
        out = digits[:point].ljust(point, "0")
    else:
        out = "0"
    if precision > 0:
        fraction = "".join(
            digits[point + i] if 0 <= point + i < len(digits) else "0" for i in range(precision)
        )
        out += "." + fraction
    return out


def _dynamic_argument(args: list[Val]) -> bool:
    """go-cty gives Unknown (of type dynamic) when an argument of a parameter that does not
    allow the dynamic type has it: a ``null`` literal, or an Unknown of no known type."""
    return any(type_of(arg) == DYNAMIC for arg in args)


@function("format", Param("format", STRING),
          varparam=Param("args", DYNAMIC, allow_null=True, allow_unknown=True), returns=STRING)
def _format_function(args: list[Val], call: Call) -> Val:
    if _dynamic_argument(args[1:]):
        return Val(UNKNOWN, call.loc, type=DYNAMIC)
    if any(arg.contains_unknown() for arg in args[1:]):
        return Val(UNKNOWN, call.loc, type=STRING)
    try:
        return _string(_format(args[0].raw, args[1:], call), call)
    except _FormatError as error:
        raise (_invalid("args", str(error)) if error.argument else _failed(call, str(error))) from None


@function("formatlist", Param("format", STRING),
          varparam=Param("args", DYNAMIC, allow_null=True, allow_unknown=True), returns=ListType(STRING))
def _formatlist(args: list[Val], call: Call) -> Val:
    """go-cty's ``formatlist``: sequences are iterated together, other values repeated."""
    result_type = ListType(STRING)
    text, values = args[0].raw, args[1:]
    if _dynamic_argument(values):
        return Val(UNKNOWN, call.loc, type=DYNAMIC)
    if not values:
        try:
            return Val([_string(_format(text, [], call), call)], call.loc, type=result_type)
        except _FormatError as error:
            raise _failed(call, str(error)) from None
    length = -1
    chooser = -1
    unknown = False
    sequences: list[list[Val] | None] = []
    for index, value in enumerate(values):
        ty = type_of(value)
        if isinstance(ty, (ListType, SetType, TupleType)) and value.raw is not None:
            if value.raw is UNKNOWN and not isinstance(ty, TupleType):
                unknown = True
                sequences.append(None)
                continue
            # an Unknown tuple still has the length of its type
            count = len(ty.elements) if isinstance(ty, TupleType) and value.raw is UNKNOWN else len(value.raw)
            if length == -1:
                length, chooser = count, index
            elif count != length:
                raise _invalid("args", f"argument {index + 1} has length {count}, which is inconsistent with argument {chooser + 1} of length {length}")
            if value.raw is UNKNOWN:
                unknown = True
            sequences.append(None if value.raw is UNKNOWN else value.raw)
        else:
            sequences.append(None)
    if unknown:
        return Val(UNKNOWN, call.loc, type=result_type)
    if length == 0:
        return Val([], call.loc, type=result_type)
    results: list[Val] = []
    built = 0  # bytes of the items so far
    for iteration in range(max(length, 1)):
        current = [
            sequence[iteration] if sequence is not None else value
            for sequence, value in zip(sequences, values)
        ]
        if any(arg.contains_unknown() for arg in current):
            results.append(Val(UNKNOWN, call.loc, type=STRING))
            continue
        try:
            item = _format(text, current, call, built)
            built += _NODE_BYTES + len(item)
            results.append(_string(item, call))
        except _FormatError as error:
            raise _failed(call, f"error on format iteration {iteration}: {error}") from None
    return Val(results, call.loc, type=result_type)


# -------------------------------------------------------------------------------- regular expressions


def _pattern_type(pattern: str) -> Type:
    """go-cty's ``regexPatternResultType``: string, a tuple of strings, or an object of them."""
    try:
        names = translate(pattern).names
    except GoSyntaxError as error:
        raise _invalid("pattern", f"invalid regexp pattern: {error.code} in {error.expr}") from None
    except Untranslatable:
        return DYNAMIC  # the groups are not all read: a value of unknown type
    named = [name for name in names if name]
    if not names:
        return STRING
    if named and len(named) != len(names):
        raise _invalid("pattern", "invalid regexp pattern: cannot mix both named and unnamed capture groups")
    if named:
        return ObjectType(dict.fromkeys(named, STRING))
    return TupleType([STRING] * len(names))


def _regex_type(args: list[Val]) -> Type:
    if args[0].raw is UNKNOWN:
        return DYNAMIC
    return _pattern_type(args[0].raw)


def _regexall_type(args: list[Val]) -> Type:
    if args[0].raw is UNKNOWN:
        return ListType(DYNAMIC)
    return ListType(_pattern_type(args[0].raw))


def _usable(pattern: str, subject: str) -> Translation | None:
    """The compiled pattern, or None when kapsulint cannot match ``subject`` as Go would."""
    try:
        translation = translate(pattern)
    except Untranslatable:
        return None
    return translation if translation.exact_for(subject) else None


class _Groups:
    """One match: the text of each group, None for a group that did not take part."""

    __slots__ = ("data", "spans")

    def __init__(self, data: bytes, spans: list[tuple[int, int]]) -> None:
        self.data = data
        self.spans = spans

    @property
    def end(self) -> int:
        return self.spans[0][1]

    def group(self, index: int) -> str | None:
        start, end = self.spans[index]
        return None if start < 0 else self.data[start:end].decode()


def _search(translation: Translation, data: bytes, position: int, timer: RegexTimer) -> _Groups | None:
    """The leftmost-first match at or after byte ``position`` (``^`` and ``\\b`` still see the
    text before it, as Go's ``doExecute`` does); refused when its worst case does not fit in the
    time left."""
    timer.check((len(data) - position + 1) * translation.size)
    match = translation.compiled.search(data, position)
    if match is None:
        timer.charge((len(data) - position + 1) * translation.size)
        return None
    timer.charge((match.end() - position + 1) * translation.size)
    return _Groups(data, [match.span(index) for index in range(len(translation.names) + 1)])


def _rune_width(data: bytes, position: int) -> int:
    """The UTF-8 length of the character at ``position`` (0 at the end)."""
    if position >= len(data):
        return 0
    lead = data[position]
    return 1 if lead < 0xC0 else 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4


def _all_matches(translation: Translation, data: bytes, call: Call, timer: RegexTimer) -> list[_Groups]:
    """Go's ``Regexp.allMatches``: an empty match right after a match is skipped, and after an
    empty match the search moves on by one character. The budget must have room for each match
    as it is found (``regexall("", text)`` finds one per character)."""
    matches: list[_Groups] = []
    built = 0
    position, previous_end, end = 0, -1, len(data)
    while position <= end:
        match = _search(translation, data, position, timer)
        if match is None:
            break
        start, stop = match.spans[0]
        accept = True
        if stop == position:
            if start == previous_end:
                accept = False
            width = _rune_width(data, position)
            position += width if width else 1
        else:
            position = stop
        previous_end = stop
        if accept:
            built += _NODE_BYTES * (1 + len(translation.names)) + stop - start
            call.ensure(built)
            matches.append(match)
    return matches


def _result(match: _Groups, translation: Translation, ty: Type, call: Call) -> Val:
    if ty == STRING:
        return _string(match.group(0) or "", call)  # group 0 always takes part in a match
    groups = []
    for index in range(1, len(translation.names) + 1):
        text = match.group(index)
        groups.append(Val(None, call.loc, type=STRING) if text is None else _string(text, call))
    if isinstance(ty, TupleType):
        return Val(groups, call.loc, type=ty)
    attributes = dict(zip(translation.names, groups))  # a repeated name: the last
    return Val(attributes, call.loc, type=ty)


@function("regex", Param("pattern", STRING), Param("string", STRING), returns=_regex_type)
def _regex(args: list[Val], call: Call) -> Val:
    ty = _pattern_type(args[0].raw)
    translation = _usable(args[0].raw, args[1].raw)
    if translation is None or ty == DYNAMIC:
        return Val(UNKNOWN, call.loc, type=ty)
    with call.budget.regex_timer(call.loc, call.subject) as timer:
        match = _search(translation, args[1].raw.encode(), 0, timer)
    if match is None:
        raise _failed(call, "pattern did not match any part of the given string")
    return _result(match, translation, ty, call)


@function("regexall", Param("pattern", STRING), Param("string", STRING), returns=_regexall_type)
def _regexall(args: list[Val], call: Call) -> Val:
    ty = _pattern_type(args[0].raw)
    translation = _usable(args[0].raw, args[1].raw)
    if translation is None or ty == DYNAMIC:
        return Val(UNKNOWN, call.loc, type=ListType(ty))
    with call.budget.regex_timer(call.loc, call.subject) as timer:
        matches = _all_matches(translation, args[1].raw.encode(), call, timer)
    return Val([_result(match, translation, ty, call) for match in matches], call.loc, type=ListType(ty))


def _expand(template: str, match: _Groups, names: tuple[str, ...]) -> str:
    """Go's ``Regexp.Expand``: ``$1``, ``${1}``, ``$name``, ``${name}``, ``$$``; a reference to
    no group is empty, a malformed ``$`` is literal."""
    out: list[str] = []
    while True:
        dollar = template.find("$")
        if dollar < 0:
            break
        out.append(template[:dollar])
        template = template[dollar + 1:]
        if template.startswith("$"):
            out.append("$")
            template = template[1:]
            continue
        name, rest = _extract(template)
        if name is None:
            out.append("$")
            continue
        template = rest
        number = int(name) if name.isascii() and name.isdigit() and (name == "0" or not name.startswith("0")) and len(name) <= 9 else -1
        if number >= 0:
            if number <= len(names):
                out.append(match.group(number) or "")
        else:
            for index, group_name in enumerate(names, start=1):
                if group_name == name and (group := match.group(index)) is not None:
                    out.append(group)
                    break
    out.append(template)
    return "".join(out)


def _extract(text: str) -> tuple[str | None, str]:
    """Go's ``extract``: a leading ``name`` or ``{name}`` (letters, digits, ``_``)."""
    brace = text.startswith("{")
    body = text[1:] if brace else text
    i = 0
    while i < len(body):
        char = body[i]
        category = unicodedata.category(char)
        if not (category.startswith("L") or category == "Nd" or char == "_"):
            break
        i += 1
    if i == 0:
        return None, text
    name = body[:i]
    if brace:
        if i >= len(body) or body[i] != "}":
            return None, text
        i += 1
    return name, body[i:]


def _replace_all(translation: Translation, text: str, template: str, call: Call, timer: RegexTimer) -> str:
    """Go's ``Regexp.ReplaceAllString`` loop; the budget must have room for each piece before it
    is kept."""
    data = text.encode()
    out: list[bytes] = []
    built = 0
    last_end = search = 0
    end = len(data)
    while search <= end:
        match = _search(translation, data, search, timer)
        if match is None:
            break
        start, stop = match.spans[0]
        pieces = [data[last_end:start]]
        if stop > last_end or start == 0:
            pieces.append(_expand(template, match, translation.names).encode())
        built += sum(len(piece) for piece in pieces)
        call.ensure(built)
        out.extend(pieces)
        last_end = stop
        width = _rune_width(data, search)
        if search + width > stop:
            search += width
        elif search + 1 > stop:
            search += 1
        else:
            search = stop
    out.append(data[last_end:])
    return b"".join(out).decode()


@function("replace", Param("str", STRING), Param("substr", STRING), Param("replace", STRING), returns=STRING)
def _replace(args: list[Val], call: Call) -> Val:
    text, substring, replacement = (arg.raw for arg in args)
    if len(substring) > 1 and substring.startswith("/") and substring.endswith("/"):
        try:
            translation = translate(substring[1:-1])
        except GoSyntaxError as error:
            raise _failed(call, str(error)) from None
        except Untranslatable:
            return Val(UNKNOWN, call.loc, type=STRING)
        if not translation.exact_for(text):
            return Val(UNKNOWN, call.loc, type=STRING)
        with call.budget.regex_timer(call.loc, call.subject) as timer:
            return _string(_replace_all(translation, text, replacement, call, timer), call)
    # Go's strings.Replace: an empty substring is replaced before every character and at the end
    count = len(text) + 1 if substring == "" else text.count(substring)
    call.ensure(len(text) + count * max(0, len(replacement) - len(substring)))
    return _string(text.replace(substring, replacement), call)


# --------------------------------------------------------------------------------- templatestring



@function("templatestring", Param("template", DYNAMIC, allow_null=True, allow_unknown=True),
          Param("vars", DYNAMIC), returns=STRING)
def _templatestring(args: list[Val], call: Call) -> Val:
    """Terraform's ``templatestring``, given the template's value; the caller checks that the
    argument is a reference, as Terraform requires of its expression."""
    template, names = args
    if template.raw is UNKNOWN:
        return Val(UNKNOWN, call.loc, type=STRING)
    if type_of(template) != STRING or template.raw is None:
        raise _invalid("template", "invalid template value: a string is required")
    if not isinstance(type_of(names), (MapType, ObjectType)):
        raise _invalid("vars", "invalid vars value: must be a map")
    for name in names.raw:
        if not _pattern(r"[\p{ID_Start}_][\p{ID_Continue}-]*").fullmatch(name):
            raise _invalid("vars", f"invalid template variable name {go_quote(name)}: must start with a letter, followed by zero or more letters, digits, and underscores")
    if call.context is None:
        return Val(UNKNOWN, call.loc, type=STRING)
    rendered = call.context.render_template("<templatestring argument>", template.raw, dict(names.raw), call.loc)
    if rendered.raw is None:
        raise EvalError("Template result is null: The result of the template is null, which is not a valid result for a templatestring call.")
    try:
        return convert(rendered, STRING)
    except EvalError as error:
        raise _failed(call, f"invalid template result: {error}") from None
