"""Terraform's collection and set functions against what ``terraform console`` 1.11 gave.

The goldens are recorded by ``tests/oracle/functions/collections/record.py``. Each expression is
read by a small reader of the literal HCL the goldens use (calls, tuples, objects, strings,
numbers, ``...``), its calls evaluated through the function registry (``tolist``, ``toset`` and
``tomap`` as the conversions they are), and its value and type compared with Terraform's.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest

from kapsulint.terraform.convert import convert
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.functions import call
from kapsulint.terraform.numbers import format_number, parse_number
from kapsulint.terraform.types import BOOL, DYNAMIC, NUMBER, STRING, ListType, MapType, SetType, type_of, type_text
from kapsulint.terraform.values import UNKNOWN, Val

GOLDENS = json.loads((Path(__file__).parent / "oracle/functions/collections/goldens.json").read_text(encoding="utf-8"))
CASES = GOLDENS["cases"]
CONVERSIONS = {"tolist": ListType(DYNAMIC), "toset": SetType(DYNAMIC), "tomap": MapType(DYNAMIC)}

TOKEN = re.compile(r'\s*(?:(?P<number>\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|(?P<string>"(?:[^"\\]|\\.)*")'
                   r'|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<punct>\.\.\.|[()\[\]{},=\-]))')
ESCAPES = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}


class Reader:
    """A recursive-descent reader of the expressions of the goldens, evaluating as it reads."""

    def __init__(self, text: str) -> None:
        self.tokens: list[tuple[str, str]] = []
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
        kind, text = self.take()
        if kind == "number":
            return Val(parse_number(text))
        if kind == "string":
            return Val(unquote(text))
        if text == "-":
            return Val(parse_number("-" + self.take()[1]))
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
        args: list[Val] = []
        while self.peek() != ")":
            args.append(self.expression())
            if self.peek() == "...":
                self.take()
                args.extend(args.pop().raw)
            if self.peek() == ",":
                self.take()
        self.take(")")
        if name in CONVERSIONS:
            return convert(args[0], CONVERSIONS[name])
        return call(name, args)


def unquote(text: str) -> str:
    def escape(match: re.Match) -> str:
        code = match.group(1)
        return chr(int(code[1:], 16)) if code.startswith("u") else ESCAPES[code]

    return re.sub(r"\\(u[0-9a-fA-F]{4}|.)", escape, text[1:-1])


def evaluate(expression: str) -> Val:
    reader = Reader(expression)
    value = reader.expression()
    assert reader.at == len(reader.tokens), f"unread tokens in {expression!r}"
    return value


def plain(value: Val) -> object:
    """The value as the JSON Terraform's jsonencode gives, numbers kept as their printed text."""
    raw = value.raw
    assert raw is not UNKNOWN, "Unknown where Terraform knows the value"
    if isinstance(raw, dict):
        return {key: plain(item) for key, item in raw.items()}
    if isinstance(raw, list):
        return [plain(item) for item in raw]
    if isinstance(raw, bool) or raw is None or isinstance(raw, str):
        return raw
    return ("number", format_number(raw))


def from_json(text: str) -> object:
    number = lambda literal: ("number", literal)  # noqa: E731
    return json.loads(text, parse_int=number, parse_float=number)


def test_goldens_cover_every_function_with_errors() -> None:
    names = {re.match(r"\w+", expression).group(0) for expression in CASES}
    assert len(CASES) >= 350
    assert sum("error" in golden for golden in CASES.values()) >= 100
    assert {"alltrue", "anytrue", "chunklist", "coalesce", "coalescelist", "compact", "concat", "contains",
            "distinct", "element", "flatten", "index", "keys", "length", "lookup", "matchkeys", "merge",
            "one", "range", "reverse", "setintersection", "setproduct", "setsubtract", "setunion", "slice",
            "sort", "sum", "transpose", "values", "zipmap", "min", "max"} <= names


