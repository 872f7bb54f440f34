"""Terraform's type conversions, unification, equality and collection constructors.

A port of go-cty's ``convert`` package (https://github.com/zclconf/go-cty/tree/v1.16.2/cty/convert):
a conversion is chosen from the two types alone (``_conversion``, go-cty's ``getConversion``), then
applied to the value, where it can still fail (``"a"`` to number). ``convert`` is go-cty's
``Convert``, which uses the *unsafe* conversions (string to number and bool, list to set, map to
object) as Terraform does for function arguments and variables. Equality is go-cty's
``Value.Equals`` (https://github.com/zclconf/go-cty/blob/v1.16.2/cty/value_ops.go); sets are
ordered as go-cty iterates them (https://github.com/zclconf/go-cty/blob/v1.16.2/cty/set_internals.go).

Values are :class:`~kapsulint.terraform.values.Val`; a value built here always carries its type.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import cast

from kapsulint.findings import Loc
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.numbers import NEGATIVE_ZERO, Unrepresentable, format_number, parse_number
from kapsulint.terraform.types import (
    BOOL,
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
    type_of,
)
from kapsulint.terraform.values import UNKNOWN, Val


class ConversionError(EvalError):
    """A value that cannot be converted, with go-cty's message.

    go-cty also records the path to the failing part, but Terraform prints only the message
    (for function arguments and variables alike), so it is not kept here."""


_Converter = Callable[[Val], Val]
_ALREADY = {str: STRING, bool: BOOL, int: NUMBER}


def convert(value: Val, target: Type) -> Val:
    """``value`` converted to ``target`` (go-cty's ``convert.Convert``), or :class:`ConversionError`."""
    if value.type is None and _ALREADY.get(value.raw.__class__) is target:
        return value  # a literal of the target's primitive type: the common case, kept cheap
    source = type_of(value)
    if source == without_optional(target) and not value.open:  # an open object must become Unknown
        return value
    conversion = _conversion(source, target, True)
    if conversion is None:
        raise ConversionError(mismatch_message(source, target))
    return conversion(value)


def can_convert(source: Type, target: Type, unsafe: bool = True) -> bool:
    """Whether go-cty has a conversion from ``source`` to ``target`` (it may still fail on a value)."""
    return source == target or _conversion(source, target, unsafe) is not None


# ---------------------------------------------------------------------------------------------
# choosing a conversion from the types (conversion.go)


@lru_cache(maxsize=4096)
def _conversion(source: Type, target: Type, unsafe: bool) -> _Converter | None:
    known = _conversion_known(source, target, unsafe)
    if known is None:
        return None
    plain_target = without_optional(target)

    def wrapped(value: Val) -> Val:
        if isinstance(target, Dynamic):
            return value
        raw = value.raw
        if raw is UNKNOWN or value.open:
            return Val(UNKNOWN, value.loc, type=dynamic_replace(type_of(value) if raw is UNKNOWN else DYNAMIC, plain_target),
                       ref=value.ref, sensitive=value.sensitive)
        if raw is None:
            return Val(None, value.loc, type=dynamic_replace(type_of(value), plain_target), sensitive=value.sensitive)
        result = known(value)
        if value.sensitive and not result.sensitive:
            result = result.with_sensitive(value.sensitive)  # the same mark, on every node
        return result

    return wrapped


def _conversion_known(source: Type, target: Type, unsafe: bool) -> _Converter | None:
    if isinstance(target, Dynamic):
        return _passthrough
    if unsafe and isinstance(source, Dynamic):
        return _dynamic_fixup(target)
    if isinstance(source, Primitive) and isinstance(target, Primitive):
        if source == target:
            return _passthrough
        if target == STRING and source in (NUMBER, BOOL):
            return _to_string
        if unsafe and source == STRING:
            return _string_to_number if target == NUMBER else _string_to_bool
        return None
    if isinstance(target, ObjectType) and isinstance(source, ObjectType):
        return _object_to_object(source, target, unsafe)
    if isinstance(target, TupleType) and isinstance(source, TupleType):
        return _tuple_to_tuple(source, target, unsafe)
    if isinstance(target, (ListType, SetType)) and isinstance(source, (ListType, SetType)):
        if isinstance(target, SetType) and isinstance(source, ListType) and not unsafe:
            return None
        if source.element == target.element:
            element = None
        else:
            element = _conversion(source.element, target.element, unsafe)
            if element is None:
                return None
        return _collection_to_sequence(target, element)
    if isinstance(target, MapType) and isinstance(source, MapType):
        element = _conversion(source.element, target.element, unsafe)
        if element is None:
            return None
        return _map_to_map(target, element)
    if isinstance(target, (ListType, SetType)) and isinstance(source, TupleType):
        return _tuple_to_sequence(source, target, unsafe)
    if isinstance(target, MapType) and isinstance(source, ObjectType):
        return _object_to_map(source, target, unsafe)
    if isinstance(target, ObjectType) and isinstance(source, MapType):
        return _map_to_object(source, target, unsafe) if unsafe else None
    return None


def _passthrough(value: Val) -> Val:
    return value


def _dynamic_fixup(target: Type) -> _Converter:
    return lambda value: convert(value, target)


# ---------------------------------------------------------------------------------------------
# primitives (conversion_primitive.go)


def _to_string(value: Val) -> Val:
    raw = value.raw
    if raw is True or raw is False:
        text = "true" if raw else "false"
    else:
        text = format_number(raw)
    return Val(text, value.loc, type=STRING, sensitive=value.sensitive)


def _string_to_number(value: Val) -> Val:
    try:
        number = parse_number(value.raw)
    except EvalError:
        raise ConversionError("a number is required") from None
    except Unrepresentable:
        # "Inf" is a number to Terraform, one no kapsulint value holds
        return Val(UNKNOWN, value.loc, type=NUMBER, sensitive=value.sensitive)
    return Val(number, value.loc, type=NUMBER, sensitive=value.sensitive)


def _string_to_bool(value: Val) -> Val:
    raw = value.raw
    if raw in ("true", "1"):
        return Val(True, value.loc, type=BOOL, sensitive=value.sensitive)
    if raw in ("false", "0"):
        return Val(False, value.loc, type=BOOL, sensitive=value.sensitive)
    lowered = raw.lower()
    if lowered in ("true", "false"):
        raise ConversionError(f'a bool is required; to convert from string, use lowercase "{lowered}"')
    raise ConversionError("a bool is required")


# ---------------------------------------------------------------------------------------------
# collections (conversion_collection.go)


def _collection_to_sequence(target: ListType | SetType, element: _Converter | None) -> _Converter:
    noun = "list" if isinstance(target, ListType) else "set"

    def to_sequence(value: Val) -> Val:
        items = []
        for item in _members(value):
            if element is not None:
                item = element(item)
            items.append(item)
        if not items:
            source = cast("ListType | SetType | MapType", type_of(value))  # a collection converts to a sequence
            ety = source.element if isinstance(target.element, Dynamic) else without_optional(target.element)
            return _sequence(target, [], ety, value)
        if not _all_same_type(items):
            raise ConversionError(f"element types must all match for conversion to {noun}")
        return _sequence(target, items, type_of(items[0]), value)

    return to_sequence


def _map_to_map(target: MapType, element: _Converter) -> _Converter:
    def to_map(value: Val) -> Val:
        items = {key: element(item) for key, item in sorted(value.raw.items())}
        if not items:
            source = cast("MapType", type_of(value))  # only a map converts to a map
            ety = source.element if isinstance(target.element, Dynamic) else without_optional(target.element)
            return _map(items, ety, value)
        if isinstance(target.element, (ListType, SetType, MapType, ObjectType)):
            items = _unify_elements(items, False)
        if not _all_same_type(list(items.values())):
            raise ConversionError("element types must all match for conversion to map")
        return _map(items, type_of(next(iter(items.values()))), value)

    return to_map


def _tuple_to_sequence(source: TupleType, target: ListType | SetType, unsafe: bool) -> _Converter | None:
    noun = "list" if isinstance(target, ListType) else "set"
    if not source.elements:
        ety = without_optional(target.element)
        return lambda value: _sequence(target, [], ety, value)
    ety = target.element
    if isinstance(ety, Dynamic):
        unified = _unify(source.elements, unsafe)
        if unified is None:
            return None
        if isinstance(unified, Dynamic) and not all(isinstance(t, Dynamic) for t in source.elements):
            return None
        ety = unified
    converters: list[_Converter | None] = []
    for element in source.elements:
        if element == ety:
            converters.append(None)
            continue
        converter = _conversion(element, ety, unsafe)
        if converter is None:
            return None
        converters.append(converter)

    def to_sequence(value: Val) -> Val:
        items = []
        for item, converter in zip(value.raw, converters):
            if converter is not None:
                item = converter(item)
            items.append(item)
        if noun == "list":
            items = _unify_list(items, unsafe)
        if not _all_same_type(items):
            raise ConversionError(f"element types must all match for conversion to {noun}")
        return _sequence(target, items, type_of(items[0]), value)

    return to_sequence


def _object_to_map(source: ObjectType, target: MapType, unsafe: bool) -> _Converter | None:
    if not source.attributes:
        ety = without_optional(target.element)
        return lambda value: _map({}, ety, value)
    ety = target.element
    if isinstance(ety, Dynamic):
        unified = _unify(tuple(source.attributes.values()), unsafe)
        if unified is None:
            return None
        ety = unified
    converters: dict[str, _Converter | None] = {}
    for name, attribute in source.attributes.items():
        if attribute == ety:
            converters[name] = None
            continue
        converter = _conversion(attribute, ety, unsafe)
        if converter is None:
            return None
        converters[name] = converter

    def to_map(value: Val) -> Val:
        items = {}
        for name, item in sorted(value.raw.items()):
            converter = converters.get(name)
            items[name] = converter(item) if converter is not None else item
        if isinstance(ety, (ListType, SetType, MapType, ObjectType)):
            items = _unify_elements(items, unsafe)
        if not _all_same_type(list(items.values())):
            raise ConversionError("attribute types must all match for conversion to map")
        return _map(items, type_of(next(iter(items.values()))), value)

    return to_map


def _map_to_object(source: MapType, target: ObjectType, unsafe: bool) -> _Converter | None:
    converters: dict[str, _Converter | None] = {}
    for name, attribute in target.attributes.items():
        if attribute == source.element:
            converters[name] = None
            continue
        converter = _conversion(source.element, attribute, unsafe)
        if converter is None and not (name in target.optional and unsafe):
            return None
        converters[name] = converter
    matching = {name for name, attribute in target.attributes.items() if attribute == source.element}

    def to_object(value: Val) -> Val:
        items: dict[str, Val] = {}
        for name, item in sorted(value.raw.items()):
            if name not in target.attributes:
                continue
            converter = converters.get(name)
            if converter is not None:
                item = converter(item)
            elif name not in matching:
                raise ConversionError(
                    f"map element type is incompatible with attribute {go_quote(name)}: "
                    f"{mismatch_message(type_of(item), target.attributes[name])}")
            items[name] = _plain_null(item)
        for name, attribute in target.attributes.items():
            if name not in items:
                if name in target.optional:
                    items[name] = Val(None, value.loc, type=attribute)
                else:
                    raise ConversionError(f"map has no element for required attribute {go_quote(name)}")
        return _object(items, value)

    return to_object


def _object_to_object(source: ObjectType, target: ObjectType, unsafe: bool) -> _Converter | None:
    converters: dict[str, _Converter | None] = {}
    for name, attribute in target.attributes.items():
        if name not in source.attributes:
            if name in target.optional:
                continue
            return None
        given = source.attributes[name]
        if given == attribute:
            converters[name] = None
            continue
        converter = _conversion(given, attribute, unsafe)
        if converter is None:
            return None
        converters[name] = converter

    def to_object(value: Val) -> Val:
        items: dict[str, Val] = {}
        for name in sorted(value.raw):
            if name not in converters:
                continue
            item = value.raw[name]
            converter = converters[name]
            if converter is not None:
                item = converter(item)
            items[name] = _plain_null(item)
        for name in sorted(target.optional):
            if name not in items:
                items[name] = Val(None, value.loc, type=without_optional(target.attributes[name]))
        return _object(items, value)

    return to_object


def _tuple_to_tuple(source: TupleType, target: TupleType, unsafe: bool) -> _Converter | None:
    if len(source.elements) != len(target.elements):
        return None
    converters: list[_Converter | None] = []
    for given, wanted in zip(source.elements, target.elements):
        if given == wanted:
            converters.append(None)
            continue
        converter = _conversion(given, wanted, unsafe)
        if converter is None:
            return None
        converters.append(converter)

    def to_tuple(value: Val) -> Val:
        items = [converter(item) if converter is not None else item
                 for index, (item, converter) in enumerate(zip(value.raw, converters))]
        return _retyped_items(value, items, TupleType(type_of(item) for item in items))

    return to_tuple


def _unify_list(items: list[Val], unsafe: bool) -> list[Val]:
    """go-cty's ``conversionUnifyListElements``: the converted elements brought to one type."""
    unified = _unify(tuple(type_of(item) for item in items), unsafe)
    if unified is None:
        raise ConversionError("cannot find a common base type for all elements")
    result = []
    for item in items:
        if type_of(item) != unified:
            converter = _conversion(type_of(item), unified, unsafe)
            if converter is None:
                raise ConversionError("cannot find a common base type for all elements")
            item = converter(item)
        result.append(item)
    return result


def _unify_elements(items: dict[str, Val], unsafe: bool) -> dict[str, Val]:
    """go-cty's ``conversionUnifyCollectionElements``, for the elements of a map."""
    unified = _unify(tuple(type_of(item) for item in items.values()), unsafe)
    if unified is None:
        raise ConversionError("cannot find a common base type for all elements")
    result = {}
    for name, item in items.items():
        if type_of(item) != unified:
            converter = _conversion(type_of(item), unified, unsafe)
            if converter is None:
                raise ConversionError("cannot find a common base type for all elements")
            item = converter(item)
        result[name] = item
    return result


def _members(value: Val) -> list[Val]:
    raw = value.raw
    return list(raw.values()) if isinstance(raw, dict) else list(raw)


def _all_same_type(items: Iterable[Val]) -> bool:
    types = {type_of(item) for item in items}
    return len(types) <= 1


def _plain_null(item: Val) -> Val:
    """A null attribute loses the optional marks of its type (go-cty does the same)."""
    if item.raw is None and item.type is not None:
        plain = without_optional(item.type)
        if plain != item.type:
            return _retyped(item, plain)
    return item


def _sequence(target: ListType | SetType, items: list[Val], ety: Type, source: Val) -> Val:
    if isinstance(target, SetType):
        return make_set(items, ety, loc=source.loc, sensitive=source.sensitive)
    return Val(items, source.loc, type=ListType(ety), sensitive=source.sensitive)


def _map(items: dict[str, Val], ety: Type, source: Val) -> Val:
    return Val(items, source.loc, keylocs=source.keylocs, type=MapType(ety), sensitive=source.sensitive)


def _object(items: dict[str, Val], source: Val) -> Val:
    return Val(items, source.loc, keylocs=source.keylocs, sensitive=source.sensitive,
               type=ObjectType({name: type_of(item) for name, item in items.items()}))


def _retyped_items(value: Val, items: list, ty: Type) -> Val:
    return Val(items, value.loc, keylocs=value.keylocs, sensitive=value.sensitive, type=ty)


def _retyped(value: Val, ty: Type) -> Val:
    return Val(value.raw, value.loc, keylocs=value.keylocs, open=value.open, sensitive=value.sensitive,
               ref=value.ref, encoded=value.encoded, origin=value.origin, type=ty)


# ---------------------------------------------------------------------------------------------
# types of unknown and null results (conversion_dynamic.go) and optional attributes


def dynamic_replace(source: Type, target: Type) -> Type:
    """go-cty's ``dynamicReplace``: ``target`` with its dynamic parts taken from ``source``."""
    if isinstance(source, Dynamic):
        return target
    if isinstance(target, Dynamic):
        return source
    if isinstance(target, Primitive):
        return target
    if isinstance(target, MapType):
        if isinstance(source, MapType):
            return MapType(dynamic_replace(source.element, target.element))
        if isinstance(source, ObjectType):
            unified = _unify(tuple(source.attributes.values()), True)
            return MapType(dynamic_replace(unified or DYNAMIC, target.element))
        return target
    if isinstance(target, ObjectType):
        attributes = {}
        for name, attribute in target.attributes.items():
            if isinstance(source, MapType):
                attributes[name] = dynamic_replace(source.element, attribute)
            elif isinstance(source, ObjectType):
                given = source.attributes.get(name)
                attributes[name] = attribute if given is None else dynamic_replace(given, attribute)
        return ObjectType(attributes)
    if isinstance(target, (SetType, ListType)):
        kind = type(target)
        if isinstance(source, (SetType, ListType)):
            return kind(dynamic_replace(source.element, target.element))
        if isinstance(source, TupleType):
            unified = _unify(source.elements, True)
            return kind(dynamic_replace(unified or DYNAMIC, target.element))
        return target
    if isinstance(target, TupleType):
        given_elements = source.elements if isinstance(source, TupleType) else ()
        return TupleType(dynamic_replace(given_elements[i] if i < len(given_elements) else DYNAMIC, element)
                         for i, element in enumerate(target.elements))
    return target


@lru_cache(maxsize=1024)
def without_optional(ty: Type) -> Type:
    """go-cty's ``WithoutOptionalAttributesDeep``: the type a value of constraint ``ty`` has."""
    if isinstance(ty, ObjectType):
        return ObjectType({name: without_optional(t) for name, t in ty.attributes.items()})
    if isinstance(ty, ListType):
        return ListType(without_optional(ty.element))
    if isinstance(ty, SetType):
        return SetType(without_optional(ty.element))
    if isinstance(ty, MapType):
        return MapType(without_optional(ty.element))
    if isinstance(ty, TupleType):
        return TupleType(without_optional(t) for t in ty.elements)
    return ty


# ---------------------------------------------------------------------------------------------
# error messages (mismatch_msg.go)


def friendly_name(ty: Type, constraint: bool = False) -> str:
    """go-cty's ``FriendlyName`` (``constraint``: ``FriendlyNameForConstraint``)."""
    if isinstance(ty, Primitive):
        return ty.name
    if isinstance(ty, Dynamic):
        return "any type" if constraint else "dynamic"
    if isinstance(ty, (ListType, SetType, MapType)):
        element = "any single type" if constraint and isinstance(ty.element, Dynamic) else friendly_name(ty.element, constraint)
        return f"{ty.kind} of {element}"
    if isinstance(ty, ObjectType):
        return "object"
    return "tuple"


def mismatch_message(got: Type, want: Type) -> str:
    """go-cty's ``MismatchMessage``: why no value of ``got`` converts to ``want``."""
    if isinstance(got, ObjectType) and isinstance(want, ObjectType):
        return _mismatch_objects(got, want)
    if isinstance(got, TupleType) and isinstance(want, ListType) and isinstance(want.element, Dynamic):
        return "all list elements must have the same type"
    if isinstance(got, TupleType) and isinstance(want, SetType) and isinstance(want.element, Dynamic):
        return "all set elements must have the same type"
    if isinstance(got, ObjectType) and isinstance(want, MapType) and isinstance(want.element, Dynamic):
        return "all map elements must have the same type"
    if isinstance(got, (TupleType, ObjectType)) and want.is_collection:
        return _mismatch_from_structural(got, want)
    if got.is_collection and want.is_collection:
        return _mismatch_from_collection(got, want)
    return friendly_name(want, True) + " required"


def _mismatch_objects(got: ObjectType, want: ObjectType) -> str:
    missing = []
    unsafe_mismatch = safe_mismatch = ""
    # go-cty walks a Go map here (random order); where several attributes mismatch, the sorted
    # order keeps the message stable
    for name in sorted(want.attributes):
        wanted = want.attributes[name]
        if name not in got.attributes:
            if name not in want.optional:
                missing.append(name)
            continue
        given = got.attributes[name]
        if given == wanted:
            continue
        if unsafe_mismatch:
            continue
        if _conversion(given, wanted, True) is None:
            unsafe_mismatch = f"attribute {go_quote(name)}: {mismatch_message(given, wanted)}"
        if safe_mismatch:
            continue
        if _conversion(given, wanted, False) is None:
            safe_mismatch = f"attribute {go_quote(name)}: {mismatch_message(given, wanted)}"
    if missing:
        quoted = [go_quote(name) for name in missing]
        if len(quoted) == 1:
            return f"attribute {quoted[0]} is required"
        if len(quoted) == 2:
            return f"attributes {quoted[0]} and {quoted[1]} are required"
        return f"attributes {', '.join(quoted[:-1])}, and {quoted[-1]} are required"
    return unsafe_mismatch or safe_mismatch or "incorrect object attributes"


def _mismatch_from_structural(got: TupleType | ObjectType, want: Type) -> str:
    if isinstance(want, (ListType, SetType)) and not isinstance(got, TupleType):
        return friendly_name(want, True) + " required"
    if isinstance(want, MapType) and not isinstance(got, ObjectType):
        return friendly_name(want, True) + " required"
    wanted = want.element  # type: ignore[attr-defined]
    if isinstance(got, TupleType):
        for index, given in enumerate(got.elements):
            if given != wanted and _conversion(given, wanted, True) is None:
                return f"element {index}: {mismatch_message(given, wanted)}"
    else:
        for name in sorted(got.attributes):
            given = got.attributes[name]
            if given != wanted and _conversion(given, wanted, True) is None:
                return f"element {go_quote(name)}: {mismatch_message(given, wanted)}"
    return f"all elements must be {friendly_name(wanted, True)}"


def _mismatch_from_collection(got: Type, want: Type) -> str:
    if isinstance(want, (ListType, SetType)) and not isinstance(got, (ListType, SetType)):
        return friendly_name(want, True) + " required"
    if isinstance(want, MapType) and not isinstance(got, MapType):
        return friendly_name(want, True) + " required"
    noun = {ListType: "list element type", SetType: "set element type", MapType: "map element type"}[type(want)]
    return f"incorrect {noun}: {mismatch_message(got.element, want.element)}"  # type: ignore[attr-defined]


def go_quote(text: str) -> str:
    """Go's ``strconv.Quote`` (what ``%q`` prints)."""
    out = ['"']
    for char in text:
        code = ord(char)
        if char in _GO_NAMED_ESCAPES:
            out.append(_GO_NAMED_ESCAPES[char])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        elif char.isprintable() and not 0xD800 <= code < 0xE000:
            out.append(char)
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


_GO_NAMED_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t",
                     "\v": "\\v", "\\": "\\\\", '"': '\\"'}


