"""Terraform's types: conversions, unification, equality, sets, conversion functions and typed
variables, against the answers ``terraform console`` gave (tests/oracle/functions/conversion).

The expressions of the goldens use only literals, the functions of the conversion group,
conditionals, ``==``/``!=``, ``+`` and simple ``for`` expressions: a small evaluator here reads
them, so these tests exercise :mod:`kapsulint.terraform.convert` directly.
"""

from __future__ import annotations

import json
import unicodedata
from fractions import Fraction
from pathlib import Path

import pytest

from kapsulint.parsing.hcl import parse_expression, parse_hcl
from kapsulint.terraform import numbers
from kapsulint.terraform.access import index_value
from kapsulint.terraform.convert import (
    conditional,
    convert,
    equal,
    make_list,
    make_map,
    make_object,
    make_set,
    make_tuple,
    unify,
    unify_unsafe,
)
from kapsulint.terraform.encode import json_encode
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.functions import call
from kapsulint.terraform.typeexpr import (
    NO_CONSTRAINT,
    TypeConstraint,
    convert_variable,
    parse_type_constraint,
    prepare_default,
)
from kapsulint.terraform.types import (
    BOOL,
    DYNAMIC,
    NUMBER,
    STRING,
    ListType,
    MapType,
    ObjectType,
    SetType,
    TupleType,
    type_of,
    type_text,
)
from kapsulint.terraform.values import UNKNOWN, Val

ORACLE = Path(__file__).parent / "oracle" / "functions" / "conversion"
GOLDENS = json.loads((ORACLE / "goldens.json").read_text(encoding="utf-8"))
VARIABLES = json.loads((ORACLE / "variables.json").read_text(encoding="utf-8"))


# ---------------------------------------------------------------------------------------------
# a small evaluator for the golden expressions


def evaluate(node: dict, scope: dict[str, Val] | None = None) -> Val:
    scope = scope or {}
    kind = node["t"]
    if kind == "lit":
        value = node["v"]
        if isinstance(value, float):
            value = numbers.parse_number(node.get("num") or repr(value))
        elif isinstance(value, str):
            value = unicodedata.normalize("NFC", value)  # as cty.StringVal does
        return Val(value)
    if kind == "tmpl":
        assert all(isinstance(part, str) for part in node["parts"])
        return Val("".join(node["parts"]))
    if kind == "paren":
        return evaluate(node["e"], scope)
    if kind == "var":
        return scope[node["name"]]
    if kind == "tuple":
        return Val([evaluate(item, scope) for item in node["items"]])
    if kind == "object":
        return Val({evaluate(key, scope).raw: evaluate(value, scope) for key, value in node["items"]})
    if kind == "call":
        return call(node["name"], [evaluate(arg, scope) for arg in node["args"]])
    if kind == "cond":
        return conditional(evaluate(node["test"], scope), _attempt(node["then"], scope), _attempt(node["else"], scope))
    if kind == "op":
        left, right = (evaluate(arg, scope) for arg in node["args"])
        if node["op"] == "+":
            return Val(numbers.add(convert(left, NUMBER).raw, convert(right, NUMBER).raw))
        same = equal(left, right)
        assert same is not UNKNOWN
        # go-cty's Equals carries the marks of every part of both operands
        return Val(same if node["op"] == "==" else not same, sensitive=_deep_sensitive(left) or _deep_sensitive(right))
    if kind == "attr":
        return evaluate(node["obj"], scope).raw[node["name"]]
    if kind == "index":
        return evaluate(node["obj"], scope).raw[evaluate(node["key"], scope).raw]
    if kind == "for":
        collection = evaluate(node["coll"], scope)
        return Val([evaluate(node["value"], {**scope, node["vv"]: item}) for item in collection.raw])
    raise AssertionError(f"not supported here: {kind}")


def _attempt(node: dict, scope: dict[str, Val]) -> Val | EvalError:
    try:
        return evaluate(node, scope)
    except EvalError as error:
        return error


def _deep_sensitive(value: Val) -> bool:
    members = value.raw.values() if isinstance(value.raw, dict) else value.raw if isinstance(value.raw, list) else ()
    return value.sensitive or any(_deep_sensitive(member) for member in members)


# the errors whose whole text kapsulint reproduces ("summary: detail")
_EXACT_MESSAGES = {
    "Invalid function argument",
    "Inconsistent conditional result types",
    "Null condition",
    "Incorrect condition type",
    "Invalid value for input variable",
    "Invalid type specification",
    "Invalid default value for optional attribute",
    "Invalid default value for variable",
    "Invalid quoted type constraints",
    "Required variable not set",
}


