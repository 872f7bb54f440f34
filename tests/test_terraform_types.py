"""Terraform's conversions, unification, equality and sets (kapsulint.terraform.convert)."""

from __future__ import annotations

import pytest

from kapsulint.terraform.convert import convert, equal, make_list, make_map, make_set, unify, unify_unsafe
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.types import NUMBER, STRING, ListType, ObjectType, SetType, TupleType, type_text
from kapsulint.values import UNKNOWN, Val


def test_primitive_conversions() -> None:
    assert convert(Val("5"), NUMBER).raw == 5
    assert convert(Val(5), STRING).raw == "5"
    with pytest.raises(EvalError, match="a number is required"):
        convert(Val("x"), NUMBER)


def test_structural_conversions() -> None:
    value = convert(Val([Val(1), Val("a")]), ListType(STRING))
    assert [item.raw for item in value.raw] == ["1", "a"]
    assert type_text(value.type) == "list(string)"
    target = ObjectType({"a": STRING, "b": NUMBER}, optional=["b"])
    converted = convert(Val({"a": Val("x")}), target)
    assert converted.raw["b"].raw is None and type_text(converted.type) == "object({\n    a: string,\n    b: number,\n})"
    with pytest.raises(EvalError, match='attribute "b" is required'):
        convert(Val({"a": Val("x")}), ObjectType({"a": STRING, "b": NUMBER}))


def test_unify_and_equal() -> None:
    assert unify([NUMBER, STRING]) == STRING
    assert unify_unsafe([ListType(NUMBER), TupleType([STRING])]) == ListType(STRING)
    assert equal(make_list([Val(1)]), Val([Val(1)])) is False
    assert equal(Val(None), Val(None)) is True
    assert equal(Val([Val(None)]), Val([Val(None)])) is UNKNOWN


def test_sets_and_maps() -> None:
    assert [v.raw for v in make_set([Val("b"), Val("a"), Val("a")]).raw] == ["a", "b"]
    assert make_set([Val("a")]).type == SetType(STRING)
    assert list(make_map({"b": Val(1), "a": Val("x")}).raw) == ["a", "b"]
