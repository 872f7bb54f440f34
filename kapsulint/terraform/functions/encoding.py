"""Terraform's encoding functions: base64, gzip, text encodings, URL, CSV, JSON and YAML.

Declared as in https://github.com/hashicorp/terraform/blob/v1.11.4/internal/lang/funcs/encoding.go
and go-cty's https://github.com/zclconf/go-cty/blob/v1.16.0/cty/function/stdlib/csv.go and
``json.go``; YAML as in https://github.com/zclconf/go-cty-yaml/blob/v1.1.0/functions.go. The JSON
and YAML text itself is :mod:`kapsulint.terraform.encode` and :mod:`kapsulint.terraform.decode`.
"""

from __future__ import annotations

import base64
import codecs
from urllib.parse import quote_plus

from kapsulint.parsing.yaml import MAX_NODES
from kapsulint.terraform import decode, encode
from kapsulint.terraform.budget import NODE_BYTES, BudgetExceeded
from kapsulint.terraform.convert import go_quote
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.functions.registry import Call, Param, argument_error, call_error, function
from kapsulint.terraform.types import DYNAMIC, STRING, ListType, ObjectType, Type
from kapsulint.terraform.values import UNKNOWN, Val, located_at


def string(text: str, loc: object) -> Val:
    return Val(text, loc, type=STRING)  # type: ignore[arg-type]


class Base64Error(Exception):
    """Go's ``base64.CorruptInputError``: the offset of the first byte that is wrong."""

    def __init__(self, offset: int) -> None:
        super().__init__(offset)
        self.offset = offset


