"""Terraform's collection functions on lists, tuples and sets (as sequences).

Each is declared as go-cty's stdlib (https://github.com/zclconf/go-cty/tree/v1.16.0/cty/function/stdlib:
``collection.go``, ``sequence.go``, ``number.go`` for ``min``/``max``, ``string.go`` for ``sort``)
or Terraform (https://github.com/hashicorp/terraform/blob/v1.11.4/internal/lang/funcs/collection.go:
``alltrue``, ``anytrue``, ``coalesce``, ``index``, ``length``, ``matchkeys``, ``one``, ``sum``)
declares it; go-cty v1.16.0 is the version Terraform 1.11.4 builds with.
The functions of maps and objects are in :mod:`kapsulint.terraform.functions.maps`, the set
operations in :mod:`kapsulint.terraform.functions.sets`.

go-cty returns an Unknown result when an argument is Unknown at its top level only: a list with
an Unknown element is a known list. The registry waits for a wholly known argument, which is
never wrong but knows less; where Terraform gives a known result with Unknown parts (``merge``,
``concat``, ``element``, ``length`` of a list of Unknowns, ...) the parameters here take Unknown
and the implementation makes go-cty's shallow check itself (:func:`shallow_unknown`).
"""

from __future__ import annotations

from fractions import Fraction

from kapsulint.terraform import numbers
from kapsulint.terraform.convert import convert, equal, friendly_name, unify_unsafe
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.functions.registry import Call, Param, argument_error, call_error, function
from kapsulint.terraform.functions.strings import cluster_count
from kapsulint.terraform.types import (
    BOOL,
    DYNAMIC,
    NUMBER,
    STRING,
    Dynamic,
    ListType,
    MapType,
    ObjectType,
    SetType,
    TupleType,
    Type,
    type_of,
)
from kapsulint.terraform.values import UNKNOWN, Val

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
# gocty.FromCtyValue's message for a number that is no Go int
WHOLE_NUMBER = f"value must be a whole number, between {_INT64_MIN} and {_INT64_MAX}"


# ---------------------------------------------------------------------------------------------
# helpers shared with maps.py and sets.py


def shallow_unknown(value: Val) -> bool:
    """go-cty's ``!value.IsKnown()``: Unknown itself, or an object whose keys are not all known."""
    return value.raw is UNKNOWN or value.open


def unknown(call: Call, ty: Type = DYNAMIC, source: Val | None = None) -> Val:
    """An Unknown result; one that stands for a picked element (``element``, ``one``, ``lookup``,
    ``coalesce``) keeps the resource reference of the Unknown ``source`` it was picked from, so
    rules can still follow it to the resource."""
    return Val(UNKNOWN, call.loc, type=ty, ref=source.ref if source is not None else None)


def go_int(value: Val) -> int | None:
    """``gocty.FromCtyValue(value, &int)``: the number as a Go int, None when it is not one."""
    raw = value.raw
    if isinstance(raw, int) and not isinstance(raw, bool) and _INT64_MIN <= raw <= _INT64_MAX:
        return int(raw)
    return None


def list_type(value: Val) -> Type:
    """The type of ``value`` converted for a ``list(any)`` parameter (DYNAMIC if it cannot be):
    the registry passes an argument unconverted when it waits for an Unknown, and the Unknown
    result must still be a list (its length unknown), not the tuple it was given."""
    try:
        return type_of(convert(Val(UNKNOWN, type=type_of(value)), ListType(DYNAMIC)))
    except EvalError:
        return DYNAMIC


def is_sequence(ty: Type) -> bool:
    return isinstance(ty, (ListType, SetType, TupleType))


def _list(items: list[Val], element: Type, call: Call) -> Val:
    return Val(items, call.loc, type=ListType(element))


# ---------------------------------------------------------------------------------------------
# alltrue, anytrue (Terraform)


@function("alltrue", Param("list", ListType(BOOL)), returns=BOOL)
def alltrue(args: list[Val], call: Call) -> Val:
    for item in args[0].raw:
        if item.raw is None or item.raw is False:
            return Val(False, call.loc, type=BOOL)
    return Val(True, call.loc, type=BOOL)


