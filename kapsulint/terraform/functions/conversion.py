"""Type conversion and sensitivity functions: ``tostring``, ``tonumber``, ``tobool``, ``tolist``,
``toset``, ``tomap``, ``sensitive``, ``nonsensitive``, ``issensitive``, ``ephemeralasnull``.

As Terraform declares them in
https://github.com/hashicorp/terraform/blob/v1.11.4/internal/lang/funcs/conversion.go
(``MakeToFunc``, ``EphemeralAsNullFunc``) and
https://github.com/hashicorp/terraform/blob/v1.11.4/internal/lang/funcs/sensitive.go.
Every parameter takes null, Unknown and marked values: the ``to*`` functions check the conversion from the
argument's type first (an Unknown argument of a type that cannot convert is still an error),
then convert the value with their own error messages.
"""

from __future__ import annotations

from kapsulint.terraform.convert import (
    can_convert,
    convert,
    dynamic_replace,
    friendly_name,
    go_quote,
    mismatch_message,
)
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.functions.registry import Call, Param, function
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

# go-cty's AllowMarked: the marks reach the implementation, which decides the result's marks
_ANY = Param("v", DYNAMIC, allow_null=True, allow_unknown=True, allow_marked=True)
_VALUE = Param("value", DYNAMIC, allow_null=True, allow_unknown=True, allow_marked=True)
_MARKED = Param("value", DYNAMIC, allow_null=True, allow_unknown=True, allow_marked=True)


def _argument_error(message: str) -> EvalError:
    return EvalError(f'Invalid function argument: Invalid value for "v" parameter: {message}.')


def _make_to(name: str, want: Type) -> None:
    """Register ``name`` as Terraform's ``MakeToFunc(want)``."""

    def check(value: Val) -> Type:
        got = type_of(value) if not value.open else DYNAMIC
        if got == want or can_convert(got, want):
            return want
        if isinstance(got, TupleType) and isinstance(want, TupleType):
            raise _argument_error(f"incompatible tuple type for conversion: {mismatch_message(got, want)}")
        if isinstance(got, ObjectType) and isinstance(want, ObjectType):
            raise _argument_error(f"incompatible object type for conversion: {mismatch_message(got, want)}")
        raise _argument_error(f"cannot convert {friendly_name(got)} to {friendly_name(want, True)}")

    def returns(args: list[Val]) -> Type:
        check(args[0])
        return dynamic_replace(type_of(args[0]), want)

    @function(name, _ANY, returns=returns)
    def to_type(args: list[Val], call: Call) -> Val:
        value = args[0]
        check(value)
        if value.raw is UNKNOWN or value.open:
            return Val(UNKNOWN, call.loc, type=dynamic_replace(type_of(value), want), ref=value.ref,
                       sensitive=value.contains_sensitive())
        try:
            return convert(value, want)
        except EvalError:
            got = type_of(value)
            if value.contains_sensitive():
                raise _argument_error(f"cannot convert this sensitive {friendly_name(got)} to {friendly_name(want, True)}") from None
            if got == STRING and want == BOOL:
                raise _argument_error(f'cannot convert {go_quote(value.raw)} to bool; only the strings "true" or '
                                      '"false" are allowed') from None
            if got == STRING and want == NUMBER:
                raise _argument_error(f"cannot convert {go_quote(value.raw)} to number; given string must be a "
                                      "decimal representation of a number") from None
            raise _argument_error(f"cannot convert {friendly_name(got)} to {friendly_name(want, True)}") from None


_make_to("tostring", STRING)
_make_to("tonumber", NUMBER)
_make_to("tobool", BOOL)
_make_to("toset", SetType(DYNAMIC))
_make_to("tolist", ListType(DYNAMIC))
_make_to("tomap", MapType(DYNAMIC))


def _same_type(args: list[Val]) -> Type:
    return type_of(args[0])


@function("sensitive", _MARKED, returns=_same_type, handles_marks=True)
def sensitive(args: list[Val], call: Call) -> Val:
    if call.context is not None:
        call.context.record_sensitive(args[0])
    return args[0].with_sensitive()


@function("nonsensitive", _MARKED, returns=_same_type, handles_marks=True)
def nonsensitive(args: list[Val], call: Call) -> Val:
    """The mark of the value as a whole goes; the marks of its parts stay (Terraform 1.11:
    ``nonsensitive(sensitive([sensitive("a"), "b"]))`` is ``[(sensitive value), "b"]``)."""
    return args[0].without_sensitive()


@function("issensitive", _MARKED, returns=BOOL, handles_marks=True)
def issensitive(args: list[Val], call: Call) -> Val:
    value = args[0]
    if value.sensitive:
        return Val(True, call.loc, type=BOOL)
    if value.raw is UNKNOWN:
        return Val(UNKNOWN, call.loc, type=BOOL)
    return Val(False, call.loc, type=BOOL)


@function("ephemeralasnull", _VALUE, returns=_same_type)
def ephemeralasnull(args: list[Val], call: Call) -> Val:
    """kapsulint reads no ephemeral resource or variable, so no part of a value is ephemeral."""
    return args[0]
