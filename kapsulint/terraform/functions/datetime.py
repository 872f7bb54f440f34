"""Terraform's date and time functions: formatdate, timeadd, timecmp; timestamp and
plantimestamp give Unknown (they change at every run).

``formatdate`` and ``timeadd`` are go-cty's
(https://github.com/zclconf/go-cty/blob/v1.16.0/cty/function/stdlib/datetime.go, with its strict
RFC 3339 reader in ``datetime_rfc3339.go``), ``timecmp`` Terraform's
(https://github.com/hashicorp/terraform/blob/v1.11.4/internal/lang/funcs/datetime.go), which reads
timestamps with Go's more lenient ``time.Parse``. Both readers and ``time.ParseDuration`` are
reproduced with their error messages (https://github.com/golang/go/blob/go1.23.0/src/time/format.go
and ``format_rfc3339.go``). A time is held as its civil fields and its UTC offset; arithmetic goes
through nanoseconds since 0001-01-01 UTC.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from kapsulint.terraform.convert import go_quote
from kapsulint.terraform.functions.registry import Call, Param, argument_error, call_error, function
from kapsulint.terraform.types import NUMBER, STRING
from kapsulint.terraform.values import UNKNOWN, Val

_LAYOUT_WHAT = {"2006": "year", "01": "month", "02": "day of month", "15": "hour", "04": "minute",
                "05": "second", "Z07:00": "UTC offset"}
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_RFC3339 = r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})"  # compiled on first use
_SECOND = 1_000_000_000
_DAY = 86_400 * _SECOND


class Time(NamedTuple):
    year: int
    month: int
    day: int
    hour: int
    minute: int
    second: int
    nanosecond: int
    offset: int  # seconds east of UTC

    def nanos(self) -> int:
        """Nanoseconds since 0001-01-01T00:00:00Z."""
        seconds = _days(self.year, self.month, self.day) * 86_400 + self.hour * 3600 + self.minute * 60 + self.second
        return (seconds - self.offset) * _SECOND + self.nanosecond

    def add(self, nanoseconds: int) -> Time:
        local = self.nanos() + self.offset * _SECOND + nanoseconds
        days, rest = divmod(local, _DAY)
        year, month, day = _civil(days)
        seconds, nanosecond = divmod(rest, _SECOND)
        return Time(year, month, day, seconds // 3600, seconds // 60 % 60, seconds % 60, nanosecond, self.offset)

    def weekday(self) -> str:
        return _WEEKDAYS[_days(self.year, self.month, self.day) % 7]  # 0001-01-01 was a Monday


def _days(year: int, month: int, day: int) -> int:
    """Days from 0001-01-01 in the proleptic Gregorian calendar."""
    y = year - (month <= 2)
    era, yoe = divmod(y, 400)
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146_097 + doe - 306


def _civil(days: int) -> tuple[int, int, int]:
    era, doe = divmod(days + 306, 146_097)
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146_096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return era * 400 + yoe + (month <= 2), month, day


def _days_in(month: int, year: int) -> int:
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


class ParseError(Exception):
    """Go's ``time.ParseError``: the layout element and the rest of the value where it failed."""

    def __init__(self, layout_elem: str, value_elem: str, message: str = "") -> None:
        super().__init__(layout_elem, value_elem, message)
        self.layout_elem = layout_elem
        self.value_elem = value_elem
        self.message = message


def _digit(text: str, index: int) -> bool:
    return index < len(text) and "0" <= text[index] <= "9"


def _getnum(text: str, fixed: bool) -> tuple[int, str] | None:
    if not _digit(text, 0):
        return None
    if not _digit(text, 1):
        return None if fixed else (int(text[0]), text[1:])
    return int(text[:2]), text[2:]


def _fraction(text: str, n: int) -> int:
    """Go's ``parseNanoseconds``: the digits after the separator, to nine places."""
    digits = text[1:min(n, 10)]
    return int(digits) * 10 ** (9 - len(digits))