# ---------------------------------------------------------------------------------------------
# unification (unify.go, compare_types.go, sort_types.go)


def unify(types: Sequence[Type]) -> Type:
    """go-cty's ``convert.Unify``: the one type all ``types`` convert to safely, else EvalError."""
    unified = _unify(tuple(types), False)
    if unified is None:
        raise EvalError("no common type")
    return unified


def unify_unsafe(types: Sequence[Type]) -> Type:
    """go-cty's ``convert.UnifyUnsafe`` (string may become number or bool), else EvalError."""
    unified = _unify(tuple(types), True)
    if unified is None:
        raise EvalError("no common type")
    return unified


def unify_values(values: Sequence[Val]) -> list[Val] | None:
    """``values`` converted to their unsafe unified type, or None when there is none or a
    conversion fails (HCL's ``unifyAsSlice`` for type defaults). Values unified as dynamic
    become Unknown, as go-cty's conversions to ``DynamicVal`` make them."""
    types = tuple(type_of(value) for value in values)
    unified = _unify(types, True)
    if unified is None:
        return None
    if isinstance(unified, Dynamic):
        if all(isinstance(ty, Dynamic) for ty in types):
            return list(values)
        return [Val(UNKNOWN, value.loc, sensitive=value.contains_sensitive()) for value in values]
    try:
        return [convert(value, unified) for value in values]
    except ConversionError:
        return None


