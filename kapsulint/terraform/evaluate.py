"""Expression evaluation as Terraform does it, with Unknown where Terraform knows only at apply.

An :class:`Evaluator` belongs to one module instance and evaluates the adapter's expression
nodes into :class:`~kapsulint.terraform.values.Val` trees with HCL's semantics
(https://github.com/hashicorp/hcl/blob/v2.23.0/hclsyntax/expression.go): operands are converted
to the types operators and functions declare, indexes and attributes that do not exist are
errors, conditionals unify their results' types. Where Terraform reports an error the evaluator
raises :class:`~kapsulint.terraform.errors.EvalError`; ``try``/``can`` catch it, and at the top
(:meth:`Evaluator.eval`) it becomes Unknown, so no rule fires on what Terraform would refuse.
References resolve through the module instance (variables, locals, resources, module outputs).
Every evaluation is bounded by the run's :class:`~kapsulint.terraform.budget.Budget`: each
top-level evaluation is an expression with budgets of its own, and one that runs out is Unknown
with a located note (``evaluation-budget-exceeded``), so no input can make a run hang or fill
the memory.
"""

from __future__ import annotations

from typing import Any, Protocol

from kapsulint.findings import Loc
from kapsulint.terraform import functions, operators
from kapsulint.terraform.access import elements, index_value, iteration_pairs, number
from kapsulint.terraform.budget import Budget, BudgetExceeded, text_bytes
from kapsulint.terraform.convert import conditional, convert, make_list
from kapsulint.terraform.documents import located_result
from kapsulint.terraform.errors import EvalError, InvalidReference
from kapsulint.terraform.functions.names import EXPRESSION_FUNCTIONS, builtin_name
from kapsulint.terraform.numbers import parse_number
from kapsulint.terraform.strings import nfc
from kapsulint.terraform.types import (
    BOOL,
    STRING,
    Dynamic,
    ListType,
    MapType,
    ObjectType,
    SetType,
    TupleType,
    kind_of,
    type_of,
)
from kapsulint.terraform.values import UNKNOWN, Val, plain, unknown_from

__all__ = ["EMPTY_SCOPE", "Evaluator", "Scope", "index_value", "iteration_pairs", "number"]

BUDGET_EXCEEDED = "evaluation-budget-exceeded"
"""The kind of note an expression whose budget ran out leaves (rule KAP015)."""


class Scope:
    """Names bound by ``count``, ``for_each``, ``for`` expressions and templates."""

    __slots__ = ("names", "parent")

    def __init__(self, names: dict[str, Val] | None = None, parent: Scope | None = None) -> None:
        self.names = names or {}
        self.parent = parent

    def lookup(self, name: str) -> Val | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def child(self, names: dict[str, Val]) -> Scope:
        return Scope(names, self)


EMPTY_SCOPE = Scope()


class References(Protocol):
    """Where an evaluator's references lead: the module instance it belongs to.

    The evaluator knows expressions and values; what a name refers to (a variable, a local, a
    resource, a module output) and what a function may read is the module instance's business."""

    def resolve_root(self, root: str, steps: list, loc: Loc, scope: Scope) -> Val: ...

    def resource_attribute(self, instance: Any, steps: list, loc: Loc | None) -> Val: ...

    def function_context(self, path: str) -> Any: ...

    def note(self, kind: str, loc: Loc, message: str) -> None:
        """Record a place the evaluation could not judge (a blind spot of ``kind`` at ``loc``)."""