def go_time_parse(value: str) -> Time:
    """Go's ``time.Parse(time.RFC3339, value)``: one-digit hours and a comma before the
    fraction accepted, UTC offsets up to 24:60; :class:`ParseError` as Go raises it."""
    rest = value
    fields: dict[str, int] = {}
    nanosecond, offset = 0, 0
    for literal, element in (("", "2006"), ("-", "01"), ("-", "02"), ("T", "15"), (":", "04"), (":", "05"),
                             ("", "Z07:00")):
        for char in literal:
            if not rest or rest[0] != char:
                raise ParseError(literal, rest)
            rest = rest[1:]
        hold = rest
        if element == "2006":
            if len(rest) < 4 or not rest[:4].isdigit() or not rest[:4].isascii():
                raise ParseError(element, hold)
            fields["year"], rest = int(rest[:4]), rest[4:]
            continue
        if element == "Z07:00":
            if rest.startswith("Z"):
                rest = rest[1:]
                continue
            if len(rest) < 6 or rest[3] != ":" or rest[0] not in "+-":
                raise ParseError(element, hold)
            sign = -1 if rest[0] == "-" else 1
            hours, minutes = _getnum(rest[1:3], True), _getnum(rest[4:6], True)
            if hours is None or minutes is None:
                raise ParseError(element, hold)
            rest = rest[6:]
            if hours[0] > 24:
                raise ParseError(element, rest, ": time zone offset hour out of range")
            if minutes[0] > 60:
                raise ParseError(element, rest, ": time zone offset minute out of range")
            offset = sign * (hours[0] * 60 + minutes[0]) * 60
            continue
        parsed = _getnum(rest, element != "15")
        if parsed is None:
            raise ParseError(element, hold)
        number, rest = parsed
        name, limit = {"01": ("month", 13), "02": ("day", 32), "15": ("hour", 24), "04": ("minute", 60),
                       "05": ("second", 60)}[element]
        if (element == "01" and number == 0) or (element != "02" and number >= limit):
            raise ParseError(element, rest, f": {name} out of range")
        fields[name] = number
        if element == "05" and len(rest) >= 2 and rest[0] in ".," and _digit(rest, 1):
            n = 2
            while _digit(rest, n):
                n += 1
            nanosecond, rest = _fraction(rest, n), rest[n:]
    if rest:
        raise ParseError("", rest, f": extra text: {_time_quote(rest)}")
    year, month, day = fields["year"], fields["month"], fields["day"]
    if day < 1 or day > _days_in(month, year):
        raise ParseError("", "", ": day out of range")
    return Time(year, month, day, fields["hour"], fields["minute"], fields["second"], nanosecond, offset)


def strict_parse(value: str) -> Time:
    """go-cty's ``parseStrictRFC3339``: Go's parse, then what RFC 3339 forbids and Go allows."""
    parsed = go_time_parse(value)
    if value[len("2006-01-02T") + 1] == ":":
        raise ParseError("15", value[len("2006-01-02T"):][:1], ": hour must have two digits")
    if value[len("2006-01-02T15:04:05")] == ",":
        raise ParseError(".", ",", ": sub-second separator must be a period")
    if value[-1] != "Z":
        if int(value[-5:-3]) >= 24:
            raise ParseError("Z07:00", value[-6:], ": timezone hour out of range")
        if int(value[-2:]) >= 60:
            raise ParseError("Z07:00", value[-6:], ": timezone minute out of range")
    if not re.fullmatch(_RFC3339, value):  # go-cty's "should not occur" case
        raise ParseError("2006-01-02T15:04:05Z07:00", value)
    return parsed


def timestamp_message(error: ParseError, strict: bool) -> str:
    """go-cty's (``strict``) or Terraform's ``parseTimestamp`` message for a parse error."""
    layout, value = error.layout_elem, error.value_elem
    if not layout and not value and error.message:
        return f"not a valid RFC3339 timestamp{error.message}"
    if layout == "T":
        return "not a valid RFC3339 timestamp: missing required time introducer 'T'"
    if layout in (":", "-"):
        if not value:
            return f"not a valid RFC3339 timestamp: end of string where {go_quote(layout)} is expected"
        return f"not a valid RFC3339 timestamp: found {go_quote(value)} where {go_quote(layout)} is expected"
    what = _LAYOUT_WHAT.get(layout, "timestamp segment")
    if not value:
        return f"not a valid RFC3339 timestamp: end of string before {what}"
    if strict and what == "hour" and ":" in value:
        return "not a valid RFC3339 timestamp: hour must be between 0 and 23 inclusive"
    if strict and what in ("hour", "minute") and len(value) != 2:
        return f"not a valid RFC3339 timestamp: {what} must have exactly two digits"
    return f"not a valid RFC3339 timestamp: cannot use {go_quote(value)} as {what}"


def _time_quote(text: str) -> str:
    """Go's ``time.quote``: bytes outside printable ASCII as ``\\xHH``."""
    out: list[str] = []
    for char in text:
        if ord(char) >= 0x80 or char < " ":
            out.extend(f"\\x{byte:02x}" for byte in char.encode())
        else:
            out.append("\\" + char if char in '"\\' else char)
    return '"' + "".join(out) + '"'