@lru_cache(maxsize=4096)
def _unify(types: tuple[Type, ...], unsafe: bool) -> Type | None:
    if not types:
        return None
    if len(set(types)) == 1:
        # what go-cty finds too, without its quadratic type sort over thousands of elements
        return types[0]
    counts = {"map": 0, "list": 0, "set": 0, "object": 0, "tuple": 0, "dynamic": 0}
    for ty in types:
        kind = _kind(ty)
        if kind in counts:
            counts[kind] += 1
    total, dynamic = len(types), counts["dynamic"]
    if counts["map"] and counts["map"] + dynamic == total:
        return _unify_collections(MapType, types, unsafe, dynamic > 0)
    if counts["map"] and counts["map"] + counts["object"] + dynamic == total:
        unified = _unify_objects_as_maps(types, unsafe)
        if isinstance(unified, MapType):
            return unified
    elif counts["list"] and counts["list"] + dynamic == total:
        return _unify_collections(ListType, types, unsafe, dynamic > 0)
    elif counts["list"] and counts["list"] + counts["tuple"] + dynamic == total:
        unified = _unify_tuples_as_list(types, unsafe)
        if isinstance(unified, ListType):
            return unified
    elif counts["set"] and counts["set"] + dynamic == total:
        return _unify_collections(SetType, types, unsafe, dynamic > 0)
    elif counts["object"] and counts["object"] + dynamic == total:
        return _unify_object_types(types, unsafe, dynamic > 0)
    elif counts["tuple"] and counts["tuple"] + dynamic == total:
        return _unify_tuple_types(types, unsafe, dynamic > 0)
    elif counts["object"] and counts["tuple"]:
        return None
    for wanted_index in _sort_types(types):
        wanted = types[wanted_index]
        if all(index == wanted_index or ty == wanted or _conversion(ty, wanted, unsafe) is not None
               for index, ty in enumerate(types)):
            return wanted
    return None


