"""Terraform's string functions against what ``terraform console`` 1.11 gave.

The goldens are recorded by ``tests/oracle/functions/strings/record.py``. Each expression is read
by a small reader of the literal HCL the goldens use (calls, tuples, objects, strings with HCL's
escapes, numbers, ``+``, ``/`` and unary ``-``), its calls evaluated through the function
registry (``tolist``, ``toset`` and ``tomap`` as the conversions they are), and its value and
type compared with Terraform's: the same JSON text and type text, an error where Terraform
reports one (with Terraform's message where the string functions write it), Unknown where
Terraform answers "known after apply". Unknown where Terraform knows the value is allowed only
for the cases of ``UNKNOWN_ALLOWED``.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest

from kapsulint.findings import Loc
from kapsulint.terraform import numbers
from kapsulint.terraform.budget import Budget, BudgetExceeded, Limits
from kapsulint.terraform.convert import convert
from kapsulint.terraform.encode import json_encode
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.functions import call
from kapsulint.terraform.functions.strings import grapheme_clusters
from kapsulint.terraform.types import DYNAMIC, STRING, ListType, MapType, SetType, Type, type_of, type_text
from kapsulint.terraform.values import UNKNOWN, Val

GOLDENS = json.loads((Path(__file__).parent / "oracle/functions/strings/goldens.json").read_text(encoding="utf-8"))
CASES = GOLDENS["cases"]
CONVERSIONS = {"tolist": ListType(DYNAMIC), "toset": SetType(DYNAMIC), "tomap": MapType(DYNAMIC)}

# Unknown where Terraform knows the value: none since matching is RE2's, as Go's regexp is.
UNKNOWN_ALLOWED: set[str] = set()
# The same where Terraform reports an error.
UNKNOWN_INSTEAD_OF_ERROR: set[str] = set()

TOKEN = re.compile(r'\s*(?:(?P<number>\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|(?P<string>"(?:[^"\\]|\\.)*")'
                   r'|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<punct>[()\[\]{},=+/\-]))')
ESCAPE = re.compile(r'\\(?:u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|(.))|\$\$\{|%%\{')
SIMPLE_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}


def unquote(literal: str) -> str:
    def replace(match: re.Match) -> str:
        if match.group(0) in ("$${", "%%{"):
            return match.group(0)[1:]
        code = match.group(1) or match.group(2)
        return chr(int(code, 16)) if code else SIMPLE_ESCAPES[match.group(3)]

    # HCL normalises a string literal to NFC (so "a\u0301" is "á")
    return unicodedata.normalize("NFC", ESCAPE.sub(replace, literal[1:-1]))


class Reader:
    """A recursive-descent reader of the goldens' expressions, evaluating as it reads."""

    def __init__(self, text: str) -> None:
        self.tokens: list[tuple[str, str]] = []
        position, text = 0, text.rstrip()
        while position < len(text):
            match = TOKEN.match(text, position)
            assert match, f"cannot read {text[position:]!r}"
            self.tokens.append((match.lastgroup or "", match.group(match.lastgroup or 0)))
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
            value = Val(numbers.add(value.raw, self.term().raw))
        return value

    def term(self) -> Val:
        value = self.unary()
        while self.peek() == "/":
            self.take()
            value = Val(numbers.divide(value.raw, self.unary().raw))
        return value

    def unary(self) -> Val:
        if self.peek() == "-":
            self.take()
            return Val(numbers.negate(self.unary().raw))
        return self.primary()

    def primary(self) -> Val:
        kind, text = self.take()
        if kind == "number":
            return Val(numbers.parse_number(text))
        if kind == "string":
            return Val(unquote(text))
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
        attributes = {}
        while self.peek() != "}":
            kind, key = self.take()
            self.take("=")
            attributes[unquote(key) if kind == "string" else key] = self.expression()
            if self.peek() == ",":
                self.take()
        self.take("}")
        return Val(attributes)

    def call(self, name: str) -> Val:
        self.take("(")
        args = self.items(")")
        if name in CONVERSIONS:
            return convert(args[0], CONVERSIONS[name])
        return call(name, args)


def evaluate(expression: str) -> Val:
    reader = Reader(expression)
    value = reader.expression()
    assert reader.at == len(reader.tokens), expression
    return value


def own_error(message: str) -> bool:
    """Errors the string functions word themselves (the registry's are its own concern)."""
    return message.startswith("Error in function call") or "invalid regexp pattern" in message


