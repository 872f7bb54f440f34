"""Terraform's ``jsondecode`` and ``yamldecode``.

``jsondecode`` is go-cty's JSON unmarshalling with Go's ``encoding/json``: strict JSON (no
comments, no trailing commas, no ``NaN``), one value only, the last of duplicate keys wins,
numbers exact at 512 bits, an escaped lone surrogate becomes U+FFFD.

``yamldecode`` is go-cty-yaml 1.1.0, the version Terraform 1.11 ships: one document only,
``%YAML`` other than 1.1 refused, the last of duplicate keys wins, anchors and aliases, merge
keys ``<<`` (a mapping only, not a sequence of them), and its own resolution of plain scalars,
neither YAML 1.1's nor 1.2's: ``yes``/``on``/``y`` are true, ``010`` is 10, ``0o10`` and
``0x10`` are 8 and 16, ``0b101`` and ``1_000`` stay strings, timestamps become RFC 3339 strings,
keys are converted to strings (``1: x`` has key ``"1"``). ruamel.yaml reads the events; this
module resolves them.

Errors Terraform reports raise :class:`EvalError` with go-cty-yaml's or Go's message (without
the position Terraform prefixes to some); values a kapsulint value cannot hold (``.inf``)
raise :class:`~kapsulint.terraform.numbers.Unrepresentable`. A document of more nodes than a
values file may hold (:data:`~kapsulint.parsing.yaml.MAX_NODES`, aliases counted as the nodes
they stand for) raises :class:`TooManyNodes`: an alias bomb of a few lines is refused as it is
read, before anything walks it.

https://github.com/zclconf/go-cty/blob/v1.16.2/cty/json/unmarshal.go,
https://github.com/zclconf/go-cty-yaml/blob/v1.1.0/decode.go,
https://github.com/zclconf/go-cty-yaml/blob/v1.1.0/resolve.go.
"""

from __future__ import annotations

import binascii
import json
import re
from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from types import ModuleType
from typing import Any

from kapsulint.parsing.yaml import MAX_NODES
from kapsulint.terraform.encode import deep_recursion
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.numbers import Unrepresentable, format_number, parse_number
from kapsulint.terraform.values import Val
from kapsulint.terraform.yaml_scanner import go_mark as _go_mark
from kapsulint.terraform.yaml_scanner import go_yaml_message


class TooManyNodes(Exception):
    """A document with more than :data:`MAX_NODES` nodes once its aliases are expanded."""


# ---------------------------------------------------------------------------------------- JSON

# The tokens that make a node of a JSON document: a string (a key or a value), a collection's
# opening bracket, a number or a literal word.
_JSON_NODE = r'"(?:[^"\\]|\\.)*"|[\[{]|-?[0-9][0-9.eE+-]*|true|false|null'

# Patterns are compiled on first use (re keeps them): a run that decodes nothing pays nothing.
_SURROGATE = "[\ud800-\udfff]"


def _reject_constant(name: str) -> None:
    raise EvalError(f"invalid character {name[0]!r} looking for beginning of value")


def _json_string(text: str) -> str:
    return re.sub(_SURROGATE, "\ufffd", text)


def _json_object(pairs: list[tuple[str, Val]]) -> Val:
    """An object; of duplicate keys the last wins, and go-cty first decodes each earlier value
    against the type the last one implies, an error when it does not fit."""
    members: dict[str, Val] = {}
    for key, value in pairs:
        key = _json_string(key)
        value = _wrap(value)
        earlier = members.get(key)
        if earlier is not None:
            _check_fits(earlier, value)
        members[key] = value
    return Val(members)


def _check_fits(value: Val, model: Val) -> None:
    """:class:`EvalError` unless go-cty decodes ``value`` with the type ``model`` implies."""
    raw, want = value.raw, model.raw
    if raw is None:
        return
    if want is None:  # the type of null is dynamic, which expects go-cty's typed wrapper
        raise EvalError("missing expected {")
    if isinstance(want, str):
        if isinstance(raw, (list, dict)):
            raise EvalError("string is required")
    elif isinstance(want, bool):
        if not (isinstance(raw, bool) or raw in ("true", "false")):
            raise EvalError("bool is required")
    elif isinstance(want, (int, Fraction)):
        if isinstance(raw, str):
            parse_number(raw)
        elif not isinstance(raw, (int, Fraction)) or isinstance(raw, bool):
            raise EvalError("number is required")
    elif isinstance(want, list):
        if not isinstance(raw, list):
            raise EvalError("missing expected [")
        if len(raw) != len(want):
            raise EvalError(f"not enough tuple elements (need {len(want)})")
        for item, item_model in zip(raw, want):
            _check_fits(item, item_model)
    elif isinstance(want, dict):
        if not isinstance(raw, dict):
            raise EvalError("missing expected {")
        for key, member in raw.items():
            if key not in want:
                raise EvalError(f'unsupported attribute "{key}"')
            _check_fits(member, want[key])


