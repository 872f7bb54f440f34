"""Terraform's set functions: ``setunion``, ``setintersection``, ``setsubtract``, ``setproduct``.

Declared as go-cty declares them (https://github.com/zclconf/go-cty/blob/v1.16.0/cty/function/stdlib/set.go,
and ``setproduct`` in https://github.com/zclconf/go-cty/blob/v1.16.0/cty/function/stdlib/collection.go).
Results are built by :func:`~kapsulint.terraform.convert.make_set`, which orders them as go-cty
iterates a set (or gives Unknown where that order cannot be reproduced).
"""

from __future__ import annotations

from collections.abc import Callable

from kapsulint.terraform.budget import NODE_BYTES
from kapsulint.terraform.convert import convert, equal, make_set, unify_unsafe
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.functions.collections import shallow_unknown, unknown
from kapsulint.terraform.functions.registry import Call, Param, argument_error, call_error, function
from kapsulint.terraform.types import DYNAMIC, Dynamic, ListType, SetType, TupleType, Type, type_of
from kapsulint.terraform.values import Val

_SET = SetType(DYNAMIC)
SetOperation = Callable[[list[Val], list[Val]], list[Val]]


def _set_type(name: str) -> Callable[[list[Val]], Type]:
    """go-cty's ``setOperationReturnType``: a set of the arguments' unified element type; known
    empty sets of unknown element type (``[]``) do not take part."""

    def returns(args: list[Val]) -> Type:
        elements = []
        for arg in args:
            ty = type_of(arg)  # not a set when the registry waits for an Unknown argument
            ety = ty.element if isinstance(ty, SetType) else DYNAMIC
            if not shallow_unknown(arg) and not arg.raw and isinstance(ety, Dynamic):
                continue
            elements.append(ety)
        if not elements:
            return _SET
        try:
            return SetType(unify_unsafe(elements))
        except EvalError:
            raise call_error(name, "given sets must all have compatible element types") from None

    return returns


def _has(items: list[Val], item: Val) -> bool:
    return any(equal(item, other) is True for other in items)


def _set_operation(name: str, first: str, other: str, operation: SetOperation, *, binary: bool = False) -> None:
    """Register ``name``: ``operation`` folds the converted arguments' elements left to right."""
    returns = _set_type(name)
    params = (Param(first, _SET), Param(other, _SET)) if binary else (Param(first, _SET),)
    varparam = None if binary else Param(other, _SET)

    @function(name, *params, varparam=varparam, returns=returns)
    def implementation(args: list[Val], call: Call) -> Val:
        ty = returns(args)
        members: list[Val] | None = None
        for position, arg in enumerate(args):
            try:
                items = convert(arg, ty).raw
            except EvalError as error:
                raise argument_error(first if position == 0 else other, str(error)) from None
            members = list(items) if members is None else operation(members, items)
        return make_set(members or [], ty.element, loc=call.loc)  # type: ignore[attr-defined]


_set_operation("setunion", "first_set", "other_sets", lambda kept, items: kept + items)
_set_operation("setintersection", "first_set", "other_sets",
               lambda kept, items: [item for item in kept if _has(items, item)])
_set_operation("setsubtract", "a", "b", lambda kept, items: [item for item in kept if not _has(items, item)],
               binary=True)


def _product_type(args: list[Val]) -> Type:
    if len(args) < 2:
        raise call_error("setproduct", "at least two arguments are required")
    lists = 0
    elements: list[Type] = []
    for arg in args:
        ty = type_of(arg)
        if isinstance(ty, SetType):
            elements.append(ty.element)
        elif isinstance(ty, ListType):
            elements.append(ty.element)
            lists += 1
        elif isinstance(ty, TupleType):
            lists += 1
            if not ty.elements:
                elements.append(DYNAMIC)
                continue
            try:
                elements.append(unify_unsafe(ty.elements))
            except EvalError:
                raise argument_error("sets", "all elements must be of the same type") from None
        else:
            raise argument_error("sets", "a set or a list is required")
    product = TupleType(elements)
    return ListType(product) if lists == len(args) else SetType(product)


@function("setproduct", varparam=Param("sets", allow_unknown=True, allow_marked=True), returns=_product_type)
def setproduct(args: list[Val], call: Call) -> Val:
    """Every combination, the last argument varying fastest: a list of tuples when every argument
    is a list or tuple, else a set of them."""
    if any(shallow_unknown(arg) and isinstance(type_of(arg), Dynamic) for arg in args):
        return unknown(call)
    ty = _product_type(args)
    if any(shallow_unknown(arg) or (isinstance(type_of(arg), SetType) and arg.contains_unknown()) for arg in args):
        return unknown(call, ty)
    product = ty.element  # type: ignore[attr-defined]
    count = 1
    for arg in args:
        count *= len(arg.raw)
    call.ensure(count * NODE_BYTES * (len(args) + 1))  # a tuple per combination, before any is built
    combinations: list[list[Val]] = [[]]
    for arg, ety in zip(args, product.elements):
        converted = [convert(item, ety) for item in arg.raw]
        combinations = [combination + [item] for combination in combinations for item in converted]
    tuples = [Val(combination, call.loc, type=product) for combination in combinations]
    if isinstance(ty, ListType):
        return Val(tuples, call.loc, type=ty)
    return make_set(tuples, product, loc=call.loc)