class Evaluator:
    def __init__(self, instance: References, budget: Budget) -> None:
        self.instance = instance
        self.budget = budget

    def eval(self, node: dict | None, path: str, scope: Scope = EMPTY_SCOPE) -> Val:
        """The value of ``node`` (written in file ``path``); Unknown where Terraform would fail."""
        if node is None:
            return Val(None)
        try:
            return self.eval_strict(node, path, scope)
        except EvalError:
            return Val(UNKNOWN, Loc.of(path, node["p"]))

    def eval_strict(self, node: dict, path: str, scope: Scope = EMPTY_SCOPE) -> Val:
        """The value of ``node``, raising :class:`EvalError` where Terraform reports an error.

        ``node`` is one expression for the budget: Unknown, and a note where it ran out, when
        evaluating it costs more than an expression may (what it reads of locals and variables
        are expressions of their own)."""
        budget = self.budget
        saved = budget.enter()
        try:
            return self._eval(node, path, scope)
        except BudgetExceeded as exceeded:
            loc = Loc.of(path, node["p"])
            self.instance.note(BUDGET_EXCEEDED, exceeded.loc or loc, exceeded.message)
            return Val(UNKNOWN, loc)
        except RecursionError:
            loc = Loc.of(path, node["p"])
            self.instance.note(BUDGET_EXCEEDED, loc, BudgetExceeded("depth", "expression", 0).message)
            return Val(UNKNOWN, loc)
        finally:
            budget.leave(saved)

    def _eval(self, node: dict, path: str, scope: Scope) -> Val:
        budget = self.budget
        budget.steps += 1
        if budget.steps > budget.step_ceiling:
            budget.steps_exceeded()
        handler = _HANDLERS.get(node["t"])
        if handler is None:
            return Val(UNKNOWN, Loc.of(path, node["p"]))
        return handler(self, node, path, scope)

    # -- literals and collections -----------------------------------------------------------

    def _eval_lit(self, node: dict, path: str, scope: Scope) -> Val:
        raw = node["v"]
        if isinstance(raw, str):
            raw = nfc(raw)
        elif isinstance(raw, float) or "num" in node:
            raw = parse_number(node.get("num") or repr(raw))
        heredoc = node.get("heredoc")
        if heredoc is not None:
            return Val(raw, Loc.of(path, node["p"]), origin=(path, heredoc["line"] - 1, heredoc["indent"]))
        return plain(raw, Loc.of(path, node["p"]))

    def _eval_paren(self, node: dict, path: str, scope: Scope) -> Val:
        return self._eval(node["e"], path, scope)

    def _eval_tuple(self, node: dict, path: str, scope: Scope) -> Val:
        items = [self._eval(item, path, scope) for item in node["items"]]
        return self._built(Val(items, Loc.of(path, node["p"])), "this tuple")

    def _built(self, value: Val, what: str) -> Val:
        """``value``, just built, charged to the budget with every part it holds (a part shared
        with another value counts again: what is built can never be larger than what was paid)."""
        self.budget.spend_size(value, value.loc, what)
        return value

    def _eval_object(self, node: dict, path: str, scope: Scope) -> Val:
        result: dict[str, Val] = {}
        keylocs: dict[str, Loc] = {}
        unknown_key: Val | None = None
        marked_key = False
        for key_node, value_node in node["items"]:
            key = self._eval(key_node, path, scope)
            value = self._eval(value_node, path, scope)
            if key_node["t"] == "lit" and key_node["v"] is None:
                # A bare keyword key is its name, as a bare identifier is (HCL's
                # ObjectConsKeyExpr.literalName): {null = 1} has the key "null", {(null) = 1} fails.
                # https://github.com/hashicorp/hcl/blob/v2.23.0/hclsyntax/expression.go
                key = Val("null", key.loc)
            if key.raw is None:
                raise EvalError("Null value as key: Can't use a null value as a key.")
            if key.contains_unknown():
                unknown_key = key
                continue
            text = _object_key(key)
            result[text] = value
            keylocs[text] = Loc.of(path, key_node["p"])
            marked_key = marked_key or bool(key.sensitive)
        loc = Loc.of(path, node["p"])
        if unknown_key is not None:
            return Val(UNKNOWN, loc, sensitive=unknown_key.sensitive)
        built = self._built(Val(result, loc, keylocs=keylocs), "this object")
        # a sensitive key marks the whole object: its keys are part of it (HCL's ObjectConsExpr)
        return built.with_sensitive() if marked_key else built

    # -- templates ----------------------------------------------------------------------------

    def _eval_tmpl(self, node: dict, path: str, scope: Scope) -> Val:
        loc = Loc.of(path, node["p"])
        if node.get("single"):
            return self._eval(node["parts"][0], path, scope)
        pieces = _Rendered(loc)
        sources: list[Val] = []
        segments: list[tuple[int, int, Val]] = []
        known = self._render(node["parts"], path, scope, pieces, sources, segments)
        sensitive = any(s.sensitive for s in sources)
        if not known:
            return Val(UNKNOWN, loc, type=STRING, sensitive=sensitive)
        self.budget.spend(text_bytes(pieces.length), loc, "this template")
        heredoc = node.get("heredoc")
        # the interpolations' (start, end, value) let a YAML scalar that is exactly one of them
        # point where that value was written
        origin = (path, heredoc["line"] - 1, heredoc["indent"], tuple(segments)) if heredoc is not None else None
        return Val(nfc("".join(pieces.parts)), loc, sensitive=sensitive, origin=origin)

    def eval_file_template(self, node: dict, path: str, scope: Scope) -> Val:
        """A ``templatefile()`` body, located like a heredoc that starts on the file's first line;
        part of the expression that calls the function, for the budget."""
        return self._eval({**node, "heredoc": {"line": 1, "indent": 0}}, path, scope)

    def _render(self, parts: list, path: str, scope: Scope, out: _Rendered, sources: list[Val],
                segments: list[tuple[int, int, Val]] | None = None) -> bool:
        """Render ``parts`` into ``out``; False when the text is Unknown (errors still raise)."""
        known = True
        for part in parts:
            if isinstance(part, str):
                out.add(part)
                continue
            kind = part["t"]
            if kind == "tif":
                test = self._eval(part["cond"], path, scope)
                sources.append(test)
                if test.raw is None:
                    raise EvalError("Invalid template if condition: The condition value is null.")
                if test.contains_unknown():
                    return False
                test = _to_bool(test, "Invalid template if condition")
                branch = part["then"] if test.raw else part["else"]
                known = self._render(branch, path, scope, out, sources, segments) and known
            elif kind == "tfor":
                collection = self._eval(part["coll"], path, scope)
                sources.append(collection)
                pairs = _for_pairs(collection, "template")
                if pairs is None:
                    return False
                for key, item in pairs:
                    names = {part["vv"]: item}
                    if part["kv"]:
                        names[part["kv"]] = key
                    known = self._render(part["body"], path, scope.child(names), out, sources, segments) and known
            else:
                value = self._eval(part, path, scope)
                sources.append(value)
                if value.raw is None:
                    raise EvalError("Invalid template interpolation value: The expression result is null. "
                                    "Cannot include a null value in a string template.")
                if value.raw is UNKNOWN:
                    known = False
                    continue
                try:
                    text = convert(value, STRING).raw
                except EvalError:
                    raise EvalError("Invalid template interpolation value: Cannot include the given value "
                                    "in a string template: string required.") from None
                if text is UNKNOWN:
                    known = False
                    continue
                if segments is not None:
                    segments.append((out.length, out.length + len(text), value))
                out.add(text)
            if out.length > self.budget.room():
                self.budget.spend(out.length, out.loc, "this template")
        return known

    # -- references -------------------------------------------------------------------------

    def _eval_var(self, node: dict, path: str, scope: Scope) -> Val:
        name = node["name"]
        bound = scope.lookup(name)
        if bound is not None:
            return bound
        loc = Loc.of(path, node["p"])
        return self.instance.resolve_root(name, [], loc, scope)

    def _eval_attr(self, node: dict, path: str, scope: Scope) -> Val:
        chain = self._reference_chain(node, path, scope)
        if chain is not None:
            root, steps = chain
            return self.instance.resolve_root(root, steps, Loc.of(path, node["p"]), scope)
        target = self._eval(node["obj"], path, scope)
        return self.get_attr(target, node["name"])

    def _eval_index(self, node: dict, path: str, scope: Scope) -> Val:
        chain = self._reference_chain(node, path, scope)
        if chain is not None:
            root, steps = chain
            return self.instance.resolve_root(root, steps, Loc.of(path, node["p"]), scope)
        target = self._eval(node["obj"], path, scope)
        key = self._eval(node["key"], path, scope)
        return index_value(target, key)

    def _reference_chain(self, node: dict, path: str, scope: Scope) -> tuple[str, list[Val | str]] | None:
        """``a.b[k].c`` as (root name, steps) when its root is a module-level name, else None."""
        steps: list[Val | str] = []
        current = node
        while current["t"] in ("attr", "index"):
            if current["t"] == "attr":
                steps.append(current["name"])
            else:
                steps.append(self._eval(current["key"], path, scope))
            current = current["obj"]
        if current["t"] != "var" or scope.lookup(current["name"]) is not None:
            return None
        steps.reverse()
        return current["name"], steps

    def get_attr(self, target: Val, name: str) -> Val:
        if target.raw is UNKNOWN and target.ref is not None and target.ref[1] is None:
            # A whole resource passed around as a value: resolve its attribute now.
            return self.instance.resource_attribute(target.ref[0], [name], target.loc)
        return index_value(target, plain(name), attribute=True)

    def _eval_splat(self, node: dict, path: str, scope: Scope) -> Val:
        target = self._eval(node["obj"], path, scope)
        return self._splat(target, node["ops"], Loc.of(path, node["p"]), path, scope)

    def _splat(self, target: Val, ops: list, loc: Loc, path: str, scope: Scope) -> Val:
        """``ops`` applied to each element of ``target`` (HCL's SplatExpr): a value that is not
        a list, set or tuple is a tuple of itself, or empty when null; a null sequence is an error.
        https://github.com/hashicorp/hcl/blob/v2.23.0/hclsyntax/expression.go"""
        if target.sensitive:
            # HCL's SplatExpr reads the source unmarked and marks the result as a whole
            return self._splat(target.without_sensitive(), ops, loc, path, scope).with_sensitive()
        source_kind = kind_of(target)
        sequence = source_kind in (ListType, SetType, TupleType)
        if target.raw is None:
            if sequence:
                raise EvalError("Splat of null value: Splat expressions (with the * symbol) cannot be applied "
                                "to null sequences.")
            return Val([], loc)
        if not target.known:
            return self._unknown_splat(target, ops, loc, path, scope)
        items = elements(target) if sequence else [target]
        results = [self._splat_each(item, ops, loc, path, scope) for item in items]
        if source_kind is ListType or source_kind is SetType:
            if not results:
                # An empty list's result type is what the traversal gives an Unknown element of
                # the source's element type (HCL's SplatExpr resultTy).
                element = self._splat_each(Val(UNKNOWN, loc, type=target.type.element), ops, loc, path, scope)
                return make_list([], type_of(element), loc=loc)
            return self._built(make_list(results, loc=loc), "this splat expression")
        return self._built(Val(results, loc), "this splat expression")

    def _unknown_splat(self, target: Val, ops: list, loc: Loc, path: str, scope: Scope) -> Val:
        """The splat of an Unknown: Unknown, of the type the steps give its elements' type (a
        list of it for a list or set, a tuple for a tuple); the steps' errors are still errors."""
        source_type = target.type
        if isinstance(source_type, (ListType, SetType)):
            each = self._splat_each(Val(UNKNOWN, loc, type=source_type.element), ops, loc, path, scope)
            return unknown_from(target, loc=loc, type=ListType(type_of(each)))
        if isinstance(source_type, TupleType):
            return unknown_from(target, loc=loc, type=TupleType(
                type_of(self._splat_each(Val(UNKNOWN, loc, type=element), ops, loc, path, scope))
                for element in source_type.elements))
        if source_type is not None and kind_of(target) is not Dynamic:
            # a value that may be null, so its tuple may be empty: only the type of the steps is
            # checked
            self._splat_each(Val(UNKNOWN, loc, type=source_type), ops, loc, path, scope)
        return unknown_from(target, loc=loc)

    def _splat_each(self, item: Val, ops: list, loc: Loc, path: str, scope: Scope) -> Val:
        value = item
        for kind, operand in ops:
            if kind == "attr":
                value = self.get_attr(value, operand)
            elif kind == "splat":  # a splat after the splat: applied to this element's value
                value = self._splat(value, operand, loc, path, scope)
            else:
                value = index_value(value, self._eval(operand, path, scope))
        return value

    # -- operators ----------------------------------------------------------------------------

    def _eval_cond(self, node: dict, path: str, scope: Scope) -> Val:
        then, then_error = self._branch(node["then"], path, scope)
        other, other_error = self._branch(node["else"], path, scope)
        test = self._eval(node["test"], path, scope)
        return conditional(test, then_error or then, other_error or other, Loc.of(path, node["p"]))

    def _branch(self, node: dict, path: str, scope: Scope) -> tuple[Val, EvalError | None]:
        """A conditional's result: HCL evaluates both, and reports only the chosen one's error."""
        try:
            return self._eval(node, path, scope), None
        except InvalidReference:
            raise
        except EvalError as error:
            return Val(UNKNOWN, Loc.of(path, node["p"])), error

    def _eval_op(self, node: dict, path: str, scope: Scope) -> Val:
        loc = Loc.of(path, node["p"])
        args = [self._eval(arg, path, scope) for arg in node["args"]]
        if node["op"] in ("==", "!=") and all(type(arg.raw) in (list, dict) for arg in args):
            self.budget.walk(args[0], loc, "this comparison")  # collections compare element by element
        return operators.apply(node["op"], args, loc)

    def _eval_for(self, node: dict, path: str, scope: Scope) -> Val:
        loc = Loc.of(path, node["p"])
        collection = self._eval(node["coll"], path, scope)
        pairs = _for_pairs(collection.without_sensitive(), "for")
        is_object = node["key"] is not None
        if pairs is None:
            return Val(UNKNOWN, loc, sensitive=collection.sensitive)
        # HCL's ForExpr iterates the collection unmarked; the collection's mark, a sensitive
        # condition or key mark the whole result
        marked = bool(collection.sensitive)
        items: list[Val] = []
        mapping: dict[str, Val] = {}
        keylocs: dict[str, Loc] = {}
        groups: dict[str, list[Val]] = {}
        unknown = False
        for key, item in pairs:
            names = {node["vv"]: item}
            if node["kv"]:
                names[node["kv"]] = key
            inner = scope.child(names)
            if node["cond"] is not None:
                keep = self._eval(node["cond"], path, inner)
                if keep.raw is None:
                    raise EvalError("Condition is null: The value of the 'if' clause must not be null.")
                if keep.contains_unknown():
                    unknown = True
                    continue
                marked = marked or bool(keep.sensitive)
                if not _to_bool(keep, "Invalid 'for' condition").raw:
                    continue
            if not is_object:
                items.append(self._eval(node["value"], path, inner))
                continue
            key_value = self._eval(node["key"], path, inner)
            value = self._eval(node["value"], path, inner)
            if key_value.raw is None:
                raise EvalError("Invalid object key: Key expression in 'for' expression must not produce a null value.")
            if key_value.contains_unknown():
                unknown = True
                continue
            marked = marked or bool(key_value.sensitive)
            text = _object_key(key_value, "Invalid object key")
            keylocs.setdefault(text, key_value.loc or loc)
            if node["group"]:
                groups.setdefault(text, []).append(value)
            elif text in mapping:
                shown = "(sensitive value)" if key_value.sensitive else text
                raise EvalError(f'Duplicate object key: Two different items produced the key "{shown}" in this '
                                "'for' expression. If duplicates are expected, use the ellipsis (...) after "
                                "the value expression to enable grouping by key.")
            else:
                mapping[text] = value
        if unknown:
            return Val(UNKNOWN, loc, sensitive=marked)
        if not is_object:
            built = self._built(Val(items, loc), "this `for` expression")
        else:
            if node["group"]:
                mapping = {k: Val(v, loc) for k, v in groups.items()}
            built = self._built(Val(mapping, loc, keylocs=keylocs), "this `for` expression")
        return built.with_sensitive() if marked else built

    # -- functions ----------------------------------------------------------------------------

    def _eval_call(self, node: dict, path: str, scope: Scope) -> Val:
        loc = Loc.of(path, node["p"])
        name = builtin_name(node["name"], functions.FUNCTIONS)
        if name in EXPRESSION_FUNCTIONS:
            return self._eval_try(name, node, path, scope, loc)
        args = [self._eval(arg, path, scope) for arg in node["args"]]
        if node["expand"] and args:
            spread = args[-1]
            if spread.raw is None:
                raise EvalError("Invalid expanding argument value: The expanding argument (indicated by ...) must not be null.")
            if not spread.known:
                return unknown_from(spread, loc=loc)
            if kind_of(spread) not in (ListType, SetType, TupleType):
                raise EvalError("Invalid expanding argument value: The expanding argument (indicated by ...) "
                                "must be of a tuple, list, or set type.")
            args = args[:-1] + elements(spread)
        if name is None:  # a provider-defined function: only the provider knows
            return Val(UNKNOWN, loc, ref=unknown_from(*args).ref, sensitive=any(a.contains_sensitive() for a in args))
        context = self.instance.function_context(path)
        if name == "templatestring" and node["args"] and node["args"][0]["t"] in _REFERENCES:
            context = _TemplateText(self, context, path)
        result = functions.call(name, args, loc, context, self.budget)
        return located_result(name, args, result, context, loc)

    def _eval_try(self, name: str, node: dict, path: str, scope: Scope, loc: Loc) -> Val:
        """``try`` and ``can``: the first argument that evaluates without an error."""
        can = name == "can"
        if can and len(node["args"]) != 1:
            raise EvalError('Invalid function arguments: function "can" expects 1 argument.')
        if not node["args"]:
            raise EvalError('Not enough function arguments: Function "try" expects at least one argument.')
        for arg in node["args"]:
            try:
                value = self._eval(arg, path, scope)
            except InvalidReference:
                raise
            except EvalError:
                continue
            if value.contains_unknown():
                return Val(UNKNOWN, loc, type=BOOL if can else None)
            return Val(True, loc) if can else value
        if can:
            return Val(False, loc)
        raise EvalError("Error in function call: Call to function \"try\" failed: no expression succeeded.")