def _kind(ty: Type) -> str:
    if isinstance(ty, Dynamic):
        return "dynamic"
    if isinstance(ty, ObjectType):
        return "object"
    if isinstance(ty, TupleType):
        return "tuple"
    return getattr(ty, "kind", "primitive")


def _all_convert(types: Sequence[Type], target: Type, unsafe: bool) -> bool:
    return all(ty == target or _conversion(ty, target, unsafe) is not None for ty in types)


def _unify_collections(kind: type, types: tuple[Type, ...], unsafe: bool, dynamic: bool) -> Type | None:
    if dynamic:
        return DYNAMIC
    element = _unify(tuple(ty.element for ty in types), unsafe)  # type: ignore[attr-defined]
    if element is None:
        return None
    result = kind(element)
    return result if _all_convert(types, result, unsafe) else None


def _unify_objects_as_maps(types: tuple[Type, ...], unsafe: bool) -> Type | None:
    objects = [ty for ty in types if isinstance(ty, ObjectType)]
    as_map = _unify_object_types_to_map(tuple(objects), unsafe)
    if not isinstance(as_map, MapType):
        return None
    unified = _unify(tuple(as_map if isinstance(ty, ObjectType) else ty for ty in types), unsafe)
    return unified if isinstance(unified, MapType) else None