@pytest.mark.parametrize("expression", list(CASES))
def test_against_terraform(expression: str) -> None:
    golden = CASES[expression]
    if "error" in golden:
        if expression in UNKNOWN_INSTEAD_OF_ERROR:
            assert not evaluate(expression).known
            return
        with pytest.raises(EvalError) as raised:
            evaluate(expression)
        if own_error(golden["error"]):
            assert str(raised.value) == golden["error"]
        return
    value = evaluate(expression)
    if golden.get("unknown"):
        assert not value.known
        return
    if value.contains_unknown():
        assert expression in UNKNOWN_ALLOWED, f"Unknown where Terraform knows {golden['value']}"
        return
    assert expression not in UNKNOWN_ALLOWED, "now known: take it out of UNKNOWN_ALLOWED"
    assert json_encode(value) == golden["value"]
    assert type_text(type_of(value)) == golden["type"]


def test_unknown_rate_is_small() -> None:
    known = [e for e, golden in CASES.items() if "value" in golden]
    assert len(UNKNOWN_ALLOWED) + len(UNKNOWN_INSTEAD_OF_ERROR) <= 0.02 * len(known)


def test_goldens_cover_enough_cases() -> None:
    assert len(CASES) >= 300
    assert sum("error" in golden for golden in CASES.values()) >= 60


# Unknown arguments: Terraform's answers cannot be recorded without a plan, so these follow the
# declarations (https://github.com/zclconf/go-cty/blob/v1.16.0/cty/function/stdlib/format.go,
# https://github.com/hashicorp/terraform/blob/v1.11.4/internal/lang/funcs/string.go).

def unknown(ty: Type = STRING) -> Val:
    return Val(UNKNOWN, type=ty)


def test_startswith_empty_prefix_of_unknown_is_true() -> None:
    assert call("startswith", [unknown(), Val("")]).raw is True
    assert not call("startswith", [unknown(), Val("a")]).known


def test_format_with_unknown_argument_is_unknown_string() -> None:
    result = call("format", [Val("%s-%d"), unknown(), Val(1)])
    assert not result.known and result.type == STRING
    # even a format string that would fail: go-cty checks the arguments first
    assert not call("format", [Val("%s %s"), unknown()]).known


def test_formatlist_unknown_element_gives_unknown_element() -> None:
    result = call("formatlist", [Val("%s-%s"), Val([Val("a"), Val("b")]), unknown()])
    assert result.type == ListType(STRING)
    assert [item.known for item in result.raw] == [False, False]


def test_formatlist_unknown_list_is_unknown_list() -> None:
    result = call("formatlist", [Val("%s"), unknown(ListType(STRING))])
    assert not result.known and result.type == ListType(STRING)


def test_regex_type_from_pattern_when_subject_unknown() -> None:
    result = call("regex", [Val("(x)(y)?"), unknown()])
    assert not result.known
    assert type_text(result.type) == "tuple([\n    string,\n    string,\n])"


def test_case_folding_is_gos_and_unknown_beyond_the_tables_python_knows() -> None:
    # Go's (?i)i matches neither U+0130 nor U+0131, and neither does RE2
    assert call("regexall", [Val("(?i)i"), Val("\u0130\u0131")]).raw == []
    assert call("replace", [Val("x\u0130"), Val("/(?i)i/"), Val("-")]).raw == "x\u0130"
    assert call("replace", [Val("xI"), Val("/(?i)i/"), Val("-")]).raw == "x-"
    # a character Python's Unicode tables do not assign (U+1FAE8, Unicode 15.0): Unknown
    assert not call("regexall", [Val("(?i)a"), Val("a\U0001fae8")]).known
    assert not call("regex", [Val("\\p{L}"), Val("\U0001fae8a")]).known
    assert call("regex", [Val("a"), Val("\U0001fae8a")]).raw == "a"


def test_sensitive_argument_gives_sensitive_result() -> None:
    assert call("upper", [Val("a", sensitive=True)]).sensitive


class RecordingContext:
    def __init__(self, result: Val) -> None:
        self.result = result
        self.seen: list[tuple[str, dict]] = []

    def base_directory(self) -> str:
        return "."

    def module_directory(self) -> str:
        return "."

    def read_file(self, path: str) -> str | None:
        return None

    def render_template(self, path: str, text: str, names: dict[str, Val], loc: Loc | None) -> Val:
        self.seen.append((text, names))
        return self.result