@pytest.mark.parametrize("expression", [e for e, g in CASES.items() if "error" not in g])
def test_value_and_type_as_terraform(expression: str) -> None:
    golden = CASES[expression]
    value = evaluate(expression)
    assert plain(value) == from_json(golden["value"])
    assert type_text(type_of(value)) == golden["type"]


@pytest.mark.parametrize("expression", [e for e, g in CASES.items() if "error" in g])
def test_error_where_terraform_errors(expression: str) -> None:
    golden = CASES[expression]["error"]
    with pytest.raises(EvalError) as raised:
        evaluate(expression)
    if golden.startswith("Not enough function arguments"):
        # the registry's arity message lacks go-cty's "at least" for variadic functions
        assert str(raised.value).startswith("Not enough function arguments")
    else:
        assert normalised(str(raised.value)) == normalised(golden)


def normalised(message: str) -> str:
    """The registry writes HCL's "Invalid value" lower-case and its conversion errors without the
    final period; the words must be Terraform's."""
    return message.casefold().rstrip(".")


# Unknown arguments: terraform console has none to give, so these follow go-cty's source
# (an argument Unknown at its top level makes the result Unknown; Unknown parts do not).


def u(ty=DYNAMIC) -> Val:
    return Val(UNKNOWN, type=ty)


def test_partly_unknown_arguments_give_known_results() -> None:
    one, two = Val(1), Val(2)
    assert call("length", [Val([u(), u()])]).raw == 2
    assert call("length", [u(ListType(STRING))]).raw is UNKNOWN
    assert call("length", [Val([u()])]).raw == 1  # a tuple's length is its type's
    merged = call("merge", [Val({"a": u(STRING)}), Val({"b": one})])
    assert set(merged.raw) == {"a", "b"} and merged.raw["a"].raw is UNKNOWN
    assert call("merge", [u(), Val({"b": one})]).raw is UNKNOWN
    assert call("concat", [Val([u(NUMBER)]), Val([two])]).raw[1] is two
    assert call("element", [Val([u(), two]), Val(1)]) is two
    assert call("anytrue", [Val([u(BOOL), Val(True)])]).raw is True
    assert call("anytrue", [Val([u(BOOL), Val(False)])]).raw is UNKNOWN
    assert call("contains", [Val([u(NUMBER), one]), one]).raw is True
    assert call("contains", [Val([u(NUMBER), one]), two]).raw is UNKNOWN
    assert call("coalesce", [Val(None), Val({"a": u()})]).raw["a"].raw is UNKNOWN
    assert call("coalesce", [u(STRING), Val("x")]).raw is UNKNOWN
    assert call("keys", [u(type_of(Val({"b": one, "a": one})))]).plain() == ["a", "b"]
    assert call("lookup", [Val({"a": u(), "b": one}), Val("b")]) is one
    assert call("one", [Val([Val({"a": u()})])]).raw["a"].raw is UNKNOWN
    assert call("zipmap", [Val([Val("a")]), Val([u()])]).raw["a"].raw is UNKNOWN


def test_unknown_where_an_element_decides() -> None:
    for name, args in [
        ("alltrue", [Val([u(BOOL), Val(True)])]),
        ("compact", [Val([u(STRING)])]),
        ("distinct", [Val([u(NUMBER), Val(1)])]),
        ("sort", [Val([u(STRING), Val("a")])]),
        ("sum", [Val([u(NUMBER), Val(1)])]),
        ("flatten", [Val([u(ListType(NUMBER))])]),
        ("index", [Val([u(NUMBER), Val(1)]), Val(1)]),
        ("setunion", [Val([u(STRING)]), Val([Val("a")])]),
        ("transpose", [Val({"a": u(ListType(STRING))})]),
        ("range", [u(NUMBER)]),
    ]:
        assert call(name, args).raw is UNKNOWN, name


