"""Reading into values as HCL does: indexes, attributes, iteration.

https://github.com/hashicorp/hcl/blob/v2.23.0/ops.go (``Index``, ``GetAttr``). A key or attribute
that does not exist is an error, as in Terraform; the lenient reading the rules use on values
files is :meth:`kapsulint.terraform.values.Val.get`.
"""

from __future__ import annotations

from fractions import Fraction

from kapsulint.terraform.convert import convert
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.types import (
    DYNAMIC, NUMBER, STRING, Dynamic, ListType, MapType, ObjectType, SetType, TupleType, Type, kind_of, type_of,
    type_text,
)
from kapsulint.terraform.values import UNKNOWN, Val, unknown_from

_MISSING_KEY = "Invalid index: The given key does not identify an element in this collection value."


def elements(value: Val) -> list[Val]:
    """The elements of a known list, set or tuple, in order."""
    return value.raw if isinstance(value.raw, list) else []


def iteration_pairs(collection: Val) -> list[tuple[Val, Val]] | None:
    """(key, value) pairs of a list, set, tuple, map or object in Terraform's order; None when
    Unknown. A set's key is the element itself; maps and objects iterate in key order."""
    if not collection.known or collection.open:
        return None
    raw = collection.raw
    if isinstance(raw, list):
        if isinstance(collection.type, SetType):
            return [(item, item) for item in raw]
        return [(Val(i), item) for i, item in enumerate(raw)]
    if isinstance(raw, dict):
        return [(Val(k, collection.key_loc(k)), raw[k]) for k in sorted(raw)]
    if raw is None:
        return []
    return None


def _unknown_element_type(target_type: Type, key: Val, attribute: bool) -> Type:
    """The type of an element of an Unknown value of ``target_type``, as far as the type tells it
    (dynamic where it does not). An object's type says which attributes it has, Unknown or not
    (hcl.GetAttr: https://github.com/hashicorp/hcl/blob/v2.23.0/ops.go)."""
    if isinstance(target_type, (ListType, MapType)):
        return target_type.element
    if isinstance(target_type, ObjectType) and key.known and isinstance(key.raw, str):
        if attribute and key.raw not in target_type.attributes:
            raise EvalError(f'Unsupported attribute: This object does not have an attribute named "{key.raw}".')
        return target_type.attributes.get(key.raw, DYNAMIC)
    if isinstance(target_type, TupleType) and key.known and not isinstance(key.raw, (str, bool)):
        position = key.raw
        if isinstance(position, (int, Fraction)) and position == int(position) and 0 <= position < len(target_type.elements):
            return target_type.elements[int(position)]
    return DYNAMIC


def index_value(target: Val, key: Val, *, attribute: bool = False) -> Val:
    """``target[key]`` (or ``target.key`` when ``attribute``), with HCL's errors."""
    if target.raw is None:
        if attribute:
            raise EvalError("Attempt to get attribute from null value: This value is null, so it does not have any attributes.")
        raise EvalError("Attempt to index null value: This value is null, so it does not have any indices.")
    if key.raw is None:
        raise EvalError("Invalid index: Can't use a null value as an indexing key.")
    if not target.known or not key.known:
        result = unknown_from(target, key)
        if target.type is not None:
            result.type = _unknown_element_type(target.type, key, attribute)
        return result
    kind = kind_of(target)
    raw = target.raw
    if kind is ListType or kind is TupleType:
        if attribute:
            raise EvalError("Unsupported attribute: This value does not have any attributes.")
        try:
            position = convert(key, NUMBER).raw
        except EvalError:
            raise EvalError("Invalid index: The given key does not identify an element in this collection "
                            "value: a number is required.") from None
        if isinstance(position, Fraction):
            raise EvalError("Invalid index: The given key does not identify an element in this collection "
                            "value: indexing a sequence requires a whole number, but the given index has a "
                            "fractional part.")
        if 0 <= position < len(raw):
            return raw[position]
        if target.open:
            return Val(UNKNOWN, target.loc)
        raise EvalError(_MISSING_KEY)
    if kind is MapType or kind is ObjectType:
        try:
            name = convert(key, STRING).raw
        except EvalError:
            raise EvalError("Invalid index: The given key does not identify an element in this collection "
                            "value: string required.") from None
        if name in raw:
            return raw[name]
        if target.open:
            return unknown_from(target)
        if attribute and kind is ObjectType:
            raise EvalError(f'Unsupported attribute: This object does not have an attribute named "{name}".')
        if attribute:
            raise EvalError(f'Missing map element: This map does not have an element with the key "{name}".')
        raise EvalError(_MISSING_KEY)
    if kind is SetType:
        raise EvalError("Invalid index: Elements of a set are identified only by their value and don't have any "
                        "separate index or key to select with, so it's only possible to perform operations "
                        "across all elements of the set.")
    if kind is Dynamic:
        return unknown_from(target)
    if attribute:
        raise EvalError("Unsupported attribute: Can't access attributes on a primitive-typed value "
                        f"({type_text(type_of(target))}).")
    raise EvalError("Invalid index: This value does not have any indices.")


def number(value: Val) -> int | Fraction | None:
    """A value as a Terraform number (strings convert), or None when it is not one."""
    if value.raw is None or value.raw is UNKNOWN or isinstance(value.raw, (list, dict)):
        return None
    if isinstance(value.raw, float):  # a YAML document's number, read by a rule
        return int(value.raw) if value.raw.is_integer() else Fraction(value.raw)
    try:
        return convert(value, NUMBER).raw
    except EvalError:
        return None
