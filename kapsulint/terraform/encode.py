"""Terraform's ``jsonencode`` and ``yamlencode``, byte for byte.

``jsonencode`` is go-cty's JSON marshalling with Go's ``encoding/json`` string escaping;
``yamlencode`` is go-cty-yaml's marshalling through its port of the libyaml emitter (block
style, two-space indent, 80-column folding of double-quoted strings). Both raise
:class:`ContainsUnknown` when any part of the value is Unknown: Terraform's result is then
Unknown too.

https://github.com/zclconf/go-cty/blob/v1.16.2/cty/json/marshal.go,
https://github.com/golang/go/blob/go1.23.0/src/encoding/json/encode.go (``appendString``),
https://github.com/zclconf/go-cty-yaml/blob/v1.1.0/encode.go,
https://github.com/zclconf/go-cty-yaml/blob/v1.1.0/emitterc.go.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

from kapsulint.terraform.numbers import format_number
from kapsulint.terraform.values import UNKNOWN, Val


class ContainsUnknown(Exception):
    """The encoding is Unknown: part of the value is Unknown (so Terraform's result is Unknown
    too), or the value nests deeper than Python's recursion limit lets the encoder follow."""


MAX_DEPTH = 500
"""The nesting the encoders and decoders follow whatever Python's recursion limit (values files
and HCL may nest this deep); deeper, the result is Unknown."""


@contextmanager
def deep_recursion() -> Iterator[None]:
    """Room on Python's recursion limit for MAX_DEPTH levels, a few frames each."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(limit + 10 * MAX_DEPTH)
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def _check_known(value: Val) -> None:
    if value.raw is UNKNOWN or value.open:
        raise ContainsUnknown()


# ---------------------------------------------------------------------------------------- JSON

_JSON_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
for _code in [*range(0x20), ord("<"), ord(">"), ord("&"), 0x2028, 0x2029]:
    _JSON_ESCAPES.setdefault(chr(_code), f"\\u{_code:04x}")
_JSON_TABLE = str.maketrans(_JSON_ESCAPES)


def json_string(text: str) -> str:
    """``text`` as Go's ``json.Marshal`` writes a string (HTML characters escaped)."""
    return '"' + text.translate(_JSON_TABLE) + '"'


def json_encode(value: Val) -> str:
    """What ``jsonencode(value)`` returns: no spaces, object and map keys sorted."""
    parts: list[str] = []
    try:
        with deep_recursion():
            _json(value, parts)
    except RecursionError:
        raise ContainsUnknown("nesting too deep") from None
    return "".join(parts)


def _json(value: Val, out: list[str]) -> None:
    _check_known(value)
    raw = value.raw
    if raw is None:
        out.append("null")
    elif raw is True or raw is False:
        out.append("true" if raw else "false")
    elif isinstance(raw, str):
        out.append(json_string(raw))
    elif isinstance(raw, (int, Fraction)):
        out.append(format_number(raw))
    elif isinstance(raw, list):
        out.append("[")
        for index, item in enumerate(raw):
            if index:
                out.append(",")
            _json(item, out)
        out.append("]")
    elif isinstance(raw, dict):
        out.append("{")
        for index, key in enumerate(sorted(raw)):
            if index:
                out.append(",")
            out.append(json_string(key))
            out.append(":")
            _json(raw[key], out)
        out.append("}")
    else:
        raise TypeError(f"not a Terraform value: {raw!r}")


# ---------------------------------------------------------------------------------------- YAML

_BEST_INDENT = 2
_BEST_WIDTH = 80
_BREAKS = "\r\n\x85\u2028\u2029"
_YAML_ESCAPES = {
    "\x00": "0", "\x07": "a", "\x08": "b", "\t": "t", "\n": "n", "\x0b": "v", "\x0c": "f",
    "\r": "r", "\x1b": "e", '"': '"', "\\": "\\", "\x85": "N", "\xa0": "_", "\u2028": "L",
    "\u2029": "P",
}  # fmt: skip
_PLAIN, _DOUBLE_QUOTED, _LITERAL = "plain", "double", "literal"