def rfc3339(time: Time) -> str:
    """``Time.Format(time.RFC3339)`` (a year is its sign and at least four digits)."""
    year = f"{'-' if time.year < 0 else ''}{abs(time.year):04d}"
    text = f"{year}-{time.month:02d}-{time.day:02d}T{time.hour:02d}:{time.minute:02d}:{time.second:02d}"
    return text + _offset(time.offset, colon=True, zulu=True)


def _offset(offset: int, colon: bool, zulu: bool) -> str:
    if zulu and offset == 0:
        return "Z"
    sign = "-" if offset < 0 else "+"
    minutes = abs(offset) // 60
    return f"{sign}{minutes // 60:02d}{':' if colon else ''}{minutes % 60:02d}"


_UNITS = {"ns": 1, "us": 1_000, "\u00b5s": 1_000, "\u03bcs": 1_000, "ms": 1_000_000, "s": _SECOND,
          "m": 60 * _SECOND, "h": 3600 * _SECOND}


def go_parse_duration(text: str) -> int:
    """Go's ``time.ParseDuration``, in nanoseconds; ValueError with Go's message otherwise."""
    invalid = ValueError(f"time: invalid duration {_time_quote(text)}")
    rest, negative = text, False
    if rest[:1] in ("-", "+"):
        negative, rest = rest[0] == "-", rest[1:]
    if rest == "0":
        return 0
    if not rest:
        raise invalid
    total = 0
    while rest:
        if not (rest[0] == "." or "0" <= rest[0] <= "9"):
            raise invalid
        digits = len(rest) - len(rest.lstrip("0123456789"))
        whole = int(rest[:digits]) if digits else 0
        if whole > 1 << 63:
            raise invalid
        rest = rest[digits:]
        fraction, scale, post = 0, 1, False
        if rest.startswith("."):
            rest = rest[1:]
            count = len(rest) - len(rest.lstrip("0123456789"))
            overflow = False
            for char in rest[:count]:
                if overflow or fraction > ((1 << 63) - 1) // 10:
                    overflow = True
                    continue
                candidate = fraction * 10 + int(char)
                if candidate > 1 << 63:
                    overflow = True
                    continue
                fraction, scale = candidate, scale * 10
            post, rest = count > 0, rest[count:]
        if not digits and not post:
            raise invalid
        unit_length = 0
        while unit_length < len(rest) and not (rest[unit_length] == "." or "0" <= rest[unit_length] <= "9"):
            unit_length += 1
        if unit_length == 0:
            raise ValueError(f"time: missing unit in duration {_time_quote(text)}")
        unit_text, rest = rest[:unit_length], rest[unit_length:]
        unit = _UNITS.get(unit_text)
        if unit is None:
            raise ValueError(f"time: unknown unit {_time_quote(unit_text)} in duration {_time_quote(text)}")
        if whole > (1 << 63) // unit:
            raise invalid
        value = whole * unit
        if fraction > 0:
            value += int(float(fraction) * (float(unit) / scale))
            if value > 1 << 63:
                raise invalid
        total += value
        if total > 1 << 63:
            raise invalid
    if negative:
        return -total
    if total > (1 << 63) - 1:
        raise invalid
    return total


def _format_date(layout: str, time: Time) -> str:
    out: list[str] = []
    for token in _date_tokens(layout):
        if token[0] == "'":
            if token[-1] != "'" or len(token) == 1:
                raise argument_error("format", "unterminated literal '")
            if len(token) == 2:
                out.append("'")
                continue
            raw, index = token[1:-1], 0
            while index < len(raw):
                out.append(raw[index])
                index += 2 if raw[index] == "'" else 1
            continue
        if not _is_verb(token[0]):
            out.append(token)
            continue
        out.append(_verb(token, time))
    return "".join(out)


