"""Function names as Terraform resolves them: the ``core::`` namespace, and what it says of a name
it does not know.

Terraform 1.8 and later offer every built-in function under its own name and under
``core::NAME`` too; any other namespace but ``provider::`` is refused, as is a ``core::`` name
that is not a built-in
(https://github.com/hashicorp/terraform/blob/v1.11.4/internal/lang/functions.go, ``Functions``;
https://github.com/hashicorp/terraform/blob/v1.11.4/internal/lang/eval.go,
``checkForUnknownFunctionDiags``). A name that is not a function gets HCL's message, which
suggests a function whose name is less than three edits away
(https://github.com/hashicorp/hcl/blob/v2.23.0/hclsyntax/didyoumean.go). HCL takes the first such
name in the order of a Go map, which changes from run to run; kapsulint takes the nearest, the
first in alphabetical order among equals, so its message stays the same.
"""

from __future__ import annotations

from collections.abc import Collection

from kapsulint.terraform.errors import EvalError

CORE_NAMESPACE = "core::"
PROVIDER_NAMESPACE = "provider::"
EXPRESSION_FUNCTIONS = frozenset({"try", "can"})
"""The built-ins whose arguments are expressions, which the evaluator calls itself (HCL's tryfunc)."""
_SUGGESTION_DISTANCE = 3


def builtin_name(name: str, functions: Collection[str]) -> str | None:
    """The built-in function ``name`` calls (``core::upper`` calls ``upper``), given the names of
    the ``functions`` table; None for a provider function; :class:`EvalError` for a namespace
    Terraform refuses."""
    if "::" not in name:
        return name
    if name.startswith(PROVIDER_NAMESPACE):
        return None
    bare = name.removeprefix(CORE_NAMESPACE)
    if name.startswith(CORE_NAMESPACE) and (bare in functions or bare in EXPRESSION_FUNCTIONS):
        return bare
    namespace = name.split("::", 1)[0]
    raise EvalError(f'Unknown provider function: The function namespace "{namespace}" is not valid. Provider '
                    'function calls must use the "provider::" namespace prefix.')


def unknown_function(name: str, functions: Collection[str]) -> EvalError:
    """HCL's error for a call of ``name``, which is not in the ``functions`` table, with its
    suggestion."""
    builtins = {*functions, *EXPRESSION_FUNCTIONS}
    found = suggestion(name, {*builtins, *(CORE_NAMESPACE + builtin for builtin in builtins)})
    hint = f' Did you mean "{found}"?' if found else ""
    return EvalError(f'Call to unknown function: There is no function named "{name}".{hint}')


def suggestion(given: str, candidates: Collection[str], *, first_in_order: bool = False) -> str | None:
    """The name HCL and Terraform suggest for ``given`` (``didyoumean.NameSuggestion``): one
    less than three edits away. Terraform takes the first such candidate in its order, which for
    a Go map changes from run to run; kapsulint then takes the nearest, the first in alphabetical
    order among equals (``first_in_order`` takes the first in the order given, where Terraform
    sorts the candidates itself)."""
    close = [(distance, candidate) for candidate in (candidates if first_in_order else sorted(candidates))
             if (distance := _edit_distance(given, candidate)) < _SUGGESTION_DISTANCE]
    if not close:
        return None
    return close[0][1] if first_in_order else min(close)[1]


def _edit_distance(given: str, candidate: str) -> int:
    """The Levenshtein distance of two names (one insertion, deletion or substitution each)."""
    previous = list(range(len(candidate) + 1))
    for row, letter in enumerate(given, start=1):
        current = [row]
        for column, other in enumerate(candidate, start=1):
            current.append(min(previous[column] + 1, current[column - 1] + 1,
                               previous[column - 1] + (letter != other)))
        previous = current
    return previous[-1]