def test_templatestring_renders_through_the_context() -> None:
    context = RecordingContext(Val("Hello, Ada"))
    result = call("templatestring", [Val("Hello, ${name}"), Val({"name": Val("Ada")})], context=context)
    assert result.raw == "Hello, Ada" and type_of(result) == STRING
    assert context.seen[0][0] == "Hello, ${name}"


def test_templatestring_errors_as_terraform() -> None:
    context = RecordingContext(Val("x"))
    with pytest.raises(EvalError, match="a string is required"):
        call("templatestring", [Val(1), Val({})], context=context)
    with pytest.raises(EvalError, match="must be a map"):
        call("templatestring", [Val("x"), Val("y")], context=context)
    with pytest.raises(EvalError, match="invalid template variable name"):
        call("templatestring", [Val("x"), Val({"a b": Val(1)})], context=context)
    with pytest.raises(EvalError, match="Template result is null"):
        call("templatestring", [Val("x"), Val({})], context=RecordingContext(Val(None)))
    assert not call("templatestring", [Val("x"), Val({})]).known  # no context: Unknown


def test_grapheme_clusters() -> None:
    assert grapheme_clusters("a\r\nb") == ["a", "\r\n", "b"]
    assert grapheme_clusters("e\u0301x") == ["e\u0301", "x"]
    assert grapheme_clusters("👨‍👩‍👧🇫🇷") == ["👨‍👩‍👧", "🇫🇷"]
    assert grapheme_clusters("क्ष") == ["क्", "ष"]  # Unicode 15.0: no GB9c
    assert grapheme_clusters("") == []


def test_widths_and_indents_past_the_budget_are_refused_before_they_are_built() -> None:
    for name, args in [("indent", [Val(10**9), Val("a\nb")]), ("format", [Val("%10000000d"), Val(1)]),
                       ("format", [Val("%.10000000f"), Val(1)]), ("format", [Val("%10000000s"), Val("a")]),
                       ("formatlist", [Val("%999999d"), Val([Val(i) for i in range(10)])])]:
        with pytest.raises(BudgetExceeded) as raised:
            call(name, args)
        assert raised.value.kind == "bytes" and raised.value.what == f"`{name}()`"
    assert call("format", [Val("%3s"), Val("a")]).raw == "  a"


def test_backtracking_patterns_match_in_linear_time() -> None:
    # exponential in a backtracking engine, linear in Go's and in RE2
    subject = Val("a" * 5000 + "b")
    assert call("regexall", [Val("(a|aa)+$"), subject]).raw == []
    assert call("replace", [subject, Val("/(a|aa)+$/"), Val("-")]).raw == subject.raw
    assert call("regex", [Val("(?:a|aa)+b$"), subject]).raw == subject.raw


def test_regex_time_is_the_work_of_the_matches_not_the_clock() -> None:
    # regexall("b", "aab" * 3): three matches, each scanning from the previous end to its own, then
    # one failed search to the end; the budget is charged exactly that work, on any machine
    from kapsulint.terraform.budget import REGEX_WORK_PER_SECOND
    from kapsulint.terraform.functions.regex import translate

    size = translate("b").size
    budget = Budget()
    budget.enter()
    assert [m.raw for m in call("regexall", [Val("b"), Val("aab" * 3)], budget=budget).raw] == ["b"] * 3
    scanned = (3 + 1) * 3 + (0 + 1)  # each match: from its start position to its end, plus one
    assert budget.regex_seconds == pytest.approx(scanned * size / REGEX_WORK_PER_SECOND)
    again = Budget()
    again.enter()
    call("regexall", [Val("b"), Val("aab" * 3)], budget=again)
    assert again.regex_seconds == budget.regex_seconds


def test_regex_time_is_summed_across_calls_and_refused_once_spent() -> None:
    budget = Budget(Limits(expression_regex_seconds=0.0))
    budget.enter()
    with pytest.raises(BudgetExceeded) as raised:
        call("regex", [Val("a"), Val("a")], budget=budget)
    assert raised.value.kind == "regex" and raised.value.scope == "expression"
    budget = Budget(Limits(run_regex_seconds=0.0))
    budget.enter()
    with pytest.raises(BudgetExceeded) as raised:
        call("replace", [Val("a"), Val("/a/"), Val("b")], budget=budget)
    assert raised.value.kind == "regex" and raised.value.scope == "run"
