"""Terraform's functions of maps and objects: ``keys``, ``values``, ``lookup``, ``merge``,
``zipmap``, ``transpose``.

Declared as go-cty declares them
(https://github.com/zclconf/go-cty/blob/v1.16.0/cty/function/stdlib/collection.go) and, for
``lookup`` and ``transpose``, Terraform
(https://github.com/hashicorp/terraform/blob/v1.11.4/internal/lang/funcs/collection.go). An
object's keys come from its type, so ``keys`` and ``length`` know them even for an Unknown
object; a value picked out of an argument keeps its own location, and a merged key the location
it was written at.
"""

from __future__ import annotations

from kapsulint.terraform.convert import convert, friendly_name, go_quote
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.functions.collections import shallow_unknown, unknown
from kapsulint.terraform.functions.registry import Call, Param, argument_error, call_error, function
from kapsulint.terraform.types import (
    DYNAMIC,
    EMPTY_OBJECT,
    STRING,
    Dynamic,
    ListType,
    MapType,
    ObjectType,
    TupleType,
    Type,
    type_of,
)
from kapsulint.terraform.values import Val

# ---------------------------------------------------------------------------------------------
# keys, values, lookup, merge, zipmap (go-cty; lookup from Terraform)


def _keys_type(args: list[Val]) -> Type:
    ty = type_of(args[0])
    if isinstance(ty, MapType):
        return ListType(STRING)
    if isinstance(ty, ObjectType):
        return TupleType([STRING] * len(ty.attributes))
    raise argument_error("inputMap", "must have map or object type")


@function("keys", Param("inputMap", allow_unknown=True, allow_marked=True), returns=_keys_type)
def keys(args: list[Val], call: Call) -> Val:
    """The keys in lexical order; an object's come from its type, so even an Unknown object has them."""
    value = args[0]
    if (shallow_unknown(value) and isinstance(type_of(value), Dynamic)) or value.open:
        return unknown(call)
    ty = _keys_type(args)
    source = type_of(value)
    if isinstance(source, ObjectType):
        names = sorted(source.attributes)
    elif shallow_unknown(value):
        return unknown(call, ty)
    else:
        names = sorted(value.raw)
    items = [Val(name, value.key_loc(name) or call.loc, type=STRING) for name in names]
    return Val(items, call.loc, type=ty)


def _values_type(args: list[Val]) -> Type:
    ty = type_of(args[0])
    if isinstance(ty, MapType):
        return ListType(ty.element)
    if isinstance(ty, ObjectType):
        return TupleType(ty.attributes[name] for name in sorted(ty.attributes))
    raise call_error("values", "values() requires a map as the first argument")


@function("values", Param("mapping", allow_unknown=True, allow_marked=True), returns=_values_type)
def values(args: list[Val], call: Call) -> Val:
    value = args[0]
    if shallow_unknown(value) and isinstance(type_of(value), Dynamic):
        return unknown(call)
    ty = _values_type(args)
    if shallow_unknown(value):
        return unknown(call, ty)
    return Val([value.raw[key] for key in sorted(value.raw)], call.loc, type=ty)


def _lookup_type(args: list[Val]) -> Type:
    if len(args) > 3:
        raise call_error("lookup", f"lookup() takes two or three arguments, got {len(args)}")
    ty = type_of(args[0])
    if isinstance(ty, ObjectType):
        if shallow_unknown(args[1]):
            return DYNAMIC
        key = args[1].raw
        if key in ty.attributes:
            return ty.attributes[key]
        if len(args) == 3:
            return type_of(args[2])
        raise argument_error("inputMap", f"the given object has no attribute {go_quote(key)}")
    if isinstance(ty, MapType):
        if len(args) == 3:
            try:
                convert(args[2], ty.element)
            except EvalError:
                raise argument_error("default", "the default value must have the same type as the map elements") from None
        return ty.element
    raise argument_error("inputMap", "lookup() requires a map as the first argument")


@function("lookup", Param("inputMap", allow_unknown=True, allow_marked=True), Param("key", STRING, allow_unknown=True),
          varparam=Param("default", allow_null=True, allow_unknown=True), returns=_lookup_type)
def lookup(args: list[Val], call: Call) -> Val:
    """The element at the key (even when it is null), else the default converted to its type."""
    mapping, key = args[0], args[1]
    if shallow_unknown(mapping) and isinstance(type_of(mapping), Dynamic):
        return unknown(call, DYNAMIC, mapping)
    ty = _lookup_type(args)
    if shallow_unknown(mapping) or shallow_unknown(key):
        return unknown(call, ty, mapping if shallow_unknown(mapping) else None)
    if key.raw in mapping.raw:
        return mapping.raw[key.raw]
    if len(args) == 3:
        try:
            return convert(args[2], ty)
        except EvalError as error:
            raise call_error("lookup", str(error)) from None
    shown = "(sensitive value)" if key.sensitive else go_quote(key.raw)
    raise call_error("lookup", f"lookup failed to find key {shown}")


