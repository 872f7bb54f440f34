"""Helm's --set syntax as kapsule.strvals reads it, case by case against Helm's strvals parser
(https://github.com/helm/helm/blob/v3.16.3/pkg/strvals/parser.go and its parser_test.go)."""

from __future__ import annotations

import pytest

from kapsulint.kapsule import strvals
from kapsulint.kapsule.strvals import Assignment


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("a=b", [Assignment(("a",), "b")]),
        ("a.b=1", [Assignment(("a", "b"), 1)]),
        ("a.b\\.c=x", [Assignment(("a", "b.c"), "x")]),
        ("a=1,b=two", [Assignment(("a",), 1), Assignment(("b",), "two")]),
        ("list[0].name=x", [Assignment(("list", 0, "name"), "x")]),
        ("m[1][0]=y", [Assignment(("m", 1, 0), "y")]),
        ("a={x,y},b=2", [Assignment(("a",), ["x", "y"]), Assignment(("b",), 2)]),
        ("a={1,true}", [Assignment(("a",), [1, True])]),
        ("a=", [Assignment(("a",), "")]),
        ("a=,b=1", [Assignment(("a",), ""), Assignment(("b",), 1)]),
        ("a=x\\,y", [Assignment(("a",), "x,y")]),  # an escaped comma is kept, the backslash dropped
        ("a=x\\.y", [Assignment(("a",), "x.y")]),  # any escape is resolved in a value too
        ("=1", []),  # an empty key sets nothing
    ],
)
def test_parse(line, expected):
    assert strvals.parse(line) == expected


@pytest.mark.parametrize("line", ["a=b,c", "a", "a,b=1", "a={x,y", "a..b=1", "a.=1", "a[x]=1", "a[-1]=1",
                                  "a[0]x=1", "a={a}x"])
def test_refused(line):
    """Lines Helm refuses ("key has no value", an unterminated list, a bad index...)."""
    assert strvals.parse(line) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("true", True), ("TRUE", True), ("False", False), ("null", None), ("NULL", None),
        ("0", 0), ("12", 12), ("-7", -7), ("+5", 5), ("-0", 0),
        ("007", "007"), ("-007", -7),  # only a leading 0 keeps the string: strconv.ParseInt does the rest
        ("9223372036854775807", 9223372036854775807), ("9223372036854775808", "9223372036854775808"),
        ("1.5", "1.5"), ("", ""), ("yes", "yes"),
    ],
)
def test_typed(text, expected):
    assert strvals.typed(text) == expected and type(strvals.typed(text)) is type(expected)


def test_string_type_keeps_text():
    assert strvals.parse("a=true,b=007", as_string=True) == [Assignment(("a",), "true"), Assignment(("b",), "007")]


@pytest.mark.parametrize(
    ("value", "end"),
    [("a,b", 1), ("a\\,b", 4), ("{a,b}", 5), ("{a,b},c", 5), ("", 0), ("{a", None), ("10.0.0.0/8,192.168.0.0/16", 10)],
)
def test_value_end(value, end):
    assert strvals.value_end(value) == end