def json_decode(text: str) -> Val:
    """The value ``jsondecode(text)`` gives: objects become object values, arrays tuples;
    :class:`TooManyNodes` when the text holds more than :data:`MAX_NODES` (counted before
    anything is built).

    The text is first read token by token as go-cty reads it (:func:`_first_json_value`), which
    gives Go's errors and where the first value ends; what follows a value that ends with a
    ``]`` or ``}`` is not read (``jsondecode("[1]]")`` is ``[1]``)."""
    if len(text) > MAX_NODES and re.subn(_JSON_NODE, "", text)[1] > MAX_NODES:
        raise TooManyNodes
    data = text.encode("utf-8", "surrogatepass")
    end = _first_json_value(data)
    try:
        with deep_recursion():
            data = json.loads(
                data[:end].decode("utf-8", "surrogatepass"),
                parse_int=parse_number,
                parse_float=parse_number,
                parse_constant=_reject_constant,
                object_pairs_hook=_json_object,
            )
            return _wrap(data)
    except json.JSONDecodeError as error:
        raise EvalError(error.msg) from None
    except RecursionError:
        raise Unrepresentable("nesting too deep") from None


# Go's json.Decoder.Token states (https://github.com/golang/go/blob/go1.23.0/src/encoding/json/stream.go)
_TOP, _ARRAY_START, _ARRAY_VALUE, _ARRAY_COMMA, _OBJECT_START, _OBJECT_KEY, _OBJECT_COLON, _OBJECT_VALUE, \
    _OBJECT_COMMA = range(9)
_VALUE_ALLOWED = (_TOP, _ARRAY_START, _ARRAY_VALUE, _OBJECT_VALUE)
_TOKEN_CONTEXT = {
    _TOP: " looking for beginning of value", _ARRAY_START: " looking for beginning of value",
    _ARRAY_VALUE: " looking for beginning of value", _OBJECT_VALUE: " looking for beginning of value",
    _ARRAY_COMMA: " after array element", _OBJECT_KEY: " looking for beginning of object key string",
    _OBJECT_COLON: " after object key", _OBJECT_COMMA: " after object key:value pair", _OBJECT_START: "",
}
_JSON_SPACE = b" \t\r\n"


def _first_json_value(data: bytes) -> int:
    """Where the first JSON value of ``data`` ends, read as go-cty's ``ImpliedType`` reads it
    (``json.Decoder.Token`` until the value is complete, then ``More``), or :class:`EvalError`
    with Go's message: ``EOF`` where the text ends between tokens, ``unexpected EOF`` inside
    one, ``invalid character ...`` and ``extraneous data after JSON object``.
    https://github.com/zclconf/go-cty/blob/v1.16.0/cty/json/type_implied.go"""
    state, stack, position, size = _TOP, [], 0, len(data)
    while True:
        while position < size and data[position] in _JSON_SPACE:
            position += 1
        if position == size:
            raise EvalError("EOF")
        byte = data[position]
        completed = False
        if byte in b"[{":
            if state not in _VALUE_ALLOWED:
                _token_error(byte, state)
            stack.append(state)
            state = _ARRAY_START if byte == ord("[") else _OBJECT_START
            position += 1
        elif byte in b"]}":
            closing = (_ARRAY_START, _ARRAY_COMMA) if byte == ord("]") else (_OBJECT_START, _OBJECT_COMMA)
            if state not in closing:
                _token_error(byte, state)
            state, completed = stack.pop(), True
            position += 1
        elif byte == ord(":"):
            if state != _OBJECT_COLON:
                _token_error(byte, state)
            state = _OBJECT_VALUE
            position += 1
        elif byte == ord(","):
            if state not in (_ARRAY_COMMA, _OBJECT_COMMA):
                _token_error(byte, state)
            state = _ARRAY_VALUE if state == _ARRAY_COMMA else _OBJECT_KEY
            position += 1
        elif byte == ord('"') and state in (_OBJECT_START, _OBJECT_KEY):
            position = _json_scalar_end(data, position)
            state = _OBJECT_COLON
        else:
            if state not in _VALUE_ALLOWED:
                _token_error(byte, state)
            position = _json_scalar_end(data, position)
            completed = True
        if completed:
            # Decoder.tokenValueEnd: after a value, a separator or the end is expected
            state = {_ARRAY_START: _ARRAY_COMMA, _ARRAY_VALUE: _ARRAY_COMMA, _OBJECT_VALUE: _OBJECT_COMMA}.get(state, state)
            if not stack:
                break
    end = position
    while position < size and data[position] in _JSON_SPACE:
        position += 1
    if position < size and data[position] not in b"]}":
        raise EvalError("extraneous data after JSON object")
    return end


