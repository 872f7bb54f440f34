"""Terraform's built-in functions, each declared with its parameters as go-cty declares them.

A function is registered with :func:`function`: its name, its parameters (a type each, and
whether null or Unknown may be passed), an optional variadic parameter and its return type. The
registry does what go-cty's ``function.Function.Call`` does before and after the implementation
(https://github.com/zclconf/go-cty/blob/v1.16.2/cty/function/function.go): it checks the number
of arguments, refuses null where a parameter does not allow it, converts each argument to its
parameter's type, returns an Unknown of the return type when an argument is not wholly known
and the parameter does not take Unknown, and marks the result sensitive when an argument is.

Marks follow go-cty's ``Call``: a parameter that does not take marked values has its argument
unmarked deep and the whole result marked when any part of it was marked; a parameter that
takes them (``allow_marked``, go-cty's ``AllowMarked``) reaches the implementation as it is,
which keeps the marks of the parts it returns (``concat``, ``merge``, ``lookup``...), and a mark on
the argument as a whole marks the whole result. The few functions that decide their result's
marks themselves (``sensitive``, ``nonsensitive``, ``issensitive``) say so with ``handles_marks``.
A call that fails on a sensitive argument does not repeat it: its error keeps Terraform's summary
and withholds the reason, which may quote the value (Terraform's own ``cidrhost``, ``formatdate``
or ``parseint`` errors print it); a parameter that takes marked values leaves its messages to the
implementation, which never quotes a marked value (``tonumber``: "cannot convert this sensitive
string to number").

Implementations take ``(args, call)`` and return a :class:`~kapsulint.terraform.values.Val`; they raise
:class:`~kapsulint.terraform.errors.EvalError` with Terraform's message where Terraform fails.
Any other exception is an internal failure: the call's value is Unknown, never a crash.

Every call is charged to the run's :class:`~kapsulint.terraform.budget.Budget` (``call.budget``):
a step per element of the arguments it walks, and the size of the value it returns. A function
whose result can be much larger than its arguments (``join``, ``range``, ``setproduct``,
``format`` widths...) charges its estimate before it builds anything.

The modules beside this one register their functions when imported; the package imports them all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, Protocol

from kapsulint.findings import Loc
from kapsulint.terraform.budget import NODE_BYTES, Budget, size_of
from kapsulint.terraform.convert import convert
from kapsulint.terraform.encode import ContainsUnknown
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.functions.names import unknown_function
from kapsulint.terraform.numbers import Unrepresentable
from kapsulint.terraform.strings import nfc
from kapsulint.terraform.types import DYNAMIC, Type
from kapsulint.terraform.values import UNKNOWN, Val
from kapsulint.text import lazy_pattern


class Param(NamedTuple):
    """One parameter: its type (DYNAMIC takes any value unconverted) and what it accepts."""

    name: str
    type: Type = DYNAMIC
    allow_null: bool = False
    allow_unknown: bool = False
    allow_marked: bool = False  # the function reads the argument's sensitive mark itself


class Context(Protocol):
    """What the few functions that read files or render templates need from their caller."""

    def base_directory(self) -> str:
        """The directory relative paths are resolved against (the root module's)."""

    def module_directory(self) -> str:
        """``path.module`` of the calling module."""

    def read_file(self, path: str) -> str | None:
        """The text of a file of the scan, or None when it cannot be read."""

    def render_template(self, path: str, text: str, names: dict[str, Val], loc: Loc | None) -> Val:
        """``templatefile``: the template ``text`` (read from ``path``) rendered with ``names``."""

    def note(self, kind: str, loc: Loc, message: str) -> None:
        """Record a place kapsulint could not judge (a blind spot of ``kind`` at ``loc``)."""

    def record_sensitive(self, value: Val) -> None:
        """Record that ``value`` was made sensitive (``sensitive()``), so no report prints it."""


class Call(NamedTuple):
    """Where a function is called from: its location, the caller's context and the budget the
    call is charged to."""

    name: str
    loc: Loc | None
    context: Context | None
    budget: Budget

    @property
    def subject(self) -> str:
        """The call as a budget's note names it."""
        return f"`{self.name}()`"

    def ensure(self, amount: int) -> None:
        """BudgetExceeded unless ``amount`` bytes can still be built by this call: a builder
        asks before it builds (what it returns is charged once built)."""
        if amount > self.budget.room():
            self.budget.spend(amount, self.loc, self.subject)

    def room_for(self, value: Val) -> None:
        """:meth:`ensure` room for a value the size of ``value``."""
        room = self.budget.room()
        if size_of(value, room + 1) > room:
            self.budget.spend(room + 1, self.loc, self.subject)


Implementation = Callable[[list[Val], Call], Val]
ReturnType = Type | Callable[[list[Val]], Type]


class Function(NamedTuple):
    name: str
    params: tuple[Param, ...]
    varparam: Param | None
    returns: ReturnType
    implementation: Implementation
    handles_marks: bool = False  # the implementation alone decides the result's marks


FUNCTIONS: dict[str, Function] = {}


def function(
    name: str, *params: Param, varparam: Param | None = None, returns: ReturnType = DYNAMIC,
    handles_marks: bool = False,
) -> Callable[[Implementation], Implementation]:
    """Register ``name`` with go-cty's parameter semantics (see the module docstring)."""

    def register(implementation: Implementation) -> Implementation:
        FUNCTIONS[name] = Function(name, params, varparam, returns, implementation, handles_marks)
        return implementation

    return register


def call(name: str, args: list[Val], loc: Loc | None = None, context: Context | None = None,
         budget: Budget | None = None) -> Val:
    """The value of ``name(args...)``: Terraform's result, Unknown, or :class:`EvalError`;
    :class:`~kapsulint.terraform.budget.BudgetExceeded` when ``budget`` (by default one of the
    default limits for this call alone) runs out."""
    spec = FUNCTIONS.get(name)
    if spec is None:
        raise unknown_function(name, FUNCTIONS)
    if budget is None:
        budget = Budget()
        budget.enter()
    here = Call(name, loc, context, budget)
    params = _params_for(spec, len(args))
    marked, unknown = _walk(args, budget, here)
    converted: list[Val] = []
    wait = False
    for param, arg, has_unknown in zip(params, args, unknown):
        if arg.raw is None and not param.allow_null:
            raise argument_error(param.name, "argument must not be null")
        if not param.allow_unknown and has_unknown:
            wait = True
            converted.append(arg)
            continue
        if param.type is not DYNAMIC and arg.raw is not None:
            try:
                arg = convert(arg, param.type)
            except EvalError as error:
                raise argument_error(param.name, str(error)) from None
        converted.append(arg)
    sensitive = not spec.handles_marks and any(
        arg.sensitive if param.allow_marked else is_marked for param, arg, is_marked in zip(params, args, marked))
    if wait:
        # the resource an Unknown came from travels on, so a rule can follow
        # ``element(split("/", scaleway_lb_ip.x.id), 1)`` back to that resource
        refs = {arg.ref for arg in args if arg.ref is not None}
        return Val(UNKNOWN, loc, type=_return_type(spec, converted), sensitive=sensitive,
                   ref=refs.pop() if len(refs) == 1 else None)
    try:
        result = spec.implementation(converted, here)
    except EvalError as error:
        if any(not param.allow_marked and is_marked for param, is_marked in zip(params, marked)):
            raise withheld(error) from None
        raise
    except (ArithmeticError, LookupError, TypeError, ValueError, AttributeError, RecursionError,
            Unrepresentable, ContainsUnknown):
        # kapsulint's own limits (an infinity, an Unknown deep inside): it does not know the value
        return Val(UNKNOWN, loc, sensitive=sensitive)
    if isinstance(result.raw, str) and nfc(result.raw) is not result.raw:
        result = Val(nfc(result.raw), result.loc, sensitive=result.sensitive, type=result.type, origin=result.origin)
    if sensitive:
        result = result.with_sensitive()
    if type(result.raw) is str:
        budget.spend(NODE_BYTES + len(result.raw), loc, here.subject)
    elif type(result.raw) is list or type(result.raw) is dict:
        budget.spend_size(result, loc, here.subject)
    return result


_SENSITIVE_SAID = ("(sensitive value)", "this sensitive")
_REASON = lazy_pattern(r'^(Invalid function argument: Invalid value for "[^"]*" parameter: |'
                     r'Error in function call: Call to function "[^"]*" failed: )')


def withheld(error: EvalError) -> EvalError:
    """``error`` of a call given a sensitive argument, its reason withheld unless it already
    says the value is sensitive (as Terraform's ``base64decode`` and ``tonumber`` do)."""
    message = str(error)
    if any(said in message for said in _SENSITIVE_SAID):
        return error
    match = _REASON.match(message)
    head = match.group(1) if match else message.split(": ", 1)[0] + ": "
    return EvalError(f"{head}(the reason is withheld: an argument is sensitive).")


def argument_error(parameter: str, message: str) -> EvalError:
    """go-cty's ``function.NewArgError`` about ``parameter``, as HCL reports it."""
    return EvalError(f'Invalid function argument: Invalid value for "{parameter}" parameter: {message}.')


def call_error(name: str, message: str) -> EvalError:
    """Any other failure of function ``name``, as HCL reports it ("Error in function call")."""
    return EvalError(f'Error in function call: Call to function "{name}" failed: {message}.')


def _params_for(spec: Function, count: int) -> list[Param]:
    fixed = len(spec.params)
    if count < fixed:
        missing = spec.params[count].name
        least = "at least " if spec.varparam is not None else ""
        raise EvalError(f'Not enough function arguments: Function "{spec.name}" expects {least}{fixed} argument(s). '
                        f'Missing value for "{missing}".')
    if count > fixed and spec.varparam is None:
        raise EvalError(f'Too many function arguments: Function "{spec.name}" expects only {fixed} argument(s).')
    return list(spec.params) + [spec.varparam] * (count - fixed)  # type: ignore[list-item]


_STEPS_CHUNK = 4096


def _walk(args: list[Val], budget: Budget, here: Call) -> tuple[list[bool], list[bool]]:
    """Whether any part of each argument is marked sensitive (go-cty then marks the whole
    result), and whether any part is Unknown (an Unknown node or an open object), the elements
    walked charged as steps to ``budget``: converting the arguments and looking for Unknown parts
    walks them all, and a shared part is walked each time it appears."""
    marked = []
    unknown = []
    walked = 0
    for value in args:
        found = False
        unknown_found = False
        stack = [value]
        pop, extend = stack.pop, stack.extend
        while stack:
            current = pop()
            walked += 1
            if walked >= _STEPS_CHUNK:
                _charge_steps(budget, walked, here)
                walked = 0
            if current.sensitive:
                found = True
            if current.open:
                unknown_found = True
            raw = current.raw
            if type(raw) is list:
                extend(raw)
            elif type(raw) is dict:
                extend(raw.values())
            elif raw is UNKNOWN:
                unknown_found = True
        marked.append(found)
        unknown.append(unknown_found)
    _charge_steps(budget, walked, here)
    return marked, unknown


def _charge_steps(budget: Budget, count: int, here: Call) -> None:
    budget.steps += count
    if budget.steps > budget.step_ceiling:
        budget.steps_exceeded(here.loc, here.subject)


def _return_type(spec: Function, args: list[Val]) -> Type:
    if isinstance(spec.returns, Type):
        return spec.returns
    try:
        return spec.returns(args)
    except Exception:
        return DYNAMIC

