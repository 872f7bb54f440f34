"""Terraform's numeric, encoding, hash, network, date and filesystem functions against what
``terraform console`` 1.11 gave.

The goldens are recorded by ``tests/oracle/functions/misc/record.py`` from ``cases.txt``. Each
expression is read by a small reader of the literal HCL the cases use (calls, tuples, objects,
strings, numbers, ``-``, ``+`` and ``/``), its calls evaluated through the function registry
(``tomap`` as the conversion it is), the file functions through a fake context over a temporary
directory holding the files the recording used, and its value and type compared with Terraform's.
"""

from __future__ import annotations

import json
import re
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from kapsulint.findings import Loc
from kapsulint.terraform.convert import convert
from kapsulint.terraform.encode import json_encode
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.functions import call
from kapsulint.terraform.numbers import add, divide, negate, parse_number
from kapsulint.terraform.types import DYNAMIC, STRING, MapType, SetType, type_of, type_text
from kapsulint.terraform.values import UNKNOWN, Val

HERE = Path(__file__).parent / "oracle/functions/misc"
sys.path.insert(0, str(HERE))

from files import write_files  # noqa: E402

GOLDENS: dict[str, dict] = json.loads((HERE / "goldens.json").read_text(encoding="utf-8"))

# Where kapsulint gives Unknown although Terraform knows the value or reports an error, and why.
UNKNOWN_ACCEPTED = {
    'base64gzip("test")': "Go's DEFLATE bytes, which zlib does not reproduce",
    'base64gzip("")': "Go's DEFLATE bytes",
    "base64gzip(123)": "Go's DEFLATE bytes",
    'bcrypt("x", 3)': "randomly salted",
    **{f"pow({args})": "Go's Exp on amd64 rounds as the processor's FMA support has it"
       for args in ("2, 0.3", "10, 1.5", "7, 2.25", "3.3, -1.7", "123.456, 3.21", "0.5, 0.7", "17, 1.3")},
    'textencodebase64("Hello", "not-an-encoding")': "a name kapsulint's table lacks may be one Go knows",
    'textencodebase64("Hello", "cp1252")': "a name kapsulint's table lacks",
    'textencodebase64("Hello", "UTF-32")': "a name kapsulint's table lacks",
    'textdecodebase64("SGVsbG8=", "bogus")': "a name kapsulint's table lacks",
    'pathexpand("~")': "the home directory of the machine Terraform runs on",
    'pathexpand("~\\\\x")': "the home directory of the machine Terraform runs on",
    'templatefile("list.tftpl", {items = ["a", "b"]})': "the fake context renders interpolations only",
    'templatefile("json.tftpl", {a = "x"})': "the fake context renders interpolations only",
    'templatefile("broken.tftpl", {})': "the fake context renders interpolations only",
}

TOKEN = re.compile(r'\s*(?:(?P<number>\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|(?P<string>"(?:[^"\\]|\\.)*")'
                   r'|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<punct>[()\[\]{},=+/\-]))')
ESCAPES = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}


