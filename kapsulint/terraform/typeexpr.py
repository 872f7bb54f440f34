"""Variable type constraints: a ``type`` expression read into a type with its ``optional()``
defaults, and a variable's value prepared from it as Terraform prepares it.

- :func:`parse_type_constraint` is HCL's ``typeexpr.TypeConstraintWithDefaults``
  (https://github.com/hashicorp/hcl/blob/v2.23.0/ext/typeexpr/get_type.go) behind Terraform's
  ``decodeVariableType`` (quoted legacy types, bare ``list`` and ``map``, the ``-var`` parsing
  mode: https://github.com/hashicorp/terraform/blob/v1.11.4/internal/configs/named_values.go).
- :meth:`Defaults.apply` is ``typeexpr.Defaults.Apply``
  (https://github.com/hashicorp/hcl/blob/v2.23.0/ext/typeexpr/defaults.go).
- :func:`prepare_default` and :func:`convert_variable` follow ``decodeVariableBlock`` and
  ``prepareFinalInputVariableValue``
  (https://github.com/hashicorp/terraform/blob/v1.11.4/internal/terraform/eval_variable.go):
  defaults are applied to the given value unless it is null, then it is converted; a null
  value of a ``nullable = false`` variable takes the variable's default.

Expression nodes are the parser's (:mod:`kapsulint.parsing`). Defaults inside ``optional()`` are
evaluated by the caller (Terraform evaluates them with no variables and no functions).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from kapsulint.terraform.convert import ConversionError, convert, make_set, unify_values, without_optional
from kapsulint.terraform.errors import EvalError
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
    Type,
    type_of,
)
from kapsulint.terraform.values import UNKNOWN, Val

_INVALID = "Invalid type specification: "
_PRIMITIVES = {"bool": BOOL, "string": STRING, "number": NUMBER}
_COLLECTIONS = {"list": ListType, "set": SetType, "map": MapType}
_ARGUMENT_NEEDED = {
    "list": "The list type constructor requires one argument specifying the element type.",
    "set": "The set type constructor requires one argument specifying the element type.",
    "map": "The map type constructor requires one argument specifying the element type.",
    "object": "The object type constructor requires one argument specifying the attribute types and values as a map.",
    "tuple": "The tuple type constructor requires one argument specifying the element types as a list.",
}


def _marked_as(source: Val, built: Val) -> Val:
    """``built`` (from ``source``'s members and the defaults filled in) with ``source``'s mark on
    every node: a default filled into a sensitive object is sensitive too."""
    return built.with_sensitive(source.sensitive) if source.sensitive else built


class Defaults:
    """The ``optional()`` defaults of one level of a type constraint and of the levels below.

    ``values`` maps an attribute name to its default (already converted to the attribute's
    type); ``children`` maps an attribute name, a tuple index (as text) or ``""`` (the element
    of a list, set or map) to the defaults below it."""

    __slots__ = ("children", "type", "values")

    def __init__(self, ty: Type, values: dict[str, Val] | None = None, children: dict[str, Defaults] | None = None) -> None:
        self.type = ty
        self.values = values or {}
        self.children = children or {}

    def apply(self, value: Val) -> Val:
        """``value`` with the defaults filled in where an attribute is absent or null."""
        raw = value.raw
        if raw is UNKNOWN or raw is None or value.open or not (self.values or self.children):
            return value
        ty = type_of(value)
        if isinstance(raw, list):
            items = []
            for index, item in enumerate(raw):
                child = self._child(index)
                items.append(child.apply(item) if child is not None else item)
            if isinstance(ty, (SetType, ListType)):
                if not items:
                    return value
                unified = unify_values(items)
                if unified is not None:
                    if isinstance(ty, SetType):
                        return make_set(unified, type_of(unified[0]), loc=value.loc, sensitive=value.sensitive)
                    return _marked_as(value, Val(unified, value.loc, type=ListType(type_of(unified[0]))))
            return _marked_as(value, Val(items, value.loc))
        if isinstance(raw, dict):
            members = {}
            for key, item in raw.items():
                child = self._child(key)
                members[key] = child.apply(item) if child is not None else item
            for key, default in self.values.items():
                present = members.get(key)
                if present is None or present.raw is None:
                    child = self.children.get(key)
                    members[key] = child.apply(default) if child is not None else default
            if isinstance(ty, MapType):
                if not members:
                    return value
                keys = sorted(members)
                unified = unify_values([members[key] for key in keys])
                if unified is not None:
                    return _marked_as(value, Val(dict(zip(keys, unified)), value.loc, keylocs=value.keylocs,
                                                 type=MapType(type_of(unified[0]))))
            return _marked_as(value, Val(members, value.loc, keylocs=value.keylocs))
        return value

    def _child(self, key: int | str) -> Defaults | None:
        if isinstance(key, int) and isinstance(self.type, TupleType):
            return self.children.get(str(key))
        if isinstance(key, str) and isinstance(self.type, ObjectType):
            return self.children.get(key)
        return self.children.get("")


class TypeConstraint(NamedTuple):
    """A variable's ``type``: the constraint (object types may mark attributes optional), its
    defaults, and how a ``-var`` or ``TF_VAR_`` string is read: ``"literal"`` (the string
    itself, for primitive types and no ``type``) or ``"hcl"`` (parsed as an expression)."""

    type: Type
    defaults: Defaults | None
    parsing_mode: str

    @property
    def value_type(self) -> Type:
        """The type of the variable's values (no optional attributes)."""
        return without_optional(self.type)


NO_CONSTRAINT = TypeConstraint(DYNAMIC, None, "literal")
"""A variable declared without ``type``."""

DefaultEvaluator = Callable[[dict], Val]


def parse_type_constraint(node: dict, eval_default: DefaultEvaluator) -> TypeConstraint:
    """The type constraint written by the expression ``node``, or :class:`EvalError` with
    Terraform's diagnostic. ``eval_default`` evaluates the default of an ``optional(T, default)``
    (Terraform gives it neither variables nor functions)."""
    if node.get("t") == "lit" and isinstance(node.get("v"), str):
        raise EvalError(_quoted_type_message(node["v"]))
    keyword = _keyword(node)
    if keyword == "list":
        return TypeConstraint(ListType(DYNAMIC), None, "hcl")
    if keyword == "map":
        return TypeConstraint(MapType(DYNAMIC), None, "hcl")
    ty, defaults = _get_type(node, eval_default)
    return TypeConstraint(ty, defaults, "literal" if ty in (STRING, NUMBER, BOOL) else "hcl")


def _quoted_type_message(text: str) -> str:
    head = ("Invalid quoted type constraints: Terraform 0.11 and earlier required type constraints to be "
            "given in quotes, but that form is now deprecated and will be removed in a future version of "
            f'Terraform. Remove the quotes around "{text}"')
    if text == "string":
        return head + "."
    if text in ("list", "map"):
        return head + f" and write {text}(string) instead to explicitly indicate that the {text} elements are strings."
    return ("Invalid legacy variable type hint: To provide a full type expression, remove the surrounding "
            "quotes and give the type expression directly.")


def _keyword(node: dict) -> str:
    """HCL's ``ExprAsKeyword``: the name of a bare single identifier, else ""."""
    return node["name"] if node.get("t") == "var" else ""


def _get_type(node: dict, eval_default: DefaultEvaluator) -> tuple[Type, Defaults | None]:
    keyword = _keyword(node)
    if keyword in _PRIMITIVES:
        return _PRIMITIVES[keyword], None
    if keyword == "any":
        return DYNAMIC, None
    if keyword in _ARGUMENT_NEEDED:
        raise EvalError(_INVALID + _ARGUMENT_NEEDED[keyword])
    if keyword:
        raise EvalError(_INVALID + f'The keyword "{keyword}" is not a valid type specification.')
    if node.get("t") != "call":
        raise EvalError(_INVALID + "A type specification is either a primitive type keyword (bool, number, "
                        "string) or a complex type constructor call, like list(string).")
    name, args = node["name"], node["args"]
    if name in _PRIMITIVES:
        raise EvalError(_INVALID + f'Primitive type keyword "{name}" does not expect arguments.')
    if name == "any":
        raise EvalError(_INVALID + f'Type constraint keyword "{name}" does not expect arguments.')
    if len(args) != 1 and name in _ARGUMENT_NEEDED:
        raise EvalError(_INVALID + _ARGUMENT_NEEDED[name])
    if name in _COLLECTIONS:
        element, element_defaults = _get_type(args[0], eval_default)
        ty = _COLLECTIONS[name](element)
        return ty, Defaults(ty, children={"": element_defaults}) if element_defaults is not None else None
    if name == "object":
        return _object_type(node, eval_default)
    if name == "tuple":
        if args[0].get("t") != "tuple":
            raise EvalError(_INVALID + "Tuple type constructor requires a list of element types.")
        elements, children = [], {}
        for index, item in enumerate(args[0]["items"]):
            element, element_defaults = _get_type(item, eval_default)
            elements.append(element)
            if element_defaults is not None:
                children[str(index)] = element_defaults
        ty = TupleType(elements)
        return ty, Defaults(ty, children=children) if children else None
    if name == "optional":
        raise EvalError(_INVALID + 'Keyword "optional" is valid only as a modifier for object type attributes.')
    raise EvalError(_INVALID + f'Keyword "{name}" is not a valid type constructor.')


def _object_type(node: dict, eval_default: DefaultEvaluator) -> tuple[Type, Defaults | None]:
    argument = node["args"][0]
    if argument.get("t") != "object":
        raise EvalError(_INVALID + "Object type constructor requires a map whose keys are attribute names "
                        "and whose values are the corresponding attribute types.")
    attributes: dict[str, Type] = {}
    optional: list[str] = []
    values: dict[str, Val] = {}
    children: dict[str, Defaults] = {}
    for key, type_node in argument["items"]:
        name = _attribute_name(key)
        if name in attributes:
            raise EvalError(_INVALID + "Object constructor map keys must be unique.")
        default_node = None
        if type_node.get("t") == "call" and type_node["name"] == "optional":
            modifier = type_node["args"]
            if not modifier:
                raise EvalError(_INVALID + "Optional attribute modifier requires the attribute type as its argument.")
            if len(modifier) > 2:
                raise EvalError(_INVALID + "Optional attribute modifier expects at most two arguments: the "
                                "attribute type, and a default value.")
            optional.append(name)
            if len(modifier) == 2:
                default_node = modifier[1]
            type_node = modifier[0]
        attribute, attribute_defaults = _get_type(type_node, eval_default)
        if default_node is not None:
            try:
                values[name] = convert(eval_default(default_node), attribute)
            except ConversionError as error:
                raise EvalError("Invalid default value for optional attribute: This default value is not "
                                f"compatible with the attribute's type constraint: {error}.") from None
        attributes[name] = attribute
        if attribute_defaults is not None:
            children[name] = attribute_defaults
    ty = ObjectType(attributes, optional)
    return ty, Defaults(ty, values, children) if values or children else None


def _attribute_name(key: dict) -> str:
    """An object constructor key that is a bare attribute name (``a``, not ``"a"``).

    The parser gives both as a string literal; a bare name spans exactly its own characters."""
    if key.get("t") == "lit" and isinstance(key.get("v"), str):
        line, column, end_line, end_column = key["p"]
        if line == end_line and end_column - column == len(key["v"]):
            return key["v"]
    if key.get("t") == "var":
        return key["name"]
    raise EvalError(_INVALID + "Object constructor map keys must be attribute names.")


# ---------------------------------------------------------------------------------------------
# a variable's value


def prepare_default(default: Val, constraint: TypeConstraint, nullable: bool = True) -> Val:
    """A variable's ``default`` as Terraform keeps it when it reads the declaration: its type
    defaults applied (unless null) and converted, or :class:`EvalError`."""
    if constraint.defaults is not None and default.raw is not None:
        default = constraint.defaults.apply(default)
    try:
        default = convert(default, constraint.type)
    except ConversionError as error:
        raise EvalError("Invalid default value for variable: This default value is not compatible with the "
                        f"variable's type constraint: {error}.") from None
    if not nullable and default.raw is None:
        raise EvalError("Invalid default value for variable: A null default value is not valid when nullable=false.")
    return default


def convert_variable(
    given: Val | None,
    constraint: TypeConstraint,
    *,
    name: str,
    default: Val | None = None,
    nullable: bool = True,
    source: str | None = None,
) -> Val:
    """The value of ``var.<name>``: ``given`` (None when it is not set at all) with the type's
    defaults applied unless it is null, converted to the constraint; a null value of a
    non-nullable variable takes ``default`` (as :func:`prepare_default` returned it).

    ``source`` says where ``given`` was set, for the message (``'set using -var="x=..."'``);
    errors are :class:`EvalError` with Terraform's summary and detail."""
    if default is not None:
        try:
            default = convert(default, constraint.type)
        except ConversionError as error:
            raise EvalError(f'Invalid default value for module argument: The default value for variable "{name}" '
                            f"is incompatible with its type constraint: {error}.") from None
    if given is None:
        if default is None:
            raise EvalError(f'Required variable not set: The variable "{name}" is required, but is not set.')
        given = default
    if constraint.defaults is not None and given.raw is not None:
        given = constraint.defaults.apply(given)
    where = f"var.{name} {source}" if source else f"var.{name}"
    try:
        value = convert(given, constraint.type)
    except ConversionError as error:
        if source:
            raise EvalError(f"Invalid value for input variable: Unsuitable value for {where}: {error}.") from None
        raise EvalError(f"Invalid value for input variable: The given value is not suitable for {where}: {error}.") from None
    if value.raw is None and not nullable:
        if default is None:
            raise EvalError(f"Required variable not set: Unsuitable value for {where}: required variable may not "
                            "be set to null.")
        return default
    return value