def _merge_type(args: list[Val]) -> Type:
    if not args:
        return EMPTY_OBJECT
    attributes: dict[str, Type] = {}
    first: Type | None = None
    matching, attributes_known = True, True
    for position, arg in enumerate(args):
        ty = type_of(arg) if not arg.open else DYNAMIC
        if isinstance(ty, Dynamic):
            return DYNAMIC
        if isinstance(ty, ObjectType):
            if arg.raw is not None:
                attributes.update(ty.attributes)
        elif isinstance(ty, MapType):
            if shallow_unknown(arg):
                attributes_known = False
            elif arg.raw is not None:
                attributes.update((key, ty.element) for key in arg.raw)
        else:
            raise call_error("merge", f"arguments must be maps or objects, got {go_quote(friendly_name(ty))}")
        if position == 0:
            first = ty
        elif ty != first:
            matching = False
    if matching:
        return first  # type: ignore[return-value]
    if not attributes_known:
        return DYNAMIC
    return ObjectType(attributes)


@function("merge", varparam=Param("maps", allow_null=True, allow_unknown=True, allow_marked=True), returns=_merge_type)
def merge(args: list[Val], call: Call) -> Val:
    """Later keys win; the result keeps each value (and key location) of the argument it came from."""
    ty = _merge_type(args)
    if any(shallow_unknown(arg) for arg in args):
        return unknown(call, ty)
    items: dict[str, Val] = {}
    keylocs: dict = {}
    for arg in args:
        if arg.raw is None:
            continue
        items.update(arg.raw)
        keylocs.update((key, arg.key_loc(key)) for key in arg.raw if arg.key_loc(key) is not None)
    items = {key: items[key] for key in sorted(items)}
    keylocs = {key: keylocs[key] for key in items if key in keylocs}
    if isinstance(ty, MapType):
        return Val(items, call.loc, keylocs=keylocs or None, type=ty)
    attributes = ObjectType({key: type_of(item) for key, item in items.items()})
    return Val(items, call.loc, keylocs=keylocs or None, type=attributes)


def _zipmap_lengths(keys_: int, values_: int) -> EvalError:
    return call_error("zipmap", f"number of keys ({keys_}) does not match number of values ({values_})")


def _zipmap_type(args: list[Val]) -> Type:
    keysval, valuesval = args
    ty = type_of(valuesval)
    if isinstance(ty, ListType):
        return MapType(ty.element)
    if isinstance(ty, TupleType):
        if keysval.contains_unknown():
            return DYNAMIC
        if len(keysval.raw) != len(ty.elements):
            raise _zipmap_lengths(len(keysval.raw), len(ty.elements))
        attributes: dict[str, Type] = {}
        for position, (key, element_type) in enumerate(zip(keysval.raw, ty.elements)):
            if key.raw is None:
                raise call_error("zipmap", f"keys list has null value at index {position}")
            attributes[key.raw] = element_type
        return ObjectType(attributes)
    raise call_error("zipmap", "values argument must be a list or tuple value")


@function("zipmap", Param("keys", ListType(STRING)), Param("values", allow_unknown=True, allow_marked=True), returns=_zipmap_type)
def zipmap(args: list[Val], call: Call) -> Val:
    keysval, valuesval = args
    if shallow_unknown(valuesval) and isinstance(type_of(valuesval), Dynamic):
        return unknown(call)
    ty = _zipmap_type(args)
    if shallow_unknown(valuesval):
        return unknown(call, ty)
    if len(keysval.raw) != len(valuesval.raw):
        raise _zipmap_lengths(len(keysval.raw), len(valuesval.raw))
    items: dict[str, Val] = {}
    keylocs = {}
    for key, value in zip(keysval.raw, valuesval.raw):
        if key.raw is None:
            raise call_error("zipmap", "panic in function implementation: value is null")
        items[key.raw] = value
        if key.loc is not None:
            keylocs[key.raw] = key.loc
    items = {key: items[key] for key in sorted(items)}
    return Val(items, call.loc, keylocs=keylocs or None, type=ty)


# ---------------------------------------------------------------------------------------------
# transpose (Terraform)


_MAP_OF_LISTS = MapType(ListType(STRING))


@function("transpose", Param("values", _MAP_OF_LISTS), returns=_MAP_OF_LISTS)
def transpose(args: list[Val], call: Call) -> Val:
    """Each string of the lists becomes a key, listing (sorted) the keys whose list held it."""
    swapped: dict[str, list[str]] = {}
    mapping = args[0].raw
    for key in sorted(mapping):
        strings = mapping[key]
        if strings.raw is None:
            raise call_error("transpose", "input must not contain null list")
        for text in strings.raw:
            if text.raw is None:
                raise call_error("transpose", "input list must not contain null string")
            swapped.setdefault(text.raw, []).append(key)
    items = {
        out: Val([Val(key, call.loc, type=STRING) for key in sorted(keys_)], call.loc, type=ListType(STRING))
        for out, keys_ in sorted(swapped.items())
    }
    return Val(items, call.loc, type=_MAP_OF_LISTS)