class FakeContext:
    """The evaluator's context over a directory, as Terraform run in it sees it: the base
    directory is ``.``, relative paths are below ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def _path(self, path: str) -> Path:
        return Path(path) if path.startswith("/") else self.root / path

    def base_directory(self) -> str:
        return "."

    def module_directory(self) -> str:
        return "."

    def read_bytes(self, path: str) -> bytes | None:
        target = self._path(path)
        return target.read_bytes() if target.is_file() else None

    def read_file(self, path: str) -> str | None:
        data = self.read_bytes(path)
        return None if data is None else data.decode("utf-8", "surrogateescape")

    def file_kind(self, path: str) -> str:
        target = self._path(path)
        return "file" if target.is_file() else "directory" if target.is_dir() else "missing"

    def list_files(self, directory: str) -> list[str]:
        base = self._path(directory)
        return sorted(p.relative_to(base).as_posix() for p in base.rglob("*") if p.is_file())

    def render_template(self, path: str, text: str, names: dict[str, Val], loc: Loc) -> Val:
        if "%{" in text or re.search(r"\$\{(?!\w+\})", text):
            return Val(UNKNOWN, loc)

        def substitute(match: re.Match) -> str:
            name = match.group(1)
            if name not in names:
                raise EvalError(f'Invalid function argument: Invalid value for "vars" parameter: vars map does not '
                                f'contain key "{name}", referenced at {path}:1,{match.start() + 3}-{match.end()}.')
            value = names[name]
            if not isinstance(value.raw, (str, int, bool, Fraction)):
                raise EvalError(f"Error in function call: {path}: Invalid template interpolation value.")
            return convert(value, STRING).raw

        return Val(re.sub(r"\$\{(\w+)\}", substitute, text), loc, type=STRING)


class Reader:
    """A recursive-descent reader of the cases' expressions, evaluating as it reads."""

    def __init__(self, text: str, context: FakeContext) -> None:
        self.tokens: list[tuple[str, str]] = []
        self.context = context
        position = 0
        while position < len(text.rstrip()):
            match = TOKEN.match(text, position)
            assert match, f"cannot read {text[position:]!r}"
            self.tokens.append((match.lastgroup, match.group(match.lastgroup)))
            position = match.end()
        self.at = 0

    def peek(self) -> str:
        return self.tokens[self.at][1] if self.at < len(self.tokens) else ""

    def take(self, expected: str | None = None) -> tuple[str, str]:
        token = self.tokens[self.at]
        assert expected is None or token[1] == expected, (token, expected)
        self.at += 1
        return token

    def expression(self) -> Val:
        value = self.term()
        while self.peek() == "+":
            self.take()
            value = Val(add(value.raw, self.term().raw))
        return value

    def term(self) -> Val:
        value = self.unary()
        while self.peek() == "/":
            self.take()
            value = Val(divide(value.raw, self.unary().raw))
        return value

    def unary(self) -> Val:
        kind, text = self.take()
        if kind == "number":
            return Val(parse_number(text))
        if kind == "string":
            return Val(unquote(text))
        if text == "-":
            return Val(negate(self.unary().raw))
        if text == "[":
            return Val(self.items("]"))
        if text == "{":
            return self.object()
        if kind == "name" and self.peek() == "(":
            return self.call(text)
        return Val({"true": True, "false": False, "null": None}[text])

    def items(self, closing: str) -> list[Val]:
        items = []
        while self.peek() != closing:
            items.append(self.expression())
            if self.peek() == ",":
                self.take()
        self.take(closing)
        return items

    def object(self) -> Val:
        items = {}
        while self.peek() != "}":
            kind, key = self.take()
            self.take("=")
            items[unquote(key) if kind == "string" else key] = self.expression()
            if self.peek() == ",":
                self.take()
        self.take("}")
        return Val(items)

    def call(self, name: str) -> Val:
        self.take("(")
        args = self.items(")")
        if name == "tomap":
            return convert(args[0], MapType(DYNAMIC))
        return call(name, args, None, self.context)


def unquote(text: str) -> str:
    def escape(match: re.Match) -> str:
        code = match.group(1)
        return chr(int(code[1:], 16)) if code.startswith("u") else ESCAPES[code]

    body = text[1:-1].replace("${path.module}", ".")
    return re.sub(r"\\(u[0-9a-fA-F]{4}|.)", escape, body)


@pytest.fixture(scope="module")
def context(tmp_path_factory: pytest.TempPathFactory) -> FakeContext:
    root = tmp_path_factory.mktemp("misc-files")
    write_files(root)
    return FakeContext(root)


def evaluate(expression: str, context: FakeContext | None) -> Val:
    reader = Reader(expression, context)  # type: ignore[arg-type]
    value = reader.expression()
    assert reader.at == len(reader.tokens), f"unread tokens in {expression!r}"
    return value


def core(message: str) -> str:
    """A message without the summary Terraform's console prints before it and the final period."""
    message = re.sub(r'^(Invalid function argument: |Error in function call: )', "", message)
    message = re.sub(r'^(Call to function "\w+" failed: |Invalid value for "\w+" parameter: )', "", message,
                     flags=re.IGNORECASE)
    return " ".join(message.rstrip(".").casefold().split())  # the console rewraps the text


FUNCTIONS = {"abs", "ceil", "floor", "log", "parseint", "pow", "signum", "base64decode", "base64encode",
             "base64gzip", "csvdecode", "textdecodebase64", "textencodebase64", "urlencode", "jsonencode",
             "jsondecode", "yamlencode", "yamldecode", "md5", "sha1", "sha256", "sha512", "base64sha256",
             "base64sha512", "uuidv5", "bcrypt", "cidrhost", "cidrnetmask", "cidrsubnet", "cidrsubnets",
             "formatdate", "timeadd", "timecmp", "file", "fileexists", "filebase64", "filemd5", "filesha1",
             "filesha256", "filesha512", "filebase64sha256", "filebase64sha512", "templatefile", "abspath",
             "dirname", "basename", "pathexpand", "fileset"}