_ALPHABET = {c: i for i, c in enumerate(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}
_NEWLINES = b"\r\n"


def go_base64_decode(text: str) -> bytes:
    """Go's ``base64.StdEncoding.DecodeString``: padding required, CR and LF skipped anywhere,
    the bits after the last byte not checked; :class:`Base64Error` with Go's offset otherwise.

    https://github.com/golang/go/blob/go1.23.0/src/encoding/base64/base64.go (``decodeQuantum``)"""
    src = text.encode()
    out = bytearray()
    si = 0
    while True:
        quantum: list[int] = []
        while len(quantum) < 4:
            if si == len(src):
                if not quantum:
                    return bytes(out)
                raise Base64Error(si - len(quantum))
            char = src[si]
            si += 1
            if char in _ALPHABET:
                quantum.append(_ALPHABET[char])
                continue
            if char in _NEWLINES:
                continue
            if char != ord("=") or len(quantum) < 2:
                raise Base64Error(si - 1)
            if len(quantum) == 2:  # "==" expected: the first is consumed
                while si < len(src) and src[si] in _NEWLINES:
                    si += 1
                if si == len(src):
                    raise Base64Error(len(src))
                if src[si] != ord("="):
                    raise Base64Error(si - 1)
                si += 1
            while si < len(src) and src[si] in _NEWLINES:
                si += 1
            if si < len(src):
                raise Base64Error(si)
            value = 0
            for index, digit in enumerate(quantum):
                value |= digit << (18 - 6 * index)
            out += value.to_bytes(3, "big")[: len(quantum) - 1]
            return bytes(out)
        value = quantum[0] << 18 | quantum[1] << 12 | quantum[2] << 6 | quantum[3]
        out += value.to_bytes(3, "big")


@function("base64decode", Param("str", STRING, allow_unknown=True), returns=STRING)
def _base64decode(args: list[Val], call: Call) -> Val:
    text = args[0].raw
    if text is UNKNOWN:
        return Val(UNKNOWN, call.loc, type=STRING)
    try:
        decoded = go_base64_decode(text)
    except Base64Error:
        shown = "(sensitive value)" if args[0].sensitive else go_quote(text)
        raise call_error(call.name, f"failed to decode base64 data {shown}") from None
    try:
        return string(decoded.decode("utf-8"), call.loc)
    except UnicodeDecodeError:
        raise call_error(call.name, "the result of decoding the provided string is not valid UTF-8") from None


@function("base64encode", Param("str", STRING), returns=STRING)
def _base64encode(args: list[Val], call: Call) -> Val:
    data = args[0].raw.encode()
    call.ensure(len(data) * 4 // 3 + 4)
    return string(base64.b64encode(data).decode("ascii"), call.loc)


@function("base64gzip", Param("str", STRING), returns=STRING)
def _base64gzip(args: list[Val], call: Call) -> Val:
    # The bytes are those of Go's own DEFLATE compressor (compress/flate), whose match finding
    # and Huffman tables differ from zlib's: Python cannot reproduce them, so the text is Unknown.
    return Val(UNKNOWN, call.loc, type=STRING)


@function("urlencode", Param("str", STRING), returns=STRING)
def _urlencode(args: list[Val], call: Call) -> Val:
    # Go's url.QueryEscape: letters, digits and "-_.~" kept, space as "+", the rest %XX
    call.ensure(3 * len(args[0].raw.encode()))
    return string(quote_plus(args[0].raw, safe=""), call.loc)


class _TextEncoding:
    """One encoding Go's ``ianaindex`` knows and Python's codecs hold with the same table.

    ``c1_undefined``: Go's tables of most ISO 8859 parts leave the C1 controls (0x80-0x9F)
    undefined, where Python's map them to U+0080-U+009F."""

    def __init__(self, name: str, codec: str, c1_undefined: bool = False) -> None:
        self.name = name  # ianaindex.IANA.Name: what Terraform's messages call it
        self.codec = codec
        self.c1_undefined = c1_undefined

    def encode(self, text: str) -> bytes:
        if self.codec == "utf-16":  # Go's UTF-16 writes a big-endian BOM first
            return codecs.BOM_UTF16_BE + text.encode("utf-16-be")
        if self.c1_undefined and _has_c1(text):
            raise UnicodeEncodeError(self.codec, text, 0, 1, "C1 control")
        return text.encode(self.codec)

    def decode(self, data: bytes) -> str:
        if self.codec == "utf-16":  # the BOM decides, big-endian without one
            if data.startswith(codecs.BOM_UTF16_LE):
                return data[2:].decode("utf-16-le")
            return data[2:].decode("utf-16-be") if data.startswith(codecs.BOM_UTF16_BE) else data.decode("utf-16-be")
        text = data.decode(self.codec)
        if self.c1_undefined and _has_c1(text):
            raise UnicodeDecodeError(self.codec, data, 0, 1, "C1 control")
        return text


def _has_c1(text: str) -> bool:
    return any("\x80" <= char <= "\x9f" for char in text)


def _encodings() -> dict[str, _TextEncoding]:
    """IANA character set names and aliases (https://www.iana.org/assignments/character-sets),
    matched without regard to case as ``ianaindex`` matches them; only encodings whose Go table
    (golang.org/x/text/encoding/charmap) was checked byte for byte against Python's codec
    through Terraform's ``textdecodebase64``."""
    table: list[tuple[str, str, tuple[str, ...]]] = [
        ("UTF-8", "utf-8", ("csUTF8",)),
        ("UTF-16BE", "utf-16-be", ("csUTF16BE",)),
        ("UTF-16LE", "utf-16-le", ("csUTF16LE",)),
        ("UTF-16", "utf-16", ("csUTF16",)),
        ("US-ASCII", "ascii", ("iso-ir-6", "ANSI_X3.4-1968", "ANSI_X3.4-1986", "ISO_646.irv:1991", "ISO646-US",
                               "us", "IBM367", "cp367", "csASCII")),
        ("ISO_8859-1:1987", "latin-1", ("iso-ir-100", "ISO_8859-1", "ISO-8859-1", "latin1", "l1", "IBM819",
                                        "CP819", "csISOLatin1")),
        ("ISO_8859-9:1989", "iso8859-9", ("iso-ir-148", "ISO_8859-9", "ISO-8859-9", "latin5", "l5", "csISOLatin5")),
        ("KOI8-R", "koi8-r", ("csKOI8R",)),
        ("IBM437", "cp437", ("cp437", "437", "csPC8CodePage437")),
        ("IBM850", "cp850", ("cp850", "850", "csPC850Multilingual")),
        ("IBM866", "cp866", ("cp866", "866", "csIBM866")),
        ("macintosh", "mac-roman", ("mac", "csMacintosh")),
    ] + [(f"windows-{n}", f"cp{n}", (f"cswindows{n}",)) for n in (1250, 1251, 1252, 1253, 1254, 1256, 1257, 1258)]
    iso_c1_undefined: list[tuple[str, str, tuple[str, ...]]] = [
        ("ISO_8859-2:1987", "iso8859-2", ("iso-ir-101", "ISO_8859-2", "ISO-8859-2", "latin2", "l2", "csISOLatin2")),
        ("ISO_8859-3:1988", "iso8859-3", ("iso-ir-109", "ISO_8859-3", "ISO-8859-3", "latin3", "l3", "csISOLatin3")),
        ("ISO_8859-4:1988", "iso8859-4", ("iso-ir-110", "ISO_8859-4", "ISO-8859-4", "latin4", "l4", "csISOLatin4")),
        ("ISO_8859-5:1988", "iso8859-5", ("iso-ir-144", "ISO_8859-5", "ISO-8859-5", "cyrillic",
                                          "csISOLatinCyrillic")),
        ("ISO_8859-6:1987", "iso8859-6", ("iso-ir-127", "ISO_8859-6", "ISO-8859-6", "ECMA-114", "ASMO-708",
                                          "arabic", "csISOLatinArabic")),
        ("ISO_8859-7:1987", "iso8859-7", ("iso-ir-126", "ISO_8859-7", "ISO-8859-7", "ELOT_928", "ECMA-118",
                                          "greek", "greek8", "csISOLatinGreek")),
        ("ISO_8859-8:1988", "iso8859-8", ("iso-ir-138", "ISO_8859-8", "ISO-8859-8", "hebrew", "csISOLatinHebrew")),
        ("ISO-8859-10", "iso8859-10", ("iso-ir-157", "l6", "ISO_8859-10:1992", "csISOLatin6", "latin6")),
        ("ISO-8859-13", "iso8859-13", ("csISO885913",)),
        ("ISO-8859-14", "iso8859-14", ("iso-ir-199", "ISO_8859-14:1998", "ISO_8859-14", "latin8", "iso-celtic",
                                       "l8", "csISO885914")),
        ("ISO-8859-15", "iso8859-15", ("ISO_8859-15", "Latin-9", "csISO885915")),
        ("ISO-8859-16", "iso8859-16", ("iso-ir-226", "ISO_8859-16:2001", "ISO_8859-16", "latin10", "l10",
                                       "csISO885916")),
    ]
    found: dict[str, _TextEncoding] = {}
    for entries, c1_undefined in ((table, False), (iso_c1_undefined, True)):
        for name, codec, aliases in entries:
            encoding = _TextEncoding(name, codec, c1_undefined)
            for alias in (name, *aliases):
                found[alias.lower()] = encoding
    return found


_ENCODINGS = _encodings()


@function("textencodebase64", Param("string", STRING), Param("encoding", STRING), returns=STRING)
def _textencodebase64(args: list[Val], call: Call) -> Val:
    encoding = _ENCODINGS.get(args[1].raw.lower())
    if encoding is None:  # unknown here, perhaps known to Go's ianaindex
        return Val(UNKNOWN, call.loc, type=STRING)
    try:
        data = encoding.encode(args[0].raw)
    except UnicodeEncodeError:
        raise argument_error("string", f"the given string contains characters that cannot be represented in {encoding.name}") from None
    return string(base64.b64encode(data).decode("ascii"), call.loc)


@function("textdecodebase64", Param("source", STRING), Param("encoding", STRING), returns=STRING)
def _textdecodebase64(args: list[Val], call: Call) -> Val:
    encoding = _ENCODINGS.get(args[1].raw.lower())
    if encoding is None:
        return Val(UNKNOWN, call.loc, type=STRING)
    try:
        data = go_base64_decode(args[0].raw)
    except Base64Error as error:
        raise argument_error("source", f"the given value is has an invalid base64 symbol at offset {error.offset}") from None
    try:
        text = encoding.decode(data)
    except UnicodeDecodeError:
        text = "\ufffd"
    if "\ufffd" in text:
        raise argument_error("source", f"the given string contains symbols that are not defined for {encoding.name}")
    return string(text, call.loc)


class _CSVError(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"CSV parse error on line {line}: {message}")


def go_csv_records(text: str) -> list[tuple[int, list[str]]]:
    """Go's ``encoding/csv`` reader as csvdecode sets it up (comma, strict quotes, empty lines
    skipped, CRLF read as LF, every record as long as the header): each record with the line
    it starts on.

    https://github.com/golang/go/blob/go1.23.0/src/encoding/csv/reader.go (``readRecord``)"""
    lines = _csv_lines(text)
    records: list[tuple[int, list[str]]] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if line in ("\n", ""):
            continue
        start = index
        fields: list[str] = []
        while True:
            if not line.startswith('"'):
                comma = line.find(",")
                field = line[:comma] if comma >= 0 else line.removesuffix("\n")
                if '"' in field:
                    raise _CSVError(index, 'bare " in non-quoted-field')
                fields.append(field)
                if comma < 0:
                    break
                line = line[comma + 1:]
                continue
            line = line[1:]
            buffer: list[str] = []
            while True:
                quote = line.find('"')
                if quote >= 0:
                    buffer.append(line[:quote])
                    line = line[quote + 1:]
                    if line.startswith('"'):
                        buffer.append('"')
                        line = line[1:]
                        continue
                    if line.startswith(","):
                        line = line[1:]
                        fields.append("".join(buffer))
                        break
                    if line in ("", "\n"):
                        fields.append("".join(buffer))
                        line = None  # type: ignore[assignment]
                        break
                    raise _CSVError(index, 'extraneous or missing " in quoted-field')
                if line:
                    buffer.append(line)
                    if index < len(lines):
                        line = lines[index]
                        index += 1
                        continue
                raise _CSVError(index, 'extraneous or missing " in quoted-field')
            if line is None:
                break
        if records and len(fields) != len(records[0][1]):
            raise _CSVError(start, "wrong number of fields")
        records.append((start, fields))
    return records


def _csv_lines(text: str) -> list[str]:
    """The lines Go's reader reads: each with its LF, CRLF made LF, a final CR dropped."""
    result = []
    for line in _split_lf(text):
        if line.endswith("\r\n"):
            line = line[:-2] + "\n"
        elif line.endswith("\r"):
            line = line[:-1]
        result.append(line)
    return result


def _split_lf(text: str) -> list[str]:
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _csv_type(args: list[Val]) -> Type:
    return _csv_table(args[0].raw)[0]


def _csv_table(text: str) -> tuple[ListType, list[str], list[tuple[int, list[str]]]]:
    try:
        records = go_csv_records(text)
    except _CSVError as error:
        raise EvalError(str(error)) from None
    if not records:
        raise EvalError("missing header line")
    headers = records[0][1]
    if len(set(headers)) != len(headers):
        duplicate = next(name for i, name in enumerate(headers) if name in headers[:i])
        raise EvalError(f"duplicate column name {go_quote(duplicate)}")
    row_type = ObjectType(dict.fromkeys(headers, STRING))
    return ListType(row_type), headers, records[1:]


@function("csvdecode", Param("str", STRING), returns=_csv_type)
def _csvdecode(args: list[Val], call: Call) -> Val:
    text = args[0].raw
    lines = text.count("\n") + 1
    call.ensure(len(text) + NODE_BYTES * (text.count(",") + 2 * lines))  # a field a separator, an object a line
    try:
        list_type, headers, rows = _csv_table(args[0].raw)
    except EvalError as error:
        raise call_error(call.name, str(error)) from None
    values = []
    for _, fields in rows:
        row = {name: string(field, call.loc) for name, field in zip(headers, fields)}
        values.append(Val(row, call.loc, type=list_type.element))
    return Val(values, call.loc, type=list_type)


@function("jsonencode", Param("val", DYNAMIC, allow_null=True, allow_unknown=True), returns=STRING)
def _jsonencode(args: list[Val], call: Call) -> Val:
    if args[0].contains_unknown():
        return Val(UNKNOWN, call.loc, type=STRING)
    call.room_for(args[0])  # the text is about the size of the value, parts shared counted each time
    return string(encode.json_encode(args[0]), call.loc)


@function("jsondecode", Param("str", STRING))
def _jsondecode(args: list[Val], call: Call) -> Val:
    try:
        return _located(decode.json_decode(args[0].raw), call)
    except EvalError as error:
        raise call_error(call.name, str(error).rstrip(".")) from None
    except decode.TooManyNodes:
        raise BudgetExceeded("nodes", "expression", MAX_NODES, call.loc, call.subject) from None


@function("yamlencode", Param("value", DYNAMIC, allow_null=True), returns=STRING)
def _yamlencode(args: list[Val], call: Call) -> Val:
    call.room_for(args[0])
    return string(encode.yaml_encode(args[0]), call.loc)


@function("yamldecode", Param("src", STRING))
def _yamldecode(args: list[Val], call: Call) -> Val:
    try:
        return _located(decode.yaml_decode(args[0].raw), call)
    except EvalError as error:
        raise call_error(call.name, str(error).rstrip(".")) from None
    except decode.TooManyNodes:
        raise BudgetExceeded("nodes", "expression", MAX_NODES, call.loc, call.subject) from None


def _located(value: Val, call: Call) -> Val:
    """A decoded document whose every node is at the call (where the evaluator has nothing
    better: it moves them onto the document's own text when it knows where that is)."""
    return located_at(value, call.loc)