def _unify_tuples_as_list(types: tuple[Type, ...], unsafe: bool) -> Type | None:
    tuples = [ty for ty in types if isinstance(ty, TupleType)]
    as_list = _unify_tuple_types_to_list(tuple(tuples), unsafe)
    if not isinstance(as_list, ListType):
        return None
    unified = _unify(tuple(as_list if isinstance(ty, TupleType) else ty for ty in types), unsafe)
    return unified if isinstance(unified, ListType) else None


def _unify_object_types(types: tuple[Type, ...], unsafe: bool, dynamic: bool) -> Type | None:
    if dynamic:
        return DYNAMIC
    first = types[0].attributes  # type: ignore[attr-defined]
    for ty in types[1:]:
        if set(ty.attributes) != set(first):  # type: ignore[attr-defined]
            return _unify_object_types_to_map(types, unsafe)
    attributes = {}
    for name in first:
        unified = _unify(tuple(ty.attributes[name] for ty in types), unsafe)  # type: ignore[attr-defined]
        if unified is None:
            return None
        attributes[name] = unified
    result = ObjectType(attributes)
    if not _all_convert(types, result, unsafe):
        return _unify_object_types_to_map(types, unsafe)
    return result


def _unify_object_types_to_map(types: tuple[Type, ...], unsafe: bool) -> Type | None:
    attributes = tuple(t for ty in types for t in ty.attributes.values())  # type: ignore[attr-defined]
    element = _unify(attributes, unsafe)
    if element is None:
        return None
    result = MapType(element)
    return result if _all_convert(types, result, unsafe) else None


def _unify_tuple_types(types: tuple[Type, ...], unsafe: bool, dynamic: bool) -> Type | None:
    if dynamic:
        return DYNAMIC
    first = types[0].elements  # type: ignore[attr-defined]
    if any(len(ty.elements) != len(first) for ty in types[1:]):  # type: ignore[attr-defined]
        return _unify_tuple_types_to_list(types, unsafe)
    elements = []
    for index in range(len(first)):
        unified = _unify(tuple(ty.elements[index] for ty in types), unsafe)  # type: ignore[attr-defined]
        if unified is None:
            return None
        elements.append(unified)
    result = TupleType(elements)
    if not _all_convert(types, result, unsafe):
        return _unify_tuple_types_to_list(types, unsafe)
    return result


def _unify_tuple_types_to_list(types: tuple[Type, ...], unsafe: bool) -> Type | None:
    elements = tuple(t for ty in types for t in ty.elements)  # type: ignore[attr-defined]
    element = _unify(elements, unsafe)
    if element is None:
        return None
    result = ListType(element)
    return result if _all_convert(types, result, unsafe) else None


def _compare_types(a: Type, b: Type) -> int:
    """go-cty's ``compareTypes``: -1 when ``a`` is the more general type, 1 when ``b`` is."""
    a_dynamic, b_dynamic = isinstance(a, Dynamic), isinstance(b, Dynamic)
    if a_dynamic or b_dynamic:
        return 0 if a_dynamic and b_dynamic else (1 if a_dynamic else -1)
    if isinstance(a, Primitive) and isinstance(b, Primitive):
        if a == STRING or b == STRING:
            if a != STRING:
                return 1
            if b != STRING:
                return -1
            return 0
    for kind in (ListType, SetType, MapType):
        if isinstance(a, kind) and isinstance(b, kind):
            return _compare_types(a.element, b.element)
    swap = 1
    if ((isinstance(a, TupleType) and isinstance(b, ListType)) or (isinstance(a, ObjectType) and isinstance(b, MapType))
            or (isinstance(a, SetType) and isinstance(b, (TupleType, ListType)))):
        a, b, swap = b, a, -1
    if isinstance(b, SetType) and isinstance(a, (TupleType, ListType)):
        return -swap
    if isinstance(a, ListType) and isinstance(b, TupleType):
        return -swap
    if isinstance(a, MapType) and isinstance(b, ObjectType):
        return -swap
    if isinstance(a, ObjectType) and isinstance(b, ObjectType):
        if set(a.attributes) != set(b.attributes):
            return 0
        pairs = [(a.attributes[name], b.attributes[name]) for name in a.attributes]
    elif isinstance(a, TupleType) and isinstance(b, TupleType):
        if len(a.elements) != len(b.elements):
            return 0
        pairs = list(zip(a.elements, b.elements))
    else:
        return 0
    comparisons = [_compare_types(x, y) for x, y in pairs]
    a_super, b_super = any(c < 0 for c in comparisons), any(c > 0 for c in comparisons)
    if a_super and b_super:
        return 0
    if a_super:
        return -swap
    if b_super:
        return swap
    return 0


