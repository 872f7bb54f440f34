"""Terraform's numbers, encoders and decoders against answers Terraform gave.

``tests/oracle/encoding/goldens.json`` is written by ``tests/oracle/encoding/record.py`` with
``terraform console``; this test needs no Terraform. A case passes when kapsulint gives the text
Terraform gave, raises EvalError where Terraform reported an error, or (only where Terraform's
value is an infinity, which a kapsulint value cannot hold) gives Unknown.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from kapsulint.terraform import numbers
from kapsulint.terraform.decode import json_decode, yaml_decode
from kapsulint.terraform.encode import ContainsUnknown, json_encode, yaml_encode
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.values import UNKNOWN, Val, from_plain

GOLDENS = json.loads((Path(__file__).parent / "oracle/encoding/goldens.json").read_text(encoding="utf-8"))
CASES = GOLDENS["cases"]

_BINARY = {
    "+": numbers.add,
    "-": numbers.subtract,
    "*": numbers.multiply,
    "/": numbers.divide,
    "%": numbers.modulo,
    "==": numbers.equals,
    "!=": lambda a, b: not numbers.equals(a, b),
    "<": numbers.less_than,
    "<=": numbers.less_than_or_equal,
    ">": numbers.greater_than,
    ">=": numbers.greater_than_or_equal,
}


def _literal(text: str) -> numbers.Number:
    """An HCL number literal: a leading minus is the negation operator."""
    if text.startswith("-"):
        return numbers.negate(numbers.parse_number(text[1:]))
    return numbers.parse_number(text)


def _text(result: object) -> str:
    if isinstance(result, bool):
        return "true" if result else "false"
    return numbers.format_number(result)


def _pow(base: str, exponent: str) -> numbers.Number:
    return numbers.from_float(float(base) ** float(exponent))


def _evaluate(case: dict) -> str:
    """kapsulint's text for the case; EvalError, Unrepresentable or ContainsUnknown propagate."""
    kind = case["kind"]
    data = case.get("input")
    if kind == "parse":
        return numbers.format_number(numbers.parse_number(data))
    if kind == "arithmetic":
        if data[0] == "neg":
            return _text(numbers.negate(_literal(data[1])))
        return _text(_BINARY[data[1]](_literal(data[0]), _literal(data[2])))
    if kind == "pow":
        base, exponent, op, other = data
        result = _pow(base, exponent)
        if op:
            right = _pow("3", "0.5") if other.startswith("pow") else _literal(other)
            result = _BINARY[op](result, right)
        return _text(result)
    if kind == "jsonencode":
        return json_encode(_value(case["value"]))
    if kind == "yamlencode":
        return yaml_encode(_value(case["value"]))
    if kind == "jsondecode":
        return json_encode(json_decode(data))
    if kind == "yamldecode":
        return json_encode(yaml_decode(data))
    raise AssertionError(kind)


def _value(text: str) -> Val:
    return from_plain(json.loads(text, parse_float=numbers.parse_number, parse_int=numbers.parse_number))


def _outcome(case: dict) -> tuple[str, str]:
    try:
        return "output", _evaluate(case)
    except EvalError as error:
        return "error", str(error)
    except (numbers.Unrepresentable, ContainsUnknown):
        return "unknown", ""


def _infinite(case: dict) -> bool:
    """Terraform's value is an infinity (printed, or refused by jsonencode)."""
    return case.get("output") in ("+Inf", "-Inf") or "infinity" in case.get("error", "")


@pytest.mark.parametrize("kind", sorted({case["kind"] for case in CASES}))
def test_matches_terraform(kind: str) -> None:
    wrong = []
    for case in CASES:
        if case["kind"] != kind:
            continue
        got, text = _outcome(case)
        if got == "unknown" and _infinite(case):
            continue
        if got == "output" and text == case.get("output"):
            continue
        if got == "error" and "error" in case:
            continue
        wrong.append((case["expression"], case.get("output", case.get("error")), got, text))
    assert not wrong, f"{len(wrong)} differ from Terraform; first: {wrong[:5]}"


def test_goldens_cover_every_kind() -> None:
    counts = Counter(case["kind"] for case in CASES)
    assert GOLDENS["terraform"].startswith("1.11.")
    assert sum(counts.values()) >= 300
    assert all(counts[kind] >= 40 for kind in ("parse", "jsonencode", "yamlencode", "jsondecode", "yamldecode"))


def test_unknown_inside_is_unknown() -> None:
    value = from_plain({"a": [1, Val(UNKNOWN)]})
    with pytest.raises(ContainsUnknown):
        json_encode(value)
    with pytest.raises(ContainsUnknown):
        yaml_encode(value)


def test_values_500_levels_deep_encode_and_decode() -> None:
    """Values files and HCL may nest 500 levels: deeper than Python's default recursion allows."""
    value = Val("leaf")
    for _ in range(500):
        value = from_plain({"a": [value]})
    assert json_encode(value).count("[") == 500
    assert yaml_encode(value).count("- ") == 500
    assert json_decode("[" * 500 + "]" * 500).raw[0].raw[0].raw[0].known
    assert yaml_decode("[" * 500 + "]" * 500).raw[0].raw[0].known


def test_yaml_scalar_starting_with_bom_has_every_character_escaped() -> None:
    # go-yaml's is_bom reads the scalar's first bytes, not the current one (Terraform 1.11.4:
    # yamlencode("\ufeffa") is "\uFEFF\x61").
    assert yaml_encode(from_plain("\ufeffa b")) == '"\\uFEFF\\x61\\x20\\x62"\n'
    assert yaml_encode(from_plain("a\ufeffb")) == '"a\\uFEFFb"\n'


@pytest.mark.parametrize(("text", "decoded"), [
    ("2024-02-29", "2024-02-29T00:00:00Z"),  # a leap year
    ("2100-02-29", "2100-02-29"),  # not a date: a century that is no leap year stays a string
    ("2000-02-29", "2000-02-29T00:00:00Z"),  # a leap century
    ("0000-02-29", "0000-02-29T00:00:00Z"),  # year 0 leaps in Go's proleptic calendar
    ("2023-04-31", "2023-04-31"),  # April has 30 days
    ("2023-12-31 23:59:59", "2023-12-31T23:59:59Z"),
])
def test_yaml_timestamps_check_the_day_of_the_month(text: str, decoded: str) -> None:
    """go-yaml reads a valid date as a timestamp, which yamldecode gives in RFC 3339; an
    impossible date stays a string (the month lengths are kapsulint's own, without calendar)."""
    assert yaml_decode(text).raw == decoded
