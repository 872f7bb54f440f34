"""Terraform's types, as go-cty models them, and the text ``type()`` prints for each.

A type is immutable and hashable. Collections (list, set, map) have one element type; structural
types (object, tuple) have one per attribute or element. ``DYNAMIC`` is cty's
``DynamicPseudoType``: the type of ``null`` written as a literal, and ``any`` in a constraint.
An object type used as a type constraint may mark attributes ``optional`` (Terraform's
``optional(T, default)``); the defaults themselves live with the constraint, not the type.

https://github.com/zclconf/go-cty/tree/v1.16.2/cty (types), and for the printed form
https://github.com/hashicorp/terraform/blob/v1.11.4/internal/lang/funcs/conversion.go (``type``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction

from kapsulint.terraform.values import UNKNOWN, Val


class Type:
    """Base of every Terraform type."""

    __slots__ = ("_key",)
    _key: tuple

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Type) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        return type_text(self).replace("\n", " ")

    @property
    def is_primitive(self) -> bool:
        return isinstance(self, Primitive)

    @property
    def is_collection(self) -> bool:
        return isinstance(self, (ListType, SetType, MapType))


class Primitive(Type):
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name
        self._key = ("primitive", name)


class Dynamic(Type):
    __slots__ = ()

    def __init__(self) -> None:
        self._key = ("dynamic",)


class ListType(Type):
    __slots__ = ("element",)
    kind = "list"

    def __init__(self, element: Type) -> None:
        self.element = element
        self._key = ("list", element)


class SetType(Type):
    __slots__ = ("element",)
    kind = "set"

    def __init__(self, element: Type) -> None:
        self.element = element
        self._key = ("set", element)


class MapType(Type):
    __slots__ = ("element",)
    kind = "map"

    def __init__(self, element: Type) -> None:
        self.element = element
        self._key = ("map", element)


class ObjectType(Type):
    """``attributes`` in their given order; ``optional`` names those of ``optional(...)``."""

    __slots__ = ("attributes", "optional")

    def __init__(self, attributes: Mapping[str, Type], optional: Iterable[str] = ()) -> None:
        self.attributes = dict(attributes)
        self.optional = frozenset(optional)
        self._key = ("object", tuple(sorted(self.attributes.items(), key=lambda kv: kv[0])), self.optional)


class TupleType(Type):
    __slots__ = ("elements",)

    def __init__(self, elements: Iterable[Type]) -> None:
        self.elements = tuple(elements)
        self._key = ("tuple", self.elements)


STRING = Primitive("string")
NUMBER = Primitive("number")
BOOL = Primitive("bool")
DYNAMIC = Dynamic()
EMPTY_OBJECT = ObjectType({})
EMPTY_TUPLE = TupleType(())

CollectionType = ListType | SetType | MapType


def type_of(value: Val) -> Type:
    """The Terraform type of ``value``: its own when it has one, else what its raw data implies.

    A value built without a type is what a literal gives: ``[...]`` a tuple, ``{...}`` an object,
    ``null`` and Unknown of type dynamic."""
    if value.type is not None:
        return value.type
    raw = value.raw
    if raw is None or raw is UNKNOWN:
        return DYNAMIC
    if raw is True or raw is False:
        return BOOL
    if isinstance(raw, str):
        return STRING
    if isinstance(raw, (int, Fraction)):
        return NUMBER
    if isinstance(raw, list):
        return TupleType(type_of(item) for item in raw)
    if isinstance(raw, dict):
        return ObjectType({key: type_of(item) for key, item in raw.items()})
    return DYNAMIC


def kind_of(value: Val) -> type[Type]:
    """The class of ``value``'s type (``ListType``, ``ObjectType``, ``Primitive``...), without
    computing the whole type: dispatching on it is what most reads of a value need."""
    if value.type is not None:
        return type(value.type)
    raw = value.raw
    if isinstance(raw, list):
        return TupleType
    if isinstance(raw, dict):
        return ObjectType
    if raw is None or raw is UNKNOWN:
        return Dynamic
    return Primitive


def type_text(ty: Type, indent: str = "") -> str:
    """What ``terraform console`` prints for ``type(x)``: objects and tuples one member a line."""
    inner = indent + "    "
    if isinstance(ty, Primitive):
        return ty.name
    if isinstance(ty, Dynamic):
        return "dynamic"
    if isinstance(ty, (ListType, SetType, MapType)):
        # nested collections share one line (``map(list(``); a multi-line member below them
        # starts on the next line, one level in
        prefix, depth = "", 0
        element: Type = ty
        while isinstance(element, (ListType, SetType, MapType)):
            prefix, depth, element = prefix + element.kind + "(", depth + 1, element.element
        if _is_multiline(element):
            return f"{prefix}\n{inner}{type_text(element, inner)},\n{indent}" + ")" * depth
        return prefix + type_text(element, indent) + ")" * depth
    if isinstance(ty, ObjectType):
        if not ty.attributes:
            return "object({})"
        lines = [f"{inner}{name}: {type_text(ty.attributes[name], inner)}," for name in sorted(ty.attributes)]
        return "object({\n" + "\n".join(lines) + f"\n{indent}}})"
    if isinstance(ty, TupleType):
        if not ty.elements:
            return "tuple([])"
        lines = [f"{inner}{type_text(element, inner)}," for element in ty.elements]
        return "tuple([\n" + "\n".join(lines) + f"\n{indent}])"
    raise TypeError(f"not a Terraform type: {ty!r}")


def _is_multiline(ty: Type) -> bool:
    """A collection of objects or tuples puts its element on a line of its own, even an empty
    ``object({})`` (https://github.com/hashicorp/terraform/blob/v1.11.4/internal/repl/session.go)."""
    return isinstance(ty, (ObjectType, TupleType))


def is_known_type(ty: Type) -> bool:
    """True when ``ty`` has no dynamic part (a value of it needs no further type information)."""
    if isinstance(ty, Dynamic):
        return False
    if isinstance(ty, (ListType, SetType, MapType)):
        return is_known_type(ty.element)
    if isinstance(ty, ObjectType):
        return all(is_known_type(t) for t in ty.attributes.values())
    if isinstance(ty, TupleType):
        return all(is_known_type(t) for t in ty.elements)
    return True