def _sort_types(types: tuple[Type, ...]) -> list[int]:
    """go-cty's ``sortTypes``: a topological order, most general first (Kahn's algorithm, as
    go-cty writes it: indices never reached stay 0)."""
    count = len(types)
    edges: list[list[int]] = [[] for _ in range(count)]
    for i in range(count - 1):
        for j in range(i + 1, count):
            comparison = _compare_types(types[i], types[j])
            if comparison < 0:
                edges[i].append(j)
            elif comparison > 0:
                edges[j].append(i)
    in_degree = [0] * count
    for outs in edges:
        for j in outs:
            in_degree[j] += 1
    queue = [i for i, n in enumerate(in_degree) if n == 0]
    position = 0
    while position < len(queue):
        i = queue[position]
        position += 1
        for j in edges[i]:
            in_degree[j] -= 1
            if in_degree[j] == 0:
                queue.append(j)
    return queue + [0] * (count - len(queue))


def conditional_type(then_value: Val, else_value: Val) -> Type:
    """The result type of ``cond ? then_value : else_value``, as HCL's ``ConditionalExpr`` finds
    it (https://github.com/hashicorp/hcl/blob/v2.23.0/hclsyntax/expression.go): a literal
    ``null`` takes the other side's type, a dynamic side keeps the result dynamic, otherwise
    the unsafe unification of both; EvalError ("Inconsistent conditional result types") when
    there is none."""
    then_type, else_type = type_of(then_value), type_of(else_value)
    if _is_dynamic_null(then_value):
        return else_type
    if _is_dynamic_null(else_value):
        return then_type
    if isinstance(then_type, Dynamic) or isinstance(else_type, Dynamic):
        return DYNAMIC
    unified = _unify((then_type, else_type), True)
    if unified is None:
        raise EvalError("Inconsistent conditional result types: The true and false result expressions must "
                        f"have consistent types. {_describe_mismatch(then_type, else_type)}.")
    return unified


def _is_dynamic_null(value: Val) -> bool:
    """``RawEquals(cty.NullVal(cty.DynamicPseudoType))``: a plain ``null``, unmarked."""
    return value.raw is None and isinstance(type_of(value), Dynamic) and not value.sensitive


def conditional(condition: Val, then_value: Val | EvalError, else_value: Val | EvalError, loc: Loc | None = None) -> Val:
    """``condition ? then_value : else_value`` once both results are evaluated, as HCL's
    ``ConditionalExpr.Value``: a result that failed to evaluate is given as its EvalError,
    raised only when it is the one chosen. The chosen result is converted to
    :func:`conditional_type` and carries the marks of the condition and of both results."""
    then_given = then_value if isinstance(then_value, Val) else Val(UNKNOWN)
    else_given = else_value if isinstance(else_value, Val) else Val(UNKNOWN)
    result_type = conditional_type(then_given, else_given)
    sensitive = condition.sensitive or then_given.sensitive or else_given.sensitive
    if condition.raw is None:
        raise EvalError("Null condition: The condition value is null. Conditions must either be true or false.")
    if condition.raw is UNKNOWN:
        if then_given.raw is None and else_given.raw is None:
            return Val(None, loc, type=result_type, sensitive=sensitive)
        return Val(UNKNOWN, loc, type=result_type, sensitive=sensitive)
    try:
        test = convert(condition, BOOL)
    except ConversionError:
        raise EvalError("Incorrect condition type: The condition expression must be of type bool.") from None
    branch, chosen = ("true", then_value) if test.raw else ("false", else_value)
    if isinstance(chosen, EvalError):
        raise chosen
    try:
        result = convert(chosen, result_type)
    except ConversionError as error:
        raise EvalError(f"Inconsistent conditional result types: The {branch} result value has the wrong type: "
                        f"{error}.") from None
    if sensitive:
        result = result.with_sensitive()
    return result


def _describe_mismatch(true_type: Type, false_type: Type) -> str:
    """HCL's ``describeConditionalTypeMismatch``."""
    if isinstance(true_type, ObjectType) and isinstance(false_type, ObjectType):
        for name in sorted(true_type.attributes):
            if name not in false_type.attributes:
                return f"The 'true' value includes object attribute {go_quote(name)}, which is absent in the 'false' value"
            true_attribute, false_attribute = true_type.attributes[name], false_type.attributes[name]
            if true_attribute != false_attribute:
                return (f"Type mismatch for object attribute {go_quote(name)}: "
                        f"{_describe_mismatch(true_attribute, false_attribute)}")
        for name in sorted(false_type.attributes):
            if name not in true_type.attributes:
                return f"The 'false' value includes object attribute {go_quote(name)}, which is absent in the 'true' value"
    elif isinstance(true_type, TupleType) and isinstance(false_type, TupleType):
        if len(true_type.elements) != len(false_type.elements):
            return (f"The 'true' tuple has length {len(true_type.elements)}, but the 'false' tuple has length "
                    f"{len(false_type.elements)}")
        for index, (true_element, false_element) in enumerate(zip(true_type.elements, false_type.elements)):
            if true_element != false_element:
                return f"Type mismatch for tuple element {index}: {_describe_mismatch(true_element, false_element)}"
    elif true_type.is_collection and true_type.kind == getattr(false_type, "kind", None):  # type: ignore[attr-defined]
        true_element, false_element = true_type.element, false_type.element  # type: ignore[attr-defined]
        if ((isinstance(true_element, ObjectType) and isinstance(false_element, ObjectType))
                or (isinstance(true_element, TupleType) and isinstance(false_element, TupleType))):
            return (f"Mismatched {true_type.kind} element types: "  # type: ignore[attr-defined]
                    f"{_describe_mismatch(true_element, false_element)}")
    true_name, false_name = friendly_name(true_type), friendly_name(false_type)
    if true_name == false_name:
        return ("At least one deeply-nested attribute or element is not compatible across both the 'true' and "
                "the 'false' value")
    return f"The 'true' value is {true_name}, but the 'false' value is {false_name}"