@function("anytrue", Param("list", ListType(BOOL), allow_unknown=True), returns=BOOL)
def anytrue(args: list[Val], call: Call) -> Val:
    """True as soon as an element is, even when others are Unknown."""
    if shallow_unknown(args[0]):
        return unknown(call, BOOL)
    waiting = False
    for item in args[0].raw:
        if item.raw is UNKNOWN:
            waiting = True
        elif item.raw is True:
            return Val(True, call.loc, type=BOOL)
    return unknown(call, BOOL) if waiting else Val(False, call.loc, type=BOOL)


# ---------------------------------------------------------------------------------------------
# chunklist, compact, distinct (go-cty)


def _chunklist_type(args: list[Val]) -> Type:
    return ListType(list_type(args[0]))


@function("chunklist", Param("list", ListType(DYNAMIC), allow_unknown=True, allow_marked=True), Param("size", NUMBER),
          returns=_chunklist_type)
def chunklist(args: list[Val], call: Call) -> Val:
    listval, sizeval = args
    ty = _chunklist_type(args)
    if shallow_unknown(listval):
        return unknown(call, ty)
    size = go_int(sizeval)
    if size is None:
        raise call_error("chunklist", f"invalid size: {WHOLE_NUMBER}")
    if size < 0:
        raise call_error("chunklist", "the size argument must be positive")
    items = listval.raw
    if not items:
        return Val([], call.loc, type=ty)
    if size == 0:
        return Val([listval], call.loc, type=ty)
    element = ty.element  # type: ignore[attr-defined]
    chunks = [Val(items[i:i + size], call.loc, type=element) for i in range(0, len(items), size)]
    return Val(chunks, call.loc, type=ty)


@function("compact", Param("list", ListType(STRING)), returns=ListType(STRING))
def compact(args: list[Val], call: Call) -> Val:
    kept = [item for item in args[0].raw if item.raw is not None and item.raw != ""]
    return _list(kept, STRING, call)


@function("distinct", Param("list", ListType(DYNAMIC)), returns=lambda args: list_type(args[0]))
def distinct(args: list[Val], call: Call) -> Val:
    """The first of each run of equal elements, in order. A string, number or bool is equal only
    to the same raw value (kept in a set); another element is compared with the kept ones that
    are not scalars, each comparison a step of the budget."""
    kept: list[Val] = []
    scalars: set[tuple[type, object]] = set()
    others: list[Val] = []
    for item in args[0].raw:
        raw = item.raw
        if isinstance(raw, _SCALARS):  # a number of any precision, -0 too, is keyed by its value
            key = (str if isinstance(raw, str) else bool if isinstance(raw, bool) else int, raw)
            if key in scalars:
                continue
            scalars.add(key)
        else:
            call.budget.step(len(others), call.loc, call.subject)
            if any(equal(other, item) is True for other in others):
                continue
            others.append(item)
        kept.append(item)
    return Val(kept, call.loc, type=type_of(args[0]))


_SCALARS = (str, bool, int, Fraction)


# ---------------------------------------------------------------------------------------------
# coalesce (Terraform), coalescelist (go-cty)


def _coalesce_type(args: list[Val]) -> Type:
    try:
        return unify_unsafe([type_of(arg) for arg in args])
    except EvalError:
        raise call_error("coalesce", "all arguments must have the same type") from None


@function("coalesce", varparam=Param("vals", DYNAMIC, allow_null=True, allow_unknown=True),
          returns=_coalesce_type)
def coalesce(args: list[Val], call: Call) -> Val:
    """The first argument neither null nor the empty string, converted to the arguments' type."""
    ty = _coalesce_type(args)
    for arg in args:
        arg = convert(arg, ty)
        if shallow_unknown(arg):
            return unknown(call, ty, arg)
        if arg.raw is None or (ty == STRING and arg.raw == ""):
            continue
        return arg
    raise call_error("coalesce", "no non-null, non-empty-string arguments")


def _coalescelist_type(args: list[Val]) -> Type:
    if not args:
        raise call_error("coalescelist", "at least one argument is required")
    types = []
    for arg in args:
        if shallow_unknown(arg):
            return DYNAMIC
        ty = type_of(arg)
        if not isinstance(ty, (ListType, TupleType)):
            raise call_error("coalescelist", "coalescelist arguments must be lists or tuples")
        types.append(ty)
    return types[0] if all(ty == types[0] for ty in types) else DYNAMIC


@function("coalescelist", varparam=Param("vals", DYNAMIC, allow_null=True, allow_unknown=True),
          returns=_coalescelist_type)