def _token_error(byte: int, state: int) -> None:
    raise EvalError(f"invalid character {_go_quote_byte(byte)}{_TOKEN_CONTEXT[state]}")


def _json_scalar_end(data: bytes, start: int) -> int:
    """Where the string, number or literal at ``start`` ends, as Go's scanner reads one value
    (``Decoder.readValue``): at the first byte that cannot continue it, whatever that byte is."""
    size = len(data)
    byte = data[start]
    position = start + 1
    if byte == ord('"'):
        while position < size:
            byte = data[position]
            if byte == ord('"'):
                return position + 1
            if byte == ord("\\"):
                position += 1
                if position == size:
                    break
                escape = data[position]
                if escape == ord("u"):
                    for offset in range(1, 5):
                        if position + offset == size:
                            raise EvalError("unexpected EOF")
                        if data[position + offset] not in b"0123456789abcdefABCDEF":
                            _scan_error(data[position + offset], "in \\u hexadecimal character escape")
                    position += 4
                elif escape not in b'bfnrt\\/"':
                    _scan_error(escape, "in string escape code")
            elif byte < 0x20:
                _scan_error(byte, "in string literal")
            position += 1
        raise EvalError("unexpected EOF")
    for word in (b"true", b"false", b"null"):
        if byte == word[0]:
            for expected in word[1:]:
                if position == size:
                    raise EvalError("unexpected EOF")
                if data[position] != expected:
                    _scan_error(data[position], f"in literal {word.decode()} (expecting {chr(expected)!r})")
                position += 1
            return position
    if byte == ord("-"):
        if position == size:
            raise EvalError("unexpected EOF")
        byte = data[position]
        if not ord("0") <= byte <= ord("9"):
            _scan_error(byte, "in numeric literal")
        position += 1
    elif not ord("0") <= byte <= ord("9"):
        _scan_error(byte, "looking for beginning of value")
    if byte != ord("0"):
        position = _digits(data, position)
    if position < size and data[position] == ord("."):
        position += 1
        if position == size:
            raise EvalError("unexpected EOF")
        if data[position] not in b"0123456789":
            _scan_error(data[position], "after decimal point in numeric literal")
        position = _digits(data, position)
    if position < size and data[position] in b"eE":
        position += 1
        if position < size and data[position] in b"+-":
            position += 1
        if position == size:
            raise EvalError("unexpected EOF")
        if data[position] not in b"0123456789":
            _scan_error(data[position], "in exponent of numeric literal")
        position = _digits(data, position)
    return position


def _digits(data: bytes, position: int) -> int:
    while position < len(data) and data[position] in b"0123456789":
        position += 1
    return position


def _scan_error(byte: int, context: str) -> None:
    raise EvalError(f"invalid character {_go_quote_byte(byte)} {context}")


def _go_quote_byte(byte: int) -> str:
    """Go's ``quoteChar``: a byte between single quotes as ``strconv.Quote`` writes the rune of
    that value (a byte of a UTF-8 sequence is a Latin-1 rune: the first of "é" is 'Ã')."""
    if byte == ord("'"):
        return "'\\''"
    if byte == ord('"'):
        return "'\"'"
    character = chr(byte)
    escapes = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t",
               "\v": "\\v", "\\": "\\\\"}
    if character in escapes:
        return f"'{escapes[character]}'"
    if byte < 0x20 or byte == 0x7F:
        return f"'\\x{byte:02x}'"
    if byte >= 0x80 and not character.isprintable():
        return f"'\\u{byte:04x}'"
    return f"'{character}'"


def _wrap(data: object) -> Val:
    """Scalars and arrays ``json.loads`` left unwrapped, as Val nodes."""
    if isinstance(data, Val):  # an object, its members wrapped by _json_object
        return data
    if isinstance(data, list):
        return Val([_wrap(item) for item in data])
    if isinstance(data, str):
        return Val(_json_string(data))
    return Val(data)


