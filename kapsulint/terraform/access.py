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
    DYNAMIC,
    NUMBER,
    STRING,
    Dynamic,
    ListType,
    MapType,
    ObjectType,
    Primitive,
    SetType,
    TupleType,
    Type,
    kind_of,
    type_of,
    type_text,
)
from kapsulint.terraform.values import UNKNOWN, Val, unknown_from

_MISSING_KEY = "Invalid index: The given key does not identify an element in this collection value"


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
    """``target[key]`` (or ``target.key`` when ``attribute``), with HCL's errors (``hcl.Index``
    and ``hcl.GetAttr``). What is read out of a sensitive value, or with a sensitive key, is
    sensitive as a whole."""
    found = _index(target, key, attribute)
    if target.sensitive or key.sensitive:
        return found.with_sensitive()
    return found


def _index(target: Val, key: Val, attribute: bool) -> Val:
    if target.raw is None:
        if attribute:
            raise EvalError("Attempt to get attribute from null value: This value is null, so it does not have any attributes.")
        raise EvalError("Attempt to index null value: This value is null, so it does not have any indices.")
    if key.raw is None:
        raise EvalError("Invalid index: Can't use a null value as an indexing key.")
    if not target.known or not key.known:
        element_type = _unknown_element_type(target.type, key, attribute) if target.type is not None else None
        return unknown_from(target, key, type=element_type)
    kind = kind_of(target)
    if attribute:
        return _attribute(target, kind, key.raw)
    raw = target.raw
    if kind is ListType or kind is TupleType:
        position = _key(key, NUMBER)
        if isinstance(position, int) and 0 <= position < len(raw):
            return raw[position]
        if target.open:
            return Val(UNKNOWN, target.loc)
        raise EvalError(_MISSING_KEY + _missing_position(position, len(raw), target.sensitive))
    if kind is MapType or kind is ObjectType:
        name = _key(key, STRING)
        if name in raw:
            return raw[name]
        if target.open:
            return unknown_from(target)
        numeric = kind is ObjectType and type_of(key) == NUMBER
        raise EvalError(_MISSING_KEY + (". An object only supports looking up attributes by name, not by "
                                        "numeric index." if numeric else "."))
    if kind is SetType:
        raise EvalError("Invalid index: Elements of a set are identified only by their value and don't have any "
                        "separate index or key to select with, so it's only possible to perform operations "
                        "across all elements of the set.")
    if kind is Dynamic:
        return unknown_from(target)
    raise EvalError("Invalid index: This value does not have any indices.")


def _key(key: Val, target: Type) -> object:
    """An index converted to the type a collection's keys have, or HCL's error."""
    try:
        return convert(key, target).raw
    except EvalError as error:
        raise EvalError("Invalid index: The given key does not identify an element in this collection "
                        f"value: {error}.") from None


def _missing_position(position: object, length: int, sensitive: bool | int) -> str:
    """Why a number names no element of a sequence of ``length``, as hcl.Index words it: the
    end of its message. It says more for a fraction, a negative number and, unless the length
    is sensitive, a number equal to the length (hcl.Index tests ``index - length < 1`` on a
    number it already knows is out of range: a larger one gets the general message)."""
    if isinstance(position, Fraction):
        return ": indexing a sequence requires a whole number, but the given index has a fractional part."
    if isinstance(position, int) and position < 0:
        return ": a negative number is not a valid index for a sequence."
    if position != length or sensitive:
        return "."
    if length == 0:
        return ": the collection has no elements."
    return ": the given index is greater than or equal to the length of the collection."


def _attribute(target: Val, kind: type[Type], name: str) -> Val:
    """``target.name`` of a known value."""
    raw = target.raw
    if kind is MapType or kind is ObjectType:
        if name in raw:
            return raw[name]
        if target.open:
            return unknown_from(target)
        if kind is ObjectType:
            raise EvalError(f'Unsupported attribute: This object does not have an attribute named "{name}".')
        raise EvalError(f'Missing map element: This map does not have an element with the key "{name}".')
    if kind is Dynamic:
        return unknown_from(target)
    element = target.type.element if kind is ListType or kind is SetType else None
    if kind is ListType and isinstance(element, ObjectType):
        if name in element.attributes:
            raise EvalError("Unsupported attribute: Can't access attributes on a list of objects. Did you mean to "
                            f'access attribute "{name}" for a specific element of the list, or across all '
                            "elements of the list?")
        raise EvalError("Unsupported attribute: Can't access attributes on a list of objects. Did you mean to "
                        "access an attribute for a specific element of the list, or across all elements of the list?")
    if kind is SetType and isinstance(element, ObjectType):
        raise EvalError("Unsupported attribute: Can't access attributes on a set of objects. Did you mean to "
                        "access an attribute across all elements of the set?")
    if kind is Primitive:
        raise EvalError("Unsupported attribute: Can't access attributes on a primitive-typed value "
                        f"({type_text(type_of(target))}).")
    raise EvalError("Unsupported attribute: This value does not have any attributes.")


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