def _verb(token: str, time: Time) -> str:
    letter, size = token[0], len(token)

    def invalid(rule: str) -> Exception:
        return argument_error("format", f"invalid date format verb {go_quote(token)}: {rule}")

    if letter == "Y":
        if size not in (2, 4):
            raise invalid('year must either be "YY" or "YYYY"')
        return f"{time.year % 100:02d}" if size == 2 else f"{time.year:04d}"
    if letter == "M":
        forms = {1: str(time.month), 2: f"{time.month:02d}", 3: _MONTHS[time.month - 1][:3], 4: _MONTHS[time.month - 1]}
        if size not in forms:
            raise invalid('month must be "M", "MM", "MMM", or "MMMM"')
        return forms[size]
    if letter == "E":
        if size not in (3, 4):
            raise invalid('day of week must either be "EEE" or "EEEE"')
        return time.weekday()[:3] if size == 3 else time.weekday()
    numeric = {"D": (time.day, "day of month", "D"), "h": (time.hour, "24-hour", "h"),
               "H": (time.hour % 12 or 12, "12-hour", "H"), "m": (time.minute, "minute", "m"),
               "s": (time.second, "second", "s")}
    if letter in numeric:
        value, name, short = numeric[letter]
        if size not in (1, 2):
            raise invalid(f'{name} must either be "{short}" or "{short * 2}"')
        return str(value) if size == 1 else f"{value:02d}"
    if letter in "Aa":
        if size != 2:
            raise invalid(f'must be "{letter}{letter}"')
        text = "AM" if time.hour < 12 else "PM"
        return text if letter == "A" else text.lower()
    if letter == "Z":
        if size == 1:
            return _offset(time.offset, colon=True, zulu=True)
        if size == 3:
            text = _offset(time.offset, colon=False, zulu=False)
            return "UTC" if text == "+0000" else text
        if size in (4, 5):
            return _offset(time.offset, colon=size == 5, zulu=False)
        raise invalid("timezone must be Z, ZZZZ, or ZZZZZ")
    raise argument_error("format", f"invalid date format verb {go_quote(token)}")


def _is_verb(char: str) -> bool:
    return "a" <= char <= "z" or "A" <= char <= "Z"


def _date_tokens(layout: str) -> list[str]:
    """go-cty's ``splitDateFormat``: quoted literals, runs of one verb letter, other text."""
    tokens, index = [], 0
    while index < len(layout):
        char = layout[index]
        end = index + 1
        if char == "'":
            if layout[index + 1:index + 2] == "'":
                end = index + 2
            else:
                end = len(layout)
                scan = index + 1
                while scan < len(layout):
                    if layout[scan] == "'":
                        if layout[scan + 1:scan + 2] == "'":
                            scan += 2
                            continue
                        end = scan + 1
                        break
                    scan += 1
        elif _is_verb(char):
            while end < len(layout) and layout[end] == char:
                end += 1
        else:
            while end < len(layout) and layout[end] != "'" and not _is_verb(layout[end]):
                end += 1
        tokens.append(layout[index:end])
        index = end
    return tokens


def _timestamp(value: str, strict: bool) -> Time:
    """The time ``value`` stands for, or ValueError with the parser's message."""
    try:
        return strict_parse(value) if strict else go_time_parse(value)
    except ParseError as error:
        raise ValueError(timestamp_message(error, strict)) from None


@function("formatdate", Param("format", STRING), Param("time", STRING), returns=STRING)
def _formatdate(args: list[Val], call: Call) -> Val:
    try:
        time = _timestamp(args[1].raw, strict=True)
    except ValueError as error:
        raise argument_error("time", str(error)) from None
    return Val(_format_date(args[0].raw, time), call.loc, type=STRING)


@function("timeadd", Param("timestamp", STRING), Param("duration", STRING), returns=STRING)
def _timeadd(args: list[Val], call: Call) -> Val:
    try:
        time = _timestamp(args[0].raw, strict=True)
        duration = go_parse_duration(args[1].raw)
    except ValueError as error:
        raise call_error(call.name, str(error)) from None
    return Val(rfc3339(time.add(duration)), call.loc, type=STRING)


@function("timecmp", Param("timestamp_a", STRING), Param("timestamp_b", STRING), returns=NUMBER)
def _timecmp(args: list[Val], call: Call) -> Val:
    times = []
    for name, value in zip(("timestamp_a", "timestamp_b"), args):
        try:
            times.append(_timestamp(value.raw, strict=False).nanos())
        except ValueError as error:
            raise argument_error(name, str(error)) from None
    return Val((times[0] > times[1]) - (times[0] < times[1]), call.loc, type=NUMBER)


@function("timestamp", returns=STRING)
def _now(args: list[Val], call: Call) -> Val:
    # the time of the run: known only when Terraform runs
    return Val(UNKNOWN, call.loc, type=STRING)


@function("plantimestamp", returns=STRING)
def _plantimestamp(args: list[Val], call: Call) -> Val:
    # the time the plan is made: known only when Terraform plans
    return Val(UNKNOWN, call.loc, type=STRING)