# The node kinds the evaluator knows, to their handlers (a dictionary: evaluation's hottest lookup).
_HANDLERS = {
    "lit": Evaluator._eval_lit,
    "paren": Evaluator._eval_paren,
    "tuple": Evaluator._eval_tuple,
    "object": Evaluator._eval_object,
    "tmpl": Evaluator._eval_tmpl,
    "var": Evaluator._eval_var,
    "attr": Evaluator._eval_attr,
    "index": Evaluator._eval_index,
    "splat": Evaluator._eval_splat,
    "cond": Evaluator._eval_cond,
    "op": Evaluator._eval_op,
    "for": Evaluator._eval_for,
    "call": Evaluator._eval_call,
}


# What Terraform accepts as the template of a templatestring call: a reference, not a literal.
_REFERENCES = frozenset({"var", "attr", "index", "splat"})


class _TemplateText:
    """The function context of a ``templatestring`` call: its template is the text it is given,
    rendered with the names it is given and nothing else; Unknown where the text does not parse
    or the rendering fails.
    https://developer.hashicorp.com/terraform/language/functions/templatestring"""

    def __init__(self, evaluator: Evaluator, context: object, path: str) -> None:
        self._evaluator = evaluator
        self._context = context
        self._path = path

    def __getattr__(self, name: str) -> object:
        return getattr(self._context, name)

    def render_template(self, _path: str, text: str, names: dict[str, Val], loc: Loc | None) -> Val:
        from kapsulint.parsing.hcl import HclSyntaxError, parse_expression
        from kapsulint.parsing.template import TemplateSyntaxError, parse_template

        try:
            node = parse_template(text, 1, 1, parse_expression)
            rendered = self._evaluator.eval_file_template(node, self._path, Scope(names))
        except (HclSyntaxError, TemplateSyntaxError, EvalError):
            return Val(UNKNOWN, loc)
        except BudgetExceeded as exceeded:  # the text has no place in a file: the call is the place
            raise BudgetExceeded(exceeded.kind, exceeded.scope, exceeded.limit, loc, "`templatestring()`") from None
        return Val(rendered.raw, loc, type=rendered.type, sensitive=rendered.sensitive)