# ---------------------------------------------------------------------------------------- YAML

_TAG = "tag:yaml.org,2002:"
_STR, _BINARY, _BOOL, _INT, _FLOAT, _NULL, _TIMESTAMP = (
    _TAG + name for name in ("str", "binary", "bool", "int", "float", "null", "timestamp")
)
_MAP, _SEQ = _TAG + "map", _TAG + "seq"
_RESOLVABLE = {None, _STR, _BINARY, _BOOL, _INT, _FLOAT, _NULL, _TIMESTAMP}

_INFINITY = object()
_WORDS: dict[str, object] = {}
for _value, _words in [
    (True, "y Y yes Yes YES true True TRUE on On ON"),
    (False, "n N no No NO false False FALSE off Off OFF"),
    (None, "~ null Null NULL"),
    (_INFINITY, ".inf .Inf .INF +.inf +.Inf +.INF -.inf -.Inf -.INF"),
]:
    for _word in _words.split():
        _WORDS[_word] = _value
_WORDS[""] = None
_BOOL_WORDS = {word for word, value in _WORDS.items() if isinstance(value, bool)}

_INTEGER = r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+"
_FLOAT_LITERAL = r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?"
_GO_INT = r"([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)"
_BASE64 = r"[A-Za-z0-9+/]*={0,2}"

# Go layouts "2006-1-2T15:4:5.999999999Z07:00" (and "t"), "2006-1-2 15:4:5.999999999", "2006-1-2"
_DATE = r"([0-9]{4})-([0-9][0-9]?)-([0-9][0-9]?)"
_CLOCK = r"([0-9][0-9]?):([0-9][0-9]?):([0-9][0-9]?)(?:[.,][0-9]+)?"
_TIMESTAMPS = [
    _DATE + "[Tt]" + _CLOCK + r"(Z|[+-][0-9][0-9]:[0-9][0-9])",
    _DATE + " " + _CLOCK + "()",
    _DATE + "()()()()",
]

_MERGE = object()


def _timestamp(text: str) -> str | None:
    """go-cty-yaml's ``parseTimestamp`` then ``Format(time.RFC3339)``, or None."""
    if not re.match(r"[0-9]{4}-", text):
        return None
    for layout in _TIMESTAMPS:
        match = re.fullmatch(layout, text)
        if match is None:
            continue
        year, month, day = (int(match.group(i)) for i in (1, 2, 3))
        hour, minute, second = (int(match.group(i) or 0) for i in (4, 5, 6))
        zone = match.group(7) or "Z"
        if not 1 <= month <= 12 or not 1 <= day <= _month_days(year, month):
            continue
        if hour > 23 or minute > 59 or second > 59:
            continue
        if zone != "Z" and (int(zone[1:3]) > 23 or int(zone[4:6]) > 59):
            continue
        if zone in ("+00:00", "-00:00"):
            zone = "Z"
        return f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}{zone}"
    return None


def _month_days(year: int, month: int) -> int:
    """Days in ``month`` of the proleptic Gregorian ``year`` (year 0 is a leap year, as in Go)."""
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _go_int(text: str) -> int | None:
    """Go's ``strconv.ParseInt(text, 0, 64)``, else ``ParseUint(text, 0, 64)``, or None."""
    match = re.fullmatch(_GO_INT, text)
    if match is None:
        return None
    sign, digits = match.groups()
    prefix = digits[1:2].lower()
    if prefix in ("x", "o", "b"):
        number = int(digits[2:], {"x": 16, "o": 8, "b": 2}[prefix])
    else:
        number = int(digits, 8 if len(digits) > 1 else 10)
    if sign == "-":
        number = -number
    if -(1 << 63) <= number < 1 << 63 or (not sign and number < 1 << 64):
        return number
    return None