def _printable(char: str) -> bool:
    """libyaml's ``is_printable`` (it rejects every character beyond U+FFFF)."""
    code = ord(char)
    return (
        code == 0x0A
        or 0x20 <= code <= 0x7E
        or 0xA0 <= code <= 0xD7FF
        or (0xE000 <= code <= 0xFFFD and code != 0xFEFF)
    )


def _block_allowed(text: str) -> bool:
    """libyaml's ``analyze_scalar`` verdict for a literal block: no trailing space, no space
    before a line break, no character it cannot print."""
    if text.endswith(" "):
        return False
    for index, char in enumerate(text):
        if not _printable(char):
            return False
        if char == " " and index + 1 < len(text) and text[index + 1] in _BREAKS:
            return False
    return True


class _Emitter:
    """The part of libyaml's emitter that go-cty-yaml's events reach: block sequences and
    mappings, flow ``[]``/``{}`` when empty, plain, double-quoted and literal scalars."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.indent = -1
        self.indents: list[int] = []
        self.column = 0
        self.whitespace = True
        self.indention = True
        self.open_ended = False
        self.flow_level = 0
        self.root = self.mapping_context = self.simple_key = False

    # output primitives ------------------------------------------------------------------
    def put(self, text: str) -> None:
        self.out.append(text)
        self.column += len(text)

    def put_break(self) -> None:
        self.out.append("\n")
        self.column = 0

    def write_indent(self) -> None:
        indent = max(self.indent, 0)
        if not self.indention or self.column > indent or (self.column == indent and not self.whitespace):
            self.put_break()
        if self.column < indent:
            self.put(" " * (indent - self.column))
        self.whitespace = True
        self.indention = True

    def write_indicator(self, indicator: str, need_whitespace: bool, is_whitespace: bool, is_indention: bool) -> None:
        if need_whitespace and not self.whitespace:
            self.put(" ")
        self.put(indicator)
        self.whitespace = is_whitespace
        self.indention = self.indention and is_indention
        self.open_ended = False

    def increase_indent(self, flow: bool, indentless: bool) -> None:
        self.indents.append(self.indent)
        if self.indent < 0:
            self.indent = _BEST_INDENT if flow else 0
        elif not indentless:
            self.indent += _BEST_INDENT

    # nodes ---------------------------------------------------------------------------------
    def node(self, value: Val, *, root: bool = False, mapping: bool = False, simple_key: bool = False) -> None:
        _check_known(value)
        self.root, self.mapping_context, self.simple_key = root, mapping, simple_key
        raw = value.raw
        if isinstance(raw, list):
            self.sequence(raw)
        elif isinstance(raw, dict):
            self.mapping(raw)
        else:
            text, style = _scalar(raw)
            self.scalar(text, style)

    def sequence(self, items: list[Val]) -> None:
        if not items:
            self.empty_flow("[", "]")
            return
        self.increase_indent(False, self.mapping_context and not self.indention)
        for item in items:
            self.write_indent()
            self.write_indicator("-", True, False, True)
            self.node(item)
        self.indent = self.indents.pop()

    def mapping(self, members: dict[str, Val]) -> None:
        if not members:
            self.empty_flow("{", "}")
            return
        self.increase_indent(False, False)
        for key in sorted(members):
            self.write_indent()
            key_style = _DOUBLE_QUOTED if "\n" not in key else _LITERAL
            simple = not any(char in _BREAKS for char in key) and len(key.encode("utf-8")) <= 128
            if simple:
                self.root, self.mapping_context, self.simple_key = False, True, True
                self.scalar(key, key_style)
                self.write_indicator(":", False, False, False)
            else:
                self.write_indicator("?", True, False, True)
                self.root, self.mapping_context, self.simple_key = False, True, False
                self.scalar(key, key_style)
                self.write_indent()
                self.write_indicator(":", True, False, True)
            self.node(members[key], mapping=True)
        self.indent = self.indents.pop()

    def empty_flow(self, start: str, end: str) -> None:
        self.write_indicator(start, True, True, False)
        self.increase_indent(True, False)
        self.indent = self.indents.pop()
        self.write_indicator(end, False, False, False)

    def scalar(self, text: str, style: str) -> None:
        multiline = any(char in _BREAKS for char in text)
        if self.simple_key and multiline:
            style = _DOUBLE_QUOTED
        if style == _LITERAL and (not _block_allowed(text) or self.flow_level > 0 or self.simple_key):
            style = _DOUBLE_QUOTED
        self.increase_indent(True, False)
        if style == _PLAIN:
            self.plain(text)
        elif style == _DOUBLE_QUOTED:
            self.double_quoted(text, allow_breaks=not self.simple_key)
        else:
            self.literal(text)
        self.indent = self.indents.pop()

    def plain(self, text: str) -> None:
        """A number, bool or null: no spaces nor breaks, so never folded."""
        if not self.whitespace:
            self.put(" ")
        self.put(text)
        self.whitespace = False
        self.indention = False
        if self.root:
            self.open_ended = True

    def double_quoted(self, text: str, allow_breaks: bool) -> None:
        self.write_indicator('"', True, False, False)
        spaces = False
        last = len(text) - 1
        # go-yaml's is_bom reads the scalar's first bytes whatever the index, so a scalar that starts
        # with U+FEFF has every character escaped:
        # https://github.com/go-yaml/yaml/blob/v3.0.1/yamlprivateh.go (is_bom), emitterc.go.
        escape_all = text.startswith("\ufeff")
        for index, char in enumerate(text):
            if escape_all or not _printable(char) or char in _BREAKS or char in '"\\\ufeff':
                code = ord(char)
                escape = _YAML_ESCAPES.get(char)
                if escape is None:
                    escape = f"x{code:02X}" if code <= 0xFF else f"u{code:04X}" if code <= 0xFFFF else f"U{code:08X}"
                self.put("\\" + escape)
                spaces = False
            elif char == " ":
                if allow_breaks and not spaces and self.column > _BEST_WIDTH and 0 < index < last:
                    self.write_indent()
                    if text[index + 1] == " ":
                        self.put("\\")
                else:
                    self.put(" ")
                spaces = True
            else:
                self.put(char)
                spaces = False
        self.write_indicator('"', False, False, False)
        self.whitespace = False
        self.indention = False

    def literal(self, text: str) -> None:
        self.write_indicator("|", True, False, False)
        if text[0] == " " or text[0] in _BREAKS:
            self.write_indicator(str(_BEST_INDENT), False, False, False)
        self.open_ended = False
        chomp = ""
        if text[-1] not in _BREAKS:
            chomp = "-"
        elif len(text) == 1 or text[-2] in _BREAKS:
            chomp = "+"
            self.open_ended = True
        if chomp:
            self.write_indicator(chomp, False, False, False)
        self.put_break()
        self.indention = True
        self.whitespace = True
        breaks = True
        for char in text:
            if char in _BREAKS:
                if char == "\n":
                    self.put_break()
                else:
                    self.out.append(char)
                    self.column = 0
                self.indention = True
                breaks = True
            else:
                if breaks:
                    self.write_indent()
                self.put(char)
                self.indention = False
                breaks = False


def _scalar(raw: object) -> tuple[str, str]:
    """The text and requested style go-cty-yaml gives a primitive value."""
    if raw is None:
        return "null", _PLAIN
    if raw is True or raw is False:
        return ("true" if raw else "false"), _PLAIN
    if isinstance(raw, str):
        return raw, (_LITERAL if "\n" in raw else _DOUBLE_QUOTED)
    if isinstance(raw, (int, Fraction)):
        return format_number(raw), _PLAIN
    raise TypeError(f"not a Terraform value: {raw!r}")


def yaml_encode(value: Val) -> str:
    """What ``yamlencode(value)`` returns: one document, block style, keys sorted and quoted."""
    emitter = _Emitter()
    try:
        with deep_recursion():
            emitter.node(value, root=True)
    except RecursionError:
        raise ContainsUnknown("nesting too deep") from None
    emitter.write_indent()  # document end (implicit)
    if emitter.open_ended:  # stream end
        emitter.write_indicator("...", True, False, False)
        emitter.write_indent()
    return "".join(emitter.out)