def coalescelist(args: list[Val], call: Call) -> Val:
    ty = _coalescelist_type(args)
    for arg in args:
        if shallow_unknown(arg):
            return unknown(call, ty, arg)
        if arg.raw:
            return arg
    raise call_error("coalescelist", "no non-null arguments")


# ---------------------------------------------------------------------------------------------
# concat (go-cty sequence.go)


def _concat_type(args: list[Val]) -> Type:
    if not args:
        raise call_error("concat", "at least one argument is required")
    types = [type_of(arg) for arg in args]
    if all(isinstance(ty, ListType) for ty in types):
        try:
            return unify_unsafe(types)
        except EvalError:
            pass
    elements: list[Type] = []
    for arg, ty in zip(args, types):
        if isinstance(ty, TupleType):
            elements.extend(ty.elements)
        elif isinstance(ty, ListType):
            if shallow_unknown(arg):
                return DYNAMIC
            elements.extend([ty.element] * len(arg.raw))
        else:
            raise argument_error("seqs", f"all arguments must be lists or tuples; got {friendly_name(ty)}")
    return TupleType(elements)


@function("concat", varparam=Param("seqs", DYNAMIC, allow_unknown=True, allow_marked=True), returns=_concat_type)
def concat(args: list[Val], call: Call) -> Val:
    if any(shallow_unknown(arg) and isinstance(type_of(arg), Dynamic) for arg in args):
        return unknown(call)
    ty = _concat_type(args)
    if any(shallow_unknown(arg) for arg in args):
        return unknown(call, ty)
    if isinstance(ty, ListType):
        items: list[Val] = []
        for arg in args:
            try:
                items.extend(convert(arg, ty).raw)
            except EvalError as error:
                raise argument_error("seqs", str(error)) from None
        return Val(items, call.loc, type=ty)
    return Val([item for arg in args for item in arg.raw], call.loc, type=ty)


# ---------------------------------------------------------------------------------------------
# contains (go-cty), index (Terraform)


@function("contains", Param("list", allow_unknown=True), Param("value", allow_unknown=True), returns=BOOL)
def contains(args: list[Val], call: Call) -> Val:
    """True when an element equals the value, even when others are Unknown."""
    listval, value = args
    if shallow_unknown(listval) or shallow_unknown(value):
        return unknown(call, BOOL)
    if not is_sequence(type_of(listval)):
        raise call_error("contains", "argument must be list, tuple, or set")
    waiting = False
    for item in listval.raw:
        same = equal(value, item)
        if same is UNKNOWN:
            waiting = True
        elif same:
            return Val(True, call.loc, type=BOOL)
    return unknown(call, BOOL) if waiting else Val(False, call.loc, type=BOOL)


@function("index", Param("list", allow_unknown=True), Param("value", allow_unknown=True), returns=NUMBER)
def index(args: list[Val], call: Call) -> Val:
    listval, value = args
    if shallow_unknown(listval) or shallow_unknown(value):
        return unknown(call, NUMBER)
    if not isinstance(type_of(listval), (ListType, TupleType)):
        raise call_error("index", "argument must be a list or tuple")
    if not listval.raw:
        raise call_error("index", "cannot search an empty list")
    for position, item in enumerate(listval.raw):
        same = equal(item, value)
        if same is UNKNOWN:
            return unknown(call, NUMBER)
        if same:
            return Val(position, call.loc, type=NUMBER)
    raise call_error("index", "item not found")


# ---------------------------------------------------------------------------------------------
# element, slice, reverse, flatten (go-cty)


def _element_type(args: list[Val]) -> Type:
    listval, indexval = args
    ty = type_of(listval)
    if isinstance(ty, ListType):
        return ty.element
    if isinstance(ty, TupleType):
        if shallow_unknown(indexval):
            return DYNAMIC
        position = go_int(indexval)
        if position is None:
            raise call_error("element", f"invalid index: {WHOLE_NUMBER}")
        if not ty.elements:
            raise call_error("element", "cannot use element function with an empty list")
        # Go's remainder keeps the dividend's sign: a negative index panics in go-cty
        remainder = abs(position) % len(ty.elements) * (-1 if position < 0 else 1)
        if remainder < 0:
            raise call_error("element", "panic in function implementation: runtime error: "
                                        f"index out of range [{remainder}]")
        return ty.elements[remainder]
    raise call_error("element", f"cannot read elements from {friendly_name(ty)}")