class _Rendered:
    """A template's text so far, with its length kept (templates can be long; no re-summing), and
    where the template is written (what a budget that runs out while rendering points at)."""

    __slots__ = ("length", "loc", "parts")

    def __init__(self, loc: Loc) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.loc = loc

    def add(self, text: str) -> None:
        self.parts.append(text)
        self.length += len(text)


def _object_key(key: Val, summary: str = "Incorrect key type") -> str:
    try:
        return convert(key, STRING).raw
    except EvalError:
        raise EvalError(f"{summary}: Can't use this value as a key: string required.") from None


def _to_bool(value: Val, summary: str) -> Val:
    try:
        return convert(value, BOOL)
    except EvalError:
        raise EvalError(f"{summary}: The condition expression must be of type bool.") from None


def _for_pairs(collection: Val, what: str) -> list[tuple[Val, Val]] | None:
    """A ``for``'s (key, value) pairs; None when Unknown; EvalError when not iterable."""
    if collection.raw is None:
        raise EvalError(f"Iteration over null value: A null value cannot be used as the collection in a '{what}' expression.")
    if not collection.known or collection.open:
        return None
    if kind_of(collection) not in (ListType, SetType, TupleType, MapType, ObjectType):
        raise EvalError(f"Iteration over non-iterable value: A value of type {type_of(collection)!r} cannot "
                        f"be used as the collection in a '{what}' expression.")
    return iteration_pairs(collection)