def test_goldens_cover_every_function_with_errors() -> None:
    names = {re.match(r"\w+", expression).group(0) for expression in GOLDENS}
    assert names >= FUNCTIONS
    assert len(GOLDENS) >= 400
    assert sum("error" in golden for golden in GOLDENS.values()) >= 100
    assert set(UNKNOWN_ACCEPTED) <= set(GOLDENS)


@pytest.mark.parametrize("expression", [e for e, g in GOLDENS.items() if "value" in g])
def test_value_and_type_as_terraform(expression: str, context: FakeContext) -> None:
    golden = GOLDENS[expression]
    value = evaluate(expression, context)
    if expression in UNKNOWN_ACCEPTED:
        assert value.raw is UNKNOWN
        return
    assert not value.contains_unknown(), "Unknown where Terraform knows the value"
    assert json_encode(value) == golden["value"]
    assert type_text(type_of(value)) == golden["type"]


@pytest.mark.parametrize("expression", [e for e, g in GOLDENS.items() if "console" in g])
def test_infinity_is_unknown(expression: str, context: FakeContext) -> None:
    value = evaluate(expression, context)
    assert value.raw is UNKNOWN and type_text(type_of(value)) == GOLDENS[expression]["type"]


@pytest.mark.parametrize("expression", [e for e, g in GOLDENS.items() if "error" in g])
def test_error_where_terraform_errors(expression: str, context: FakeContext) -> None:
    golden = core(GOLDENS[expression]["error"])
    if expression in UNKNOWN_ACCEPTED:
        assert evaluate(expression, context).raw is UNKNOWN
        return
    with pytest.raises(EvalError) as raised:
        evaluate(expression, context)
    if "panic in function implementation" in golden:  # Go's stack trace follows
        golden = golden[: golden.index("panic in function implementation") + len("panic in function implementation")]
        assert golden in core(str(raised.value))
    elif expression.startswith(("jsondecode(", "yamldecode(")) or ".tftpl:" in golden:
        pass  # the decoders' and the template renderer's own messages are tested with them
    elif expression.startswith("fileset("):  # the pattern is written joined to its directory
        assert core(str(raised.value)).endswith(golden.split(": ", 1)[1])
    else:
        assert core(str(raised.value)) == golden


def test_without_a_context_file_functions_are_unknown() -> None:
    for expression in ('file("hello.txt")', 'fileexists("hello.txt")', 'filesha256("hello.txt")',
                       'fileset(".", "*")', 'templatefile("greeting.tftpl", {})', 'abspath("x")'):
        assert evaluate(expression, None).raw is UNKNOWN


def test_machine_and_time_dependent_functions_are_unknown(context: FakeContext) -> None:
    for name, args in (("uuid", []), ("timestamp", []), ("plantimestamp", []), ("pathexpand", [Val("~/x")]),
                       ("rsadecrypt", [Val("eA=="), Val("key")])):
        value = call(name, args, None, context)
        assert value.raw is UNKNOWN and type_of(value) == STRING
    assert call("fileset", [Val("."), Val("../*")], None, context).raw is UNKNOWN


def test_unknown_arguments(context: FakeContext) -> None:
    unknown = Val(UNKNOWN, type=STRING)
    assert call("file", [unknown], None, context).raw is UNKNOWN
    assert type_of(call("fileset", [Val("."), unknown], None, context)) == SetType(STRING)
    assert call("templatefile", [Val("greeting.tftpl"), Val({"name": unknown})], None, context).raw is UNKNOWN
    assert call("base64decode", [unknown], None, context).raw is UNKNOWN
    assert call("jsonencode", [Val([unknown])], None, context).raw is UNKNOWN


def test_file_functions_keep_the_sensitive_mark(context: FakeContext) -> None:
    assert call("file", [Val("hello.txt", sensitive=True)], None, context).sensitive


def test_computed_values_are_at_the_call(context: FakeContext) -> None:
    loc = Loc("main.tf", 3, 5, 3, 40)
    decoded = call("jsondecode", [Val('{"a": [1]}')], loc, context)
    assert decoded.loc == loc and decoded.raw["a"].raw[0].loc == loc
    assert call("cidrsubnets", [Val("10.0.0.0/16"), Val(8)], loc, context).raw[0].loc == loc
    assert call("file", [Val("hello.txt")], loc, context).loc == loc