# ---------------------------------------------------------------------------------------------
# equality (value_ops.go, Value.Equals)


def equal(a: Val, b: Val) -> bool | object:
    """Terraform's ``a == b``: True, False, or :data:`~kapsulint.terraform.values.UNKNOWN` when Terraform
    knows the answer only after apply (an Unknown part). Marks are ignored. UNKNOWN refuses a truth value, so an ``if`` on it
    raises TypeError, which the function registry turns into an Unknown result."""
    a_null, b_null = a.raw is None, b.raw is None
    a_known, b_known = a.raw is not UNKNOWN and not a.open, b.raw is not UNKNOWN and not b.open
    if a_null and b_known and not b_null:
        return False
    if b_null and a_known and not a_null:
        return False
    if not a_known or not b_known:
        if a_known != b_known:
            known, other = (a, b) if a_known else (b, a)
            other_type = type_of(other) if other.raw is UNKNOWN else DYNAMIC
            if known.raw is not None and not _has_dynamic(other_type) and type_of(known) != other_type:
                return False
        return UNKNOWN
    if a_null and b_null:
        return True
    a_type, b_type = type_of(a), type_of(b)
    if not _wholly_known_type(a) or not _wholly_known_type(b):
        if not _conforms(a_type, b_type) and not _conforms(b_type, a_type):
            return False
        return UNKNOWN
    if a_type != b_type:
        return False
    return _equal_same_type(a, b, a_type)


def _equal_same_type(a: Val, b: Val, ty: Type) -> bool | object:
    if isinstance(ty, Primitive):
        return a.raw == b.raw
    if isinstance(ty, ObjectType):
        pairs = [(a.raw[name], b.raw[name]) for name in ty.attributes]
    elif isinstance(ty, MapType):
        if a.raw.keys() != b.raw.keys():
            return False
        pairs = [(a.raw[key], b.raw[key]) for key in a.raw]
    elif isinstance(ty, SetType):
        if len(a.raw) != len(b.raw):
            return False
        hashes: dict[str, list[Val]] = {}
        for item in b.raw:
            hashes.setdefault(_hash_bytes(item), []).append(item)
        return all(any(_equal_member(item, other) for other in hashes.get(_hash_bytes(item), ())) for item in a.raw)
    else:  # list or tuple
        if len(a.raw) != len(b.raw):
            return False
        pairs = list(zip(a.raw, b.raw))
    result = True
    for left, right in pairs:
        same = equal(left, right)
        if same is UNKNOWN:
            return UNKNOWN
        if not same:
            result = False
            break
    return result


def _equal_member(a: Val, b: Val) -> bool:
    return equal(a, b) is True


def _wholly_known_type(value: Val) -> bool:
    """go-cty's ``Value.HasWhollyKnownType``: no part is an Unknown whose type has a dynamic
    part (a null of type dynamic is known)."""
    stack = [value]
    while stack:
        item = stack.pop()
        raw = item.raw
        if raw is UNKNOWN or item.open:
            if _has_dynamic(type_of(item) if raw is UNKNOWN else DYNAMIC):
                return False
        elif isinstance(raw, dict):
            stack.extend(raw.values())
        elif isinstance(raw, list):
            stack.extend(raw)
    return True


def _has_dynamic(ty: Type) -> bool:
    if isinstance(ty, Dynamic):
        return True
    if isinstance(ty, (ListType, SetType, MapType)):
        return _has_dynamic(ty.element)
    if isinstance(ty, ObjectType):
        return any(_has_dynamic(t) for t in ty.attributes.values())
    if isinstance(ty, TupleType):
        return any(_has_dynamic(t) for t in ty.elements)
    return False


def _conforms(given: Type, want: Type) -> bool:
    """go-cty's ``TestConformance`` finds no error: ``given`` matches ``want``'s shape, whose
    dynamic parts match anything."""
    if isinstance(want, Dynamic) or given == want:
        return True
    if isinstance(given, ObjectType) and isinstance(want, ObjectType):
        return given.attributes.keys() == want.attributes.keys() and all(
            _conforms(given.attributes[name], want.attributes[name]) for name in want.attributes)
    if isinstance(given, TupleType) and isinstance(want, TupleType):
        return len(given.elements) == len(want.elements) and all(
            _conforms(g, w) for g, w in zip(given.elements, want.elements))
    for kind in (ListType, MapType, SetType):
        if isinstance(given, kind) and isinstance(want, kind):
            return _conforms(given.element, want.element)
    return False


# ---------------------------------------------------------------------------------------------
# sets: deduplicated, in go-cty's order (set_internals.go, set/ops.go)


class _Uncertain(Exception):
    """An order go-cty decides in a way not reproduced here."""


def _hash_bytes(value: Val) -> str:
    """go-cty's ``appendSetHashBytes``: the text set members are bucketed and ordered by."""
    parts: list[str] = []
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
            continue
        assert isinstance(item, Val)
        raw = item.raw
        if raw is UNKNOWN or item.open:
            parts.append("?")
        elif raw is None:
            parts.append("~")
        elif raw is True or raw is False:
            parts.append("T" if raw else "F")
        elif isinstance(raw, str):
            parts.append(go_quote(raw))
        elif isinstance(raw, (int, Fraction)):
            parts.append(_go_float_g10(raw))
        else:
            ty = type_of(item)
            pending: list[object] = []
            if isinstance(ty, MapType):
                pending.append("{")
                for key in sorted(raw):
                    pending.extend((go_quote(key), ":", raw[key], ";"))
                pending.append("}")
            elif isinstance(ty, (ListType, SetType)):
                pending.append("[")
                for member in raw:
                    pending.extend((member, ";"))
                pending.append("]")
            elif isinstance(ty, ObjectType):
                pending.append("<")
                for name in sorted(raw):
                    pending.extend((raw[name], ";"))
                pending.append(">")
            else:
                pending.append("<")
                for member in raw:
                    pending.extend((member, ";"))
                pending.append(">")
            stack.extend(reversed(pending))
    return "".join(parts)