def check(golden: dict, compute) -> None:
    """``compute()`` gives what Terraform gave: the same value and type, or an error."""
    if "error" in golden:
        with pytest.raises(EvalError) as raised:
            value = compute()
            # Terraform failed; Unknown is an acceptable answer, a known value is not
            if value.contains_unknown():
                raise EvalError("unknown")
        if golden["error"] in _EXACT_MESSAGES:
            assert str(raised.value).lower() == f"{golden['error']}: {golden['detail']}".lower()
        return
    if golden.get("unknown"):
        # Terraform knows the value only later (a required variable the console leaves unset)
        try:
            assert compute().contains_unknown()
        except EvalError:
            pass
        return
    value = compute()
    assert json_encode(value) == golden["value"]
    assert type_text(type_of(value)) == golden["type"]
    assert _deep_sensitive(value) == bool(golden.get("sensitive"))


@pytest.mark.parametrize("expression", sorted(GOLDENS["expressions"]))
def test_expression(expression: str) -> None:
    check(GOLDENS["expressions"][expression], lambda: evaluate(parse_expression(expression)))


# ---------------------------------------------------------------------------------------------
# typed variables, set with -var


def _declarations(text: str) -> dict[str, dict]:
    blocks = parse_hcl(text)["body"]["blocks"]
    return {block["labels"][0]: {a["name"]: a["expr"] for a in block["body"]["attrs"]} for block in blocks}


def _given(constraint: TypeConstraint, text: str) -> Val:
    """A ``-var`` value, read as Terraform reads it for this constraint."""
    if constraint.parsing_mode == "literal":
        return Val(text)
    return evaluate(parse_expression(text))


def _variable(declaration: dict, assignments: dict[str, str], name: str) -> Val:
    constraint = NO_CONSTRAINT
    if "type" in declaration:
        constraint = parse_type_constraint(declaration["type"], evaluate)
    nullable = evaluate(declaration["nullable"]).raw if "nullable" in declaration else True
    default = None
    if "default" in declaration:
        default = prepare_default(evaluate(declaration["default"]), constraint, nullable)
    given = _given(constraint, assignments[name]) if name in assignments else None
    return convert_variable(given, constraint, name=name, default=default, nullable=nullable,
                            source=f'set using -var="{name}=..."')


def _variable_cases() -> list[tuple[str, str, str]]:
    return [(group["name"], run["name"], expression) for group in VARIABLES for run in group["runs"]
            for expression in group["expressions"]]


@pytest.mark.parametrize("group_name, run_name, expression", _variable_cases())
def test_variable(group_name: str, run_name: str, expression: str) -> None:
    group = next(group for group in VARIABLES if group["name"] == group_name)
    run = next(run for run in group["runs"] if run["name"] == run_name)
    golden = GOLDENS["variables"][group_name][run_name][expression]
    declarations = _declarations(group["variables"])
    assignments = dict(assignment.split("=", 1) for assignment in run["vars"])

    def compute() -> Val:
        # Terraform prepares every variable before it evaluates anything, and stops at an
        # invalid one; the console leaves a required variable that is not set Unknown
        wanted = expression.removeprefix("var.")
        for name, declaration in declarations.items():
            try:
                value = _variable(declaration, assignments, name)
            except EvalError as error:
                if name == wanted or not str(error).startswith("Required variable not set"):
                    raise
            if name == wanted:
                result = value
        return result

    check(golden, compute)


def test_every_case_has_a_golden() -> None:
    lines = (ORACLE / "cases.txt").read_text(encoding="utf-8").splitlines()
    cases = {line for line in lines if line.strip() and not line.startswith("#")}
    assert cases == set(GOLDENS["expressions"])
    assert len(cases) + len(_variable_cases()) >= 250


# ---------------------------------------------------------------------------------------------
# the API the function groups build on


def test_constructors_carry_their_types() -> None:
    assert make_list([Val(1), Val("a")]).type == ListType(STRING)
    assert make_list([], NUMBER).type == ListType(NUMBER)
    assert make_map({"b": Val(1), "a": Val(2)}).type == MapType(NUMBER)
    assert list(make_map({"b": Val(1), "a": Val(2)}).raw) == ["a", "b"]
    assert make_tuple([Val(1), Val("a")]).type == TupleType([NUMBER, STRING])
    assert make_object({"a": Val(True)}).type == ObjectType({"a": BOOL})
    with pytest.raises(EvalError):
        make_list([Val(True), Val(1)])
    with pytest.raises(EvalError):
        make_map({"a": Val([Val(1)]), "b": Val("x")})


def test_sets_are_deduplicated_and_ordered() -> None:
    value = make_set([Val(3), Val(Fraction(1, 2)), Val(3), Val(-1)])
    assert [item.raw for item in value.raw] == [-1, Fraction(1, 2), 3]
    nested = make_set([Val([Val(1), Val(2)]), Val([Val(1)]), Val([Val(10)])], ListType(NUMBER))
    assert json_encode(nested) == "[[10],[1,2],[1]]"
    with_null = make_set([Val(None), Val("b"), Val("a")])
    assert [item.raw for item in with_null.raw] == ["a", "b", None]