def test_an_unknown_list_result_has_an_unknown_length() -> None:
    """Waiting for an Unknown element, a list function's result is an Unknown list, not the
    tuple it was given (whose length would be known)."""
    for name, args in [
        ("distinct", [Val([u(NUMBER), Val(1)])]),
        ("matchkeys", [Val([u(NUMBER), Val(1)]), Val([Val("a"), Val("b")]), Val([Val("a")])]),
        ("chunklist", [Val([Val(1), Val(2)]), u(NUMBER)]),
    ]:
        result = call(name, args)
        assert isinstance(type_of(result), ListType), name
        assert call("length", [result]).raw is UNKNOWN, name


def test_an_unknown_picked_element_keeps_its_resource_reference() -> None:
    ref = ("scaleway_k8s_cluster.main", "id")
    cluster_ids = Val(UNKNOWN, type=ListType(STRING), ref=ref)
    assert call("element", [cluster_ids, Val(0)]).ref == ref
    assert call("one", [cluster_ids]).ref == ref
    assert call("coalesce", [Val(None), Val(UNKNOWN, type=STRING, ref=ref)]).ref == ref
    assert call("lookup", [Val(UNKNOWN, type=MapType(STRING), ref=ref), Val("a")]).ref == ref
    assert call("length", [cluster_ids]).ref is None


def test_results_keep_where_their_parts_were_written() -> None:
    from kapsulint.findings import Loc

    here, there = Loc("main.tf", 3, 5, 3, 8), Loc("vars.tf", 7, 1, 7, 4)
    value = Val("x", here)
    assert call("element", [Val([value]), Val(0)]).loc is here
    assert call("lookup", [Val({"a": value}), Val("a")]).loc is here
    merged = call("merge", [Val({"a": value}, keylocs={"a": there})], loc=there)
    assert merged.raw["a"].loc is here and merged.key_loc("a") is there
    assert call("coalesce", [Val(""), value]).loc is here


def test_sensitive_arguments_make_sensitive_results() -> None:
    secret = Val({"a": Val(1)}, sensitive=True)
    assert call("keys", [secret]).sensitive
    assert call("length", [secret]).sensitive
    with pytest.raises(EvalError, match=r"\(sensitive value\)"):
        call("lookup", [Val({"a": Val(1)}, type=MapType(NUMBER)), Val("b", sensitive=True)])


FUNCTION_NAMES = ["alltrue", "anytrue", "chunklist", "coalesce", "coalescelist", "compact", "concat", "contains",
                  "distinct", "element", "flatten", "index", "keys", "length", "lookup", "matchkeys", "merge", "one",
                  "range", "reverse", "setintersection", "setproduct", "setsubtract", "setunion", "slice", "sort",
                  "sum", "transpose", "values", "zipmap", "min", "max"]
ODD_ARGUMENTS = [
    Val(None), Val(None, type=STRING), u(), u(STRING), u(NUMBER), u(ListType(STRING)), u(SetType(NUMBER)),
    u(MapType(STRING)), u(type_of(Val({"a": Val(1)}))), u(type_of(Val([Val(1), Val("a")]))), Val(1), Val("a"),
    Val(True), Val([]), Val({}), Val([Val(1), u()]), Val([u(STRING), Val("x")]), Val({"a": u()}),
    Val({"a": Val(1)}, open=True), Val([Val([Val(1)]), u(ListType(NUMBER))]), Val({"k": Val([Val("x")])}),
    Val([Val(None), Val("a")]), Val("s", sensitive=True), Val([u(NUMBER), u(NUMBER)], type=SetType(NUMBER)),
]


@pytest.mark.parametrize("name", FUNCTION_NAMES)
def test_any_arguments_give_a_value_or_terraforms_error(name: str) -> None:
    """Nulls, Unknowns of every kind, partly Unknown and open values: never another exception."""
    for count in (0, 1, 2):
        for args in itertools.product(ODD_ARGUMENTS, repeat=count):
            try:
                assert isinstance(call(name, list(args)), Val)
            except EvalError:
                pass