def _go_float_g10(number: int | Fraction) -> str:
    """``big.Float.String()`` (``Text('g', 10)``) of a number: 10 significant digits, trailing
    zeros dropped, ``e+dd`` notation when the exponent is below -4 or at least 10."""
    if number == 0:
        return "-0" if number is NEGATIVE_ZERO else "0"
    sign = "-" if number < 0 else ""
    magnitude = abs(Fraction(number))
    exponent = len(str(magnitude.numerator)) - len(str(magnitude.denominator))
    if Fraction(10) ** exponent > magnitude:
        exponent -= 1
    while Fraction(10) ** (exponent + 1) <= magnitude:
        exponent += 1
    scaled = magnitude / Fraction(10) ** (exponent - 9)  # 10 digits before the point
    digits, remainder = divmod(scaled.numerator, scaled.denominator)
    twice = 2 * remainder
    if twice == scaled.denominator:
        # an exact tie: big.Float rounds the binary value, which lies on one side of it unless
        # the number is a binary fraction
        denominator = magnitude.denominator
        if denominator & (denominator - 1):
            raise _Uncertain
        if digits % 2:
            digits += 1
    elif twice > scaled.denominator:
        digits += 1
    if digits == 10 ** 10:
        digits //= 10
        exponent += 1
    text = str(digits).rstrip("0") or "0"
    if exponent < -4 or exponent >= 10:
        mantissa = text[0] + ("." + text[1:] if len(text) > 1 else "")
        return f"{sign}{mantissa}e{'-' if exponent < 0 else '+'}{abs(exponent):02d}"
    if exponent >= 0:
        whole = text[: exponent + 1].ljust(exponent + 1, "0")
        fraction = text[exponent + 1:]
    else:
        whole, fraction = "0", "0" * (-exponent - 1) + text
    return sign + whole + ("." + fraction if fraction else "")


def _set_order(members: list[Val], ety: Type, texts: dict[int, str]) -> list[Val]:
    """``members`` (distinct, in insertion order) in the order go-cty iterates their set.

    go-cty visits its hash buckets in the order of their CRC-32, each bucket in insertion
    order, then sorts stably by ``setRules.Less``: nulls last, strings and numbers by value,
    false before true, any other type by its hash text. Two members tie under Less only when
    their hash texts are equal (or they are 0 and -0), so the bucket order decides between them."""
    hashes = {id(member): texts[id(member)].encode("utf-8", "surrogatepass") for member in members}
    ordered = sorted(members, key=lambda m: zlib.crc32(hashes[id(m)]))
    if ety in (STRING, NUMBER):
        key = lambda m: (m.raw is None, m.raw if m.raw is not None else 0)  # noqa: E731
    elif ety == BOOL:
        key = lambda m: (m.raw is None, m.raw is True)  # noqa: E731
    else:
        key = lambda m: (m.raw is None, hashes[id(m)])  # noqa: E731
    return sorted(ordered, key=key)


def make_set(items: Sequence[Val], element_type: Type | None = None, *, loc: Loc | None = None,
             sensitive: bool | int = False) -> Val:
    """A set of ``items``: converted to ``element_type`` (or to their unified type), duplicates
    removed, in go-cty's order. Unknown (of the set type) when an item is not wholly known or
    the order cannot be reproduced; EvalError when the items have no common type. A set holds
    no marked member: the members' marks mark the set as a whole (go-cty's ``SetVal``)."""
    items, ety = _common(items, element_type)
    ty = SetType(ety)
    if any(item.contains_sensitive() for item in items):
        items = [item.unmarked() for item in items]
        sensitive = sensitive or True
    if any(item.contains_unknown() for item in items):
        return Val(UNKNOWN, loc, type=ty, sensitive=sensitive)
    buckets: dict[str, list[Val]] = {}
    distinct = []
    texts: dict[int, str] = {}
    try:
        for item in items:
            text = _hash_bytes(item)
            bucket = buckets.setdefault(text, [])
            if not any(_equal_member(item, other) for other in bucket):
                bucket.append(item)
                distinct.append(item)
                texts[id(item)] = text
        ordered = _set_order(distinct, ety, texts)
    except _Uncertain:
        return Val(UNKNOWN, loc, type=ty, sensitive=sensitive)
    result = Val(ordered, loc, type=ty)
    return result.with_sensitive(sensitive) if sensitive else result


# ---------------------------------------------------------------------------------------------
# constructors


def _common(items: Sequence[Val], element_type: Type | None) -> tuple[list[Val], Type]:
    if element_type is None:
        types = tuple(type_of(item) for item in items)
        if not types:
            return [], DYNAMIC
        element_type = _unify(types, False)
        if element_type is None:
            raise EvalError("all elements must have the same type")
    return [convert(item, element_type) for item in items], without_optional(element_type)


def make_list(items: Sequence[Val], element_type: Type | None = None, *, loc: Loc | None = None) -> Val:
    """A list of ``items`` converted to ``element_type`` (or to their unified type)."""
    items, ety = _common(items, element_type)
    return Val(items, loc, type=ListType(ety))


def make_map(items: Mapping[str, Val], element_type: Type | None = None, *, loc: Loc | None = None,
             keylocs: dict[str, Loc] | None = None) -> Val:
    """A map of ``items`` (keys in go-cty's lexical order) converted to ``element_type`` (or to
    their unified type)."""
    keys = sorted(items)
    values, ety = _common([items[key] for key in keys], element_type)
    return Val(dict(zip(keys, values)), loc, keylocs=keylocs, type=MapType(ety))


def make_tuple(items: Sequence[Val], *, loc: Loc | None = None) -> Val:
    """A tuple of ``items``, each keeping its own type."""
    items = list(items)
    return Val(items, loc, type=TupleType(type_of(item) for item in items))


def make_object(items: Mapping[str, Val], *, loc: Loc | None = None, keylocs: dict[str, Loc] | None = None) -> Val:
    """An object of ``items``, each attribute keeping its own type."""
    items = dict(items)
    return Val(items, loc, keylocs=keylocs, type=ObjectType({name: type_of(item) for name, item in items.items()}))