def test_sets_with_unknown_members_are_unknown() -> None:
    value = make_set([Val("a"), Val(UNKNOWN, type=STRING)])
    assert value.raw is UNKNOWN and value.type == SetType(STRING)


def test_unknown_converts_to_unknown_of_the_target_type() -> None:
    value = convert(Val(UNKNOWN), ListType(STRING))
    assert value.raw is UNKNOWN and value.type == ListType(STRING)
    inner = convert(Val([Val(UNKNOWN), Val(1)]), ListType(STRING))
    assert inner.raw[0].raw is UNKNOWN and inner.raw[1].raw == "1"


def test_equality_with_unknown_is_unknown_unless_types_differ() -> None:
    assert equal(Val(UNKNOWN, type=STRING), Val("a")) is UNKNOWN
    assert equal(Val(UNKNOWN, type=STRING), Val(1)) is False
    assert equal(Val([Val(UNKNOWN)]), Val([Val(1)])) is UNKNOWN


def test_unify() -> None:
    assert unify([NUMBER, STRING]) == STRING
    # only the unsafe unification may convert from dynamic
    assert unify([DYNAMIC, STRING]) == DYNAMIC
    assert unify_unsafe([DYNAMIC, STRING]) == STRING
    with pytest.raises(EvalError):
        unify([NUMBER, BOOL])
    with pytest.raises(EvalError):
        unify([STRING, BOOL, ListType(STRING)])
    assert unify_unsafe([ObjectType({"a": NUMBER}), ObjectType({"b": STRING})]) == MapType(STRING)


def test_sensitive_marks_survive_conversion() -> None:
    value = convert(Val([Val("a", sensitive=True)], sensitive=True), ListType(STRING))
    assert value.sensitive and value.raw[0].sensitive


def test_conversion_functions_of_unknown() -> None:
    value = call("tolist", [Val(UNKNOWN)])
    assert value.raw is UNKNOWN and value.type == ListType(DYNAMIC)
    partly = call("tolist", [Val([Val(UNKNOWN, type=STRING), Val(1)])])
    assert partly.type == ListType(STRING) and partly.raw[0].raw is UNKNOWN and partly.raw[1].raw == "1"
    assert call("tostring", [Val(UNKNOWN, type=NUMBER)]).type == STRING
    with pytest.raises(EvalError, match="cannot convert tuple to string"):
        call("tostring", [Val(UNKNOWN, type=TupleType([]))])
    assert call("issensitive", [Val(UNKNOWN)]).raw is UNKNOWN


def test_conditional_with_unknown_condition() -> None:
    value = conditional(Val(UNKNOWN, type=BOOL), Val(1), Val("a"))
    assert value.raw is UNKNOWN and value.type == STRING
    both_null = conditional(Val(UNKNOWN), Val(None), Val(None))
    assert both_null.raw is None
    failed = EvalError("Invalid index")
    assert conditional(Val(False), failed, Val(2)).raw == 2
    with pytest.raises(EvalError, match="Invalid index"):
        conditional(Val(True), failed, Val(2))


def test_defaults_applied_to_a_set_keep_it_a_set() -> None:
    constraint = parse_type_constraint(parse_expression("set(object({ a = optional(number, 5) }))"), evaluate)
    given = make_set([Val({}), Val({"a": Val(5)})], ObjectType({"a": NUMBER}, optional=["a"]))
    value = convert_variable(given, constraint, name="s")
    assert json_encode(value) == '[{"a":5}]' and value.type == SetType(ObjectType({"a": NUMBER}))


def test_an_unknown_keeps_the_type_of_what_is_read_from_it() -> None:
    # hcl.GetAttr and hcl.Index read the type of an Unknown: what a splat of an empty list of
    # objects types its result by (Terraform 1.11.4: tolist([])[*].a of list(object({a=string}))
    # is list(string)).
    obj = Val(UNKNOWN, type=ObjectType({"a": STRING}))
    assert index_value(obj, Val("a"), attribute=True).type == STRING
    with pytest.raises(EvalError, match="Unsupported attribute"):
        index_value(obj, Val("b"), attribute=True)
    assert index_value(Val(UNKNOWN, type=ListType(BOOL)), Val(0)).type == BOOL
    assert index_value(Val(UNKNOWN, type=TupleType([STRING, NUMBER])), Val(1)).type == NUMBER
    assert type_of(index_value(Val(UNKNOWN, type=TupleType([STRING])), Val(5))) == DYNAMIC