def _resolve(tag: str | None, text: str, quoted: bool) -> object:
    """go-cty-yaml's ``resolveScalar``: a raw value, ``_INFINITY`` or ``_MERGE``. ``quoted`` is
    true for any scalar not plain: Terraform keeps a block scalar (``>-`` then ``10``) a string."""
    if tag not in _RESOLVABLE:
        raise EvalError(f"unsupported tag {tag!r}".replace("'", '"'))
    first = text[:1]
    hint = "N" if not text else "S" if first in "+-" else "D" if first in "0123456789" else (
        "M" if first in "yYnNtTfFoO~" else "." if first == "." else ""
    )
    if hint and tag not in (_STR, _BINARY):
        if quoted:
            return text
        if text in _WORDS:
            return _WORDS[text]
        if tag is None and text in (".nan", ".NaN", ".NAN"):
            raise EvalError("floating point NaN is not supported")
        if hint == ".":
            try:
                return parse_number(text)
            except EvalError:
                pass
        elif hint in "DS":
            if tag in (None, _TIMESTAMP):
                stamp = _timestamp(text)
                if stamp is not None:
                    return stamp
            if re.fullmatch(_INTEGER, text):
                tag = _INT
            elif re.fullmatch(_FLOAT_LITERAL, text):
                tag = _FLOAT
    if tag is None and text == "<<":
        return _MERGE
    if tag in (_STR, _BINARY):
        if tag == _BINARY:
            compact = text.replace("\r", "").replace("\n", "")
            if not re.fullmatch(_BASE64, compact) or len(compact) % 4:
                raise EvalError(f"cannot parse {_go_quote(text)} as {tag}: not valid base64")
            try:
                binascii.a2b_base64(compact.encode("ascii"), strict_mode=True)
            except (binascii.Error, ValueError):
                raise EvalError(f"cannot parse {_go_quote(text)} as {tag}: not valid base64") from None
        return text
    if tag == _BOOL:
        if text not in _BOOL_WORDS:
            raise EvalError(f"cannot parse {_go_quote(text)} as {tag}")
        return _WORDS[text]
    if tag in (_FLOAT, _INT):
        plain = text.replace("_", "")
        try:
            return parse_number(plain)
        except EvalError:
            pass
        number = _go_int(plain)
        if number is None:
            raise EvalError(f"cannot parse {_go_quote(text)} as {tag}")
        return number
    if tag == _TIMESTAMP:
        stamp = _timestamp(text)
        if stamp is None:
            raise EvalError(f"cannot parse {_go_quote(text)} as {tag}")
        return stamp
    if tag == _NULL:
        return None
    return text


def _go_quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


class _Decoder:
    """go-cty-yaml's decoder over ruamel.yaml's events. An alias is the anchored value itself
    (shared, as Go's decoder shares it), counted as the nodes it stands for."""

    def __init__(self, events: Iterator[Any], kinds: ModuleType, length: int) -> None:
        self.events = events
        self.kinds = kinds
        self.length = length
        self.pending: dict[str, int] = {}
        self.anchors: dict[str, tuple[Val, int]] = {}  # the value and its nodes, aliases expanded
        self.count = 0  # nodes so far, aliases expanded

    def counted(self, nodes: int) -> None:
        self.count += nodes
        if self.count > MAX_NODES:
            raise TooManyNodes

    def next(self) -> Any:
        return next(self.events)

    def begin(self, anchor: str | None) -> None:
        if anchor:
            self.pending[anchor] = self.pending.get(anchor, 0) + 1

    def complete(self, anchor: str | None, value: Val, start: int) -> None:
        """The end of a node begun when ``start`` nodes had been read."""
        if anchor:
            self.pending[anchor] -= 1
            if not self.pending[anchor]:
                del self.pending[anchor]
            self.anchors[anchor] = (value, self.count - start)

    def fail(self, event: Any, message: str) -> EvalError:
        """go-cty-yaml's ``parseEventErrorf``: ``message`` at the event's start, unless that is
        on the first line (go-cty-yaml tests the line before it counts it from 1)."""
        return EvalError(_at_event(event, self.length) + message)

    def node(self, event: Any) -> Val:
        if isinstance(event, self.kinds.ScalarEvent):
            start = self.count
            self.begin(event.anchor)
            self.counted(1)
            try:
                raw = _resolve(event.tag, event.value, event.style is not None)
            except EvalError as error:
                raise self.fail(event, str(error)) from None
            if raw is _INFINITY:
                raise Unrepresentable(event.value)
            value = Val("<<" if raw is _MERGE else raw)
            self.complete(event.anchor, value, start)
            return value
        if isinstance(event, self.kinds.AliasEvent):
            if event.anchor in self.pending:
                raise EvalError(f'cannot refer to anchor "{event.anchor}" from inside its own definition')
            if event.anchor not in self.anchors:
                raise EvalError(f'reference to undefined anchor "{event.anchor}"')
            value, nodes = self.anchors[event.anchor]
            self.counted(nodes)
            return value
        if isinstance(event, self.kinds.MappingStartEvent):
            return self.mapping(event)
        if isinstance(event, self.kinds.SequenceStartEvent):
            return self.sequence(event)
        if isinstance(event, self.kinds.DocumentStartEvent):
            raise self.fail(event, "only a single document is allowed")
        raise self.fail(event, "expecting value but found end of stream")

    def mapping(self, start: Any) -> Val:
        if start.tag not in (None, _MAP):
            raise self.fail(start, f"can't interpret mapping as {start.tag}")
        first = self.count
        self.begin(start.anchor)
        self.counted(1)
        members: dict[str, Val] = {}
        while True:
            event = self.next()
            if isinstance(event, self.kinds.MappingEndEvent):
                value = Val(members)
                self.complete(start.anchor, value, first)
                return value
            if not isinstance(event, self.kinds.ScalarEvent):
                raise self.fail(event, "only strings are allowed as mapping keys")
            try:
                key = _resolve(event.tag, event.value, event.style is not None)
            except EvalError as error:
                raise self.fail(event, str(error)) from None
            if key is _MERGE:
                merged = self.node(self.next())
                if not isinstance(merged.raw, dict):
                    raise self.fail(event, f"cannot merge {_friendly_kind(merged.raw)} into mapping")
                members.update(merged.raw)
                continue
            if key is None:
                raise self.fail(event, "mapping key cannot be null")
            if key is _INFINITY:
                raise Unrepresentable(event.value)
            self.counted(1)  # the key, a node as a values file counts it
            members[_key_text(key)] = self.node(self.next())

    def sequence(self, start: Any) -> Val:
        if start.tag not in (None, _SEQ):
            raise self.fail(start, f"can't interpret sequence as {start.tag}")
        first = self.count
        self.begin(start.anchor)
        self.counted(1)
        items: list[Val] = []
        while True:
            event = self.next()
            if isinstance(event, self.kinds.SequenceEndEvent):
                value = Val(items)
                self.complete(start.anchor, value, first)
                return value
            items.append(self.node(event))