@function("element", Param("list", allow_unknown=True, allow_marked=True), Param("index", NUMBER), returns=_element_type)
def element(args: list[Val], call: Call) -> Val:
    """The element at index modulo the length; a list also takes a negative index."""
    listval, indexval = args
    if shallow_unknown(listval) and isinstance(type_of(listval), Dynamic):
        return unknown(call, DYNAMIC, listval)
    ty = _element_type(args)
    if shallow_unknown(listval):
        return unknown(call, ty, listval)
    position = go_int(indexval)
    if position is None:
        raise call_error("element", f"invalid index: {WHOLE_NUMBER}")
    if not listval.raw:
        raise call_error("element", "cannot use element function with an empty list")
    return listval.raw[position % len(listval.raw)]


def _slice_indexes(args: list[Val]) -> tuple[int, int]:
    listval, start_val, end_val = args
    length = len(listval.raw) if not shallow_unknown(listval) else None
    ty = type_of(listval)
    if isinstance(ty, TupleType):
        length = len(ty.elements)
    start, end = go_int(start_val), go_int(end_val)
    if start is None:
        raise argument_error("start_index", f"invalid start index: {WHOLE_NUMBER}")
    if start < 0:
        raise argument_error("start_index", "start index must not be less than zero")
    if length is not None and start > length:
        raise argument_error("start_index", "start index must not be greater than the length of the list")
    if end is None:
        raise argument_error("end_index", f"invalid end index: {WHOLE_NUMBER}")
    if end < 0:
        raise argument_error("end_index", "end index must not be less than zero")
    if length is not None and end > length:
        raise argument_error("end_index", "end index must not be greater than the length of the list")
    if start > end:
        raise argument_error("start_index", "start index must not be greater than end index")
    return start, end


def _slice_type(args: list[Val]) -> Type:
    ty = type_of(args[0])
    if isinstance(ty, SetType):
        raise argument_error("list", "cannot slice a set, because its elements do not have indices; "
                                "explicitly convert to a list if the ordering of the result is not important")
    if not isinstance(ty, (ListType, TupleType)):
        raise argument_error("list", "must be a list or tuple value")
    start, end = _slice_indexes(args)
    return ty if isinstance(ty, ListType) else TupleType(ty.elements[start:end])


@function("slice", Param("list", allow_unknown=True, allow_marked=True), Param("start_index", NUMBER), Param("end_index", NUMBER),
          returns=_slice_type)
def slice_(args: list[Val], call: Call) -> Val:
    if shallow_unknown(args[0]) and isinstance(type_of(args[0]), Dynamic):
        return unknown(call)
    ty = _slice_type(args)
    if shallow_unknown(args[0]):
        return unknown(call, ty)
    start, end = _slice_indexes(args)
    return Val(args[0].raw[start:end], call.loc, type=ty)


def _reverse_type(args: list[Val]) -> Type:
    ty = type_of(args[0])
    if isinstance(ty, TupleType):
        return TupleType(reversed(ty.elements))
    if isinstance(ty, (ListType, SetType)):
        return ListType(ty.element)
    raise argument_error("list", f"can only reverse list or tuple values, not {friendly_name(ty)}")


@function("reverse", Param("list", allow_unknown=True, allow_marked=True), returns=_reverse_type)
def reverse(args: list[Val], call: Call) -> Val:
    value = args[0]
    if shallow_unknown(value) and isinstance(type_of(value), Dynamic):
        return unknown(call)
    ty = _reverse_type(args)
    if shallow_unknown(value) or (isinstance(type_of(value), SetType) and value.contains_unknown()):
        return unknown(call, ty)
    return Val(value.raw[::-1], call.loc, type=ty)


def _flattened(value: Val) -> tuple[list[Val], bool, bool]:
    """go-cty's ``flattener``: the nested sequences' elements in order, whether all of them
    are known (an Unknown sequence, or an Unknown of unknown type, may hold more), and whether a
    nested sequence is marked sensitive (go-cty gives its marks to the whole result)."""
    out: list[Val] = []
    known = True
    marked = False
    stack = [iter(value.raw)]
    while stack:
        item = next(stack[-1], None)
        if item is None:
            stack.pop()
            continue
        ty = type_of(item)
        if item.raw is UNKNOWN and isinstance(ty, Dynamic):
            known = False
        if item.raw is not None and is_sequence(ty):
            if item.raw is UNKNOWN or (isinstance(ty, SetType) and item.contains_unknown()):
                known = False
            else:
                marked = marked or bool(item.sensitive)
                stack.append(iter(item.raw))
        else:
            out.append(item)
    return out, known, marked