def _friendly_kind(raw: object) -> str:
    """The friendly name of the type go-cty-yaml implies for a decoded value that is not a mapping."""
    if isinstance(raw, list):
        return "tuple"
    if raw is None:
        return "dynamic"
    if isinstance(raw, bool):
        return "bool"
    return "string" if isinstance(raw, str) else "number"


def _key_text(key: object) -> str:
    """A mapping key converted to a string, as go-cty's ``convert`` does."""
    if key is True or key is False:
        return "true" if key else "false"
    if isinstance(key, str):
        return key
    return format_number(key)  # type: ignore[arg-type]


@cache
def _ruamel() -> tuple[Any, ModuleType, type[Exception]]:
    """ruamel.yaml's parser with go-yaml's rules for tabs, its events and its error, imported on
    first use only: a warm run that decodes no YAML imports no YAML library."""
    from ruamel.yaml import YAML, events
    from ruamel.yaml.error import YAMLError
    from ruamel.yaml.scanner import Scanner, ScannerError

    from kapsulint.terraform.yaml_scanner import go_tabs_scanner

    parser = YAML(typ="safe", pure=True)
    parser.Scanner = go_tabs_scanner(Scanner, ScannerError)
    return parser, events, YAMLError


def yaml_decode(text: str) -> Val:
    """The value ``yamldecode(text)`` gives: mappings become object values, sequences tuples."""
    with deep_recursion():
        return _yaml_decode(text)


def _yaml_decode(text: str) -> Val:
    parser, events, yaml_error = _ruamel()
    source = text or "\n"
    try:
        decoder = _Decoder(iter(parser.parse(source)), events, len(source))
        decoder.next()  # stream start
        start = decoder.next()
        if not isinstance(start, events.DocumentStartEvent):
            raise decoder.fail(start, "missing start of document")
        if start.version is not None and start.version != (1, 1):
            raise EvalError("found incompatible YAML document")
        value = decoder.node(decoder.next())
        following = decoder.next()
        if not isinstance(following, events.DocumentEndEvent):
            raise decoder.fail(following, "unexpected extra content after value")
        following = decoder.next()
        if not isinstance(following, events.StreamEndEvent):
            raise decoder.fail(following, "unexpected extra content after value")
    except yaml_error as error:
        raise EvalError(go_yaml_message(error, len(source))) from None
    except RecursionError:
        raise Unrepresentable("nesting too deep") from None
    return value


def _at_event(event: Any, length: int) -> str:
    line, column = _go_mark(event.start_mark, length)
    return f"on line {line}, column {column + 1}: " if line else ""