def _flatten_type(args: list[Val]) -> Type:
    value = args[0]
    if value.contains_unknown():
        return DYNAMIC
    if not is_sequence(type_of(value)):
        raise call_error("flatten", "can only flatten lists, sets and tuples")
    out, known, _ = _flattened(value)
    return TupleType(type_of(item) for item in out) if known else DYNAMIC


@function("flatten", Param("list", allow_unknown=True, allow_marked=True), returns=_flatten_type)
def flatten(args: list[Val], call: Call) -> Val:
    value = args[0]
    ty = _flatten_type(args)
    if shallow_unknown(value):
        return unknown(call, ty)
    if not is_sequence(type_of(value)):
        raise call_error("flatten", "can only flatten lists, sets and tuples")
    if isinstance(type_of(value), SetType) and value.contains_unknown():
        return unknown(call, ty)
    out, known, marked = _flattened(value)
    if not known:
        return unknown(call, ty)
    result = Val(out, call.loc, type=TupleType(type_of(item) for item in out))
    return result.with_sensitive() if marked else result


# ---------------------------------------------------------------------------------------------
# length, one (Terraform)


def _length_type(args: list[Val]) -> Type:
    ty = type_of(args[0])
    if ty == STRING or isinstance(ty, (TupleType, ObjectType, ListType, MapType, SetType, Dynamic)):
        return NUMBER
    raise call_error("length", "argument must be a string, a collection type, or a structural type")


@function("length", Param("value", allow_unknown=True, allow_marked=True), returns=NUMBER)
def length(args: list[Val], call: Call) -> Val:
    """A tuple's or object's length comes from its type; a list of Unknowns has a known length;
    a string's is its count of grapheme clusters."""
    value = args[0]
    _length_type(args)
    ty = type_of(value)
    if isinstance(ty, Dynamic) or value.open:
        return unknown(call, NUMBER)
    if isinstance(ty, TupleType):
        return Val(len(ty.elements), call.loc, type=NUMBER)
    if isinstance(ty, ObjectType):
        return Val(len(ty.attributes), call.loc, type=NUMBER)
    if shallow_unknown(value) or (isinstance(ty, SetType) and value.contains_unknown()):
        return unknown(call, NUMBER)
    if ty == STRING:
        return Val(cluster_count(value.raw), call.loc, type=NUMBER)
    return Val(len(value.raw), call.loc, type=NUMBER)


_ONE_ERROR = "must be a list, set, or tuple value with either zero or one elements"


def _one_type(args: list[Val]) -> Type:
    ty = type_of(args[0])
    if isinstance(ty, (ListType, SetType)):
        return ty.element
    if isinstance(ty, TupleType) and len(ty.elements) <= 1:
        return ty.elements[0] if ty.elements else DYNAMIC
    raise argument_error("list", _ONE_ERROR)


@function("one", Param("list", allow_unknown=True), returns=_one_type)
def one(args: list[Val], call: Call) -> Val:
    value = args[0]
    if shallow_unknown(value) and isinstance(type_of(value), Dynamic):
        return unknown(call, DYNAMIC, value)
    ty = _one_type(args)
    if shallow_unknown(value) or (isinstance(type_of(value), SetType) and value.contains_unknown()):
        return unknown(call, ty, value)
    if not value.raw:
        return Val(None, call.loc, type=ty)
    if len(value.raw) == 1:
        return value.raw[0]
    raise argument_error("list", _ONE_ERROR)


# ---------------------------------------------------------------------------------------------
# matchkeys (Terraform)


def _matchkeys_type(args: list[Val]) -> Type:
    try:
        unify_unsafe([type_of(args[1]), type_of(args[2])])
    except EvalError:
        raise call_error("matchkeys", "keys and searchset must be of the same type") from None
    return list_type(args[0])


_LIST_OF_ANY = Param("values", ListType(DYNAMIC))


@function("matchkeys", _LIST_OF_ANY, _LIST_OF_ANY._replace(name="keys"), _LIST_OF_ANY._replace(name="searchset"),
          returns=_matchkeys_type)
def matchkeys(args: list[Val], call: Call) -> Val:
    """The values whose key, at the same index, is in the search set."""
    ty = _matchkeys_type(args)
    valuesval = args[0]
    if len(valuesval.raw) != len(args[1].raw):
        raise call_error("matchkeys", "length of keys and values should be equal")
    common = unify_unsafe([type_of(args[1]), type_of(args[2])])
    keysval, searchset = convert(args[1], common), convert(args[2], common)
    kept = [value for value, key in zip(valuesval.raw, keysval.raw)
            if any(equal(key, search) is True for search in searchset.raw)]
    return Val(kept, call.loc, type=ty)


# ---------------------------------------------------------------------------------------------
# range (go-cty sequence.go), sort (go-cty string.go), sum (Terraform), min, max (go-cty number.go)

_RANGE_LIMIT = 1024


@function("range", varparam=Param("params", NUMBER), returns=ListType(NUMBER))
def range_(args: list[Val], call: Call) -> Val:
    """go-cty's loop, including its quirk: a step of zero is never refused (go-cty compares it
    with ``==`` to another zero value), so it runs into the 1,024-element limit."""
    numbers_ = [arg.raw for arg in args]
    if len(numbers_) == 1:
        start, end, step = 0, numbers_[0], -1 if numbers_[0] < 0 else 1
    elif len(numbers_) == 2:
        start, end = numbers_
        step = -1 if end < start else 1
    elif len(numbers_) == 3:
        start, end, step = numbers_
    else:
        raise call_error("range", "must have one, two, or three arguments")
    down = step < 0
    if down and end > start:
        raise argument_error("params", "end must be less than start when step is negative")
    if not down and end < start:
        raise argument_error("params", "end must be greater than start when step is positive")
    items: list[Val] = []
    number: numbers.Number = start
    while not (number <= end if down else number >= end):
        if len(items) >= _RANGE_LIMIT:
            raise call_error("range", "more than 1024 values were generated; either decrease the difference "
                                      "between start and end or use a smaller step")
        items.append(Val(number, call.loc, type=NUMBER))
        try:
            number = numbers.add(number, step)
        except numbers.Unrepresentable:  # an infinite number: no kapsulint value holds it
            return unknown(call, ListType(NUMBER))
    return _list(items, NUMBER, call)


@function("sort", Param("list", ListType(STRING), allow_unknown=True), returns=ListType(STRING))
def sort(args: list[Val], call: Call) -> Val:
    """Lexical order of the UTF-8 bytes, which is the order of the code points."""
    value = args[0]
    if value.contains_unknown():
        return unknown(call, ListType(STRING))
    for position, item in enumerate(value.raw):
        if item.raw is None:
            raise call_error("sort", f"given list element {position} is null; a null string cannot be sorted")
    return _list(sorted(value.raw, key=lambda item: item.raw), STRING, call)


_NOT_NUMBERS = "argument must be list, set, or tuple of number values"


@function("sum", Param("list"), returns=NUMBER)
def sum_(args: list[Val], call: Call) -> Val:
    value = args[0]
    ty = type_of(value)
    if not isinstance(ty, (ListType, SetType, MapType, ObjectType, TupleType)):
        raise argument_error("list", "cannot sum noniterable")
    if not value.raw:
        raise argument_error("list", "cannot sum an empty list")
    if not is_sequence(ty):
        raise argument_error("list", f"argument must be list, set, or tuple. Received {friendly_name(ty)}")
    total: numbers.Number | None = None
    for item in value.raw:
        if item.raw is None:
            raise argument_error("list", _NOT_NUMBERS)
        try:
            number = convert(item, NUMBER).raw
        except EvalError:
            raise argument_error("list", _NOT_NUMBERS) from None
        try:
            total = number if total is None else numbers.add(total, number)
        except numbers.Unrepresentable:  # an infinite sum: no kapsulint value holds it
            return unknown(call, NUMBER)
    return Val(total, call.loc, type=NUMBER)


def _extreme(name: str, pick_first: bool) -> None:
    """Register ``min`` (``pick_first``: keep the smaller) or ``max``; ties keep the first."""

    @function(name, varparam=Param("numbers", NUMBER), returns=NUMBER)
    def extreme(args: list[Val], call: Call) -> Val:
        if not args:
            raise call_error(name, "must pass at least one number")
        best = args[0]
        for arg in args[1:]:
            if (arg.raw < best.raw) if pick_first else (arg.raw > best.raw):
                best = arg
        return best


_extreme("min", True)
_extreme("max", False)
