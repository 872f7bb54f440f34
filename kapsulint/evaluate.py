"""Expression evaluation, with Unknown where Terraform would only know at apply time.

An :class:`Evaluator` belongs to one module instance and evaluates the adapter's expression
nodes into :class:`~kapsulint.values.Val` trees. References resolve through the module instance
(variables, locals, resources, module outputs); anything it cannot know is Unknown, and Unknown
propagates. Each module instance has a step budget so no input can make a run hang.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kapsulint.findings import Loc
from kapsulint.values import UNKNOWN, Val, unknown_from

if TYPE_CHECKING:
    from kapsulint.instances import ModuleInstance

STEP_BUDGET = 200_000
MAX_VALUE_SIZE = 100_000


class BudgetExceeded(Exception):
    """Raised inside evaluation when a module instance used up its budget."""


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


class Evaluator:
    def __init__(self, instance: ModuleInstance) -> None:
        self.instance = instance
        self.steps = 0

    def eval(self, node: dict | None, path: str, scope: Scope = EMPTY_SCOPE) -> Val:
        """The value of ``node`` (written in file ``path``); Unknown when past the budget."""
        if node is None:
            return Val(None)
        try:
            return self._eval(node, path, scope)
        except BudgetExceeded:
            return Val(UNKNOWN, Loc.of(path, node["p"]))
        except RecursionError:
            return Val(UNKNOWN, Loc.of(path, node["p"]))

    def _eval(self, node: dict, path: str, scope: Scope) -> Val:
        self.steps += 1
        if self.steps > STEP_BUDGET:
            raise BudgetExceeded
        handler = _HANDLERS.get(node["t"])
        if handler is None:
            return Val(UNKNOWN, Loc.of(path, node["p"]))
        return handler(self, node, path, scope)

    # -- literals and collections -----------------------------------------------------------

    def _eval_lit(self, node: dict, path: str, scope: Scope) -> Val:
        value = Val(node["v"], Loc.of(path, node["p"]))
        heredoc = node.get("heredoc")
        if heredoc is not None:
            value.origin = (path, heredoc["line"] - 1, heredoc["indent"])
        return value

    def _eval_paren(self, node: dict, path: str, scope: Scope) -> Val:
        return self._eval(node["e"], path, scope)

    def _eval_tuple(self, node: dict, path: str, scope: Scope) -> Val:
        items = [self._eval(item, path, scope) for item in node["items"]]
        return Val(items, Loc.of(path, node["p"]))

    def _eval_object(self, node: dict, path: str, scope: Scope) -> Val:
        result: dict[str, Val] = {}
        keylocs: dict[str, Loc] = {}
        open_keys = False
        for key_node, value_node in node["items"]:
            key = self._eval(key_node, path, scope)
            if not key.known:
                open_keys = True
                continue
            text = key.text()
            if text is None:
                continue
            result[text] = self._eval(value_node, path, scope)
            keylocs[text] = Loc.of(path, key_node["p"])
        return Val(result, Loc.of(path, node["p"]), keylocs=keylocs, open=open_keys)

    # -- templates ----------------------------------------------------------------------------

    def _eval_tmpl(self, node: dict, path: str, scope: Scope) -> Val:
        loc = Loc.of(path, node["p"])
        if node.get("single"):
            return self._eval(node["parts"][0], path, scope)
        pieces = _Rendered()
        sources: list[Val] = []
        segments: list[tuple[int, int, Val]] = []
        if not self._render(node["parts"], path, scope, pieces, sources, segments):
            return unknown_from(*sources, loc=loc)
        value = Val("".join(pieces.parts), loc, sensitive=any(s.sensitive for s in sources))
        heredoc = node.get("heredoc")
        if heredoc is not None:
            # the interpolations' (start, end, value) let a YAML scalar that is exactly one of
            # them point where that value was written (design.md §4)
            value.origin = (path, heredoc["line"] - 1, heredoc["indent"], tuple(segments))
        return value

    def eval_file_template(self, node: dict, path: str, scope: Scope) -> Val:
        """A ``templatefile()`` body, located like a heredoc that starts on the file's first line."""
        return self.eval({**node, "heredoc": {"line": 1, "indent": 0}}, path, scope)

    def _render(self, parts: list, path: str, scope: Scope, out: _Rendered, sources: list[Val],
                segments: list[tuple[int, int, Val]] | None = None) -> bool:
        for part in parts:
            if isinstance(part, str):
                out.add(part)
                continue
            kind = part["t"]
            if kind == "tif":
                test = self._eval(part["cond"], path, scope)
                sources.append(test)
                if not test.known or not isinstance(test.raw, bool) and test.text() not in ("true", "false"):
                    return False
                branch = part["then"] if test.is_true() else part["else"]
                if not self._render(branch, path, scope, out, sources, segments):
                    return False
            elif kind == "tfor":
                collection = self._eval(part["coll"], path, scope)
                sources.append(collection)
                pairs = iteration_pairs(collection)
                if pairs is None:
                    return False
                for key, item in pairs:
                    names = {part["vv"]: item}
                    if part["kv"]:
                        names[part["kv"]] = key
                    if not self._render(part["body"], path, scope.child(names), out, sources, segments):
                        return False
            else:
                value = self._eval(part, path, scope)
                sources.append(value)
                text = value.text()
                if not value.known or text is None:
                    return False
                if segments is not None:
                    segments.append((out.length, out.length + len(text), value))
                out.add(text)
            if out.length > MAX_VALUE_SIZE * 10:
                return False
        return True

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
        if isinstance(target.raw, list):
            return Val(UNKNOWN, target.loc)
        return target.get(name)

    def _eval_splat(self, node: dict, path: str, scope: Scope) -> Val:
        target = self._eval(node["obj"], path, scope)
        loc = Loc.of(path, node["p"])
        if not target.known:
            return unknown_from(target, loc=loc)
        if target.is_null:
            return Val([], loc)
        items = target.elements() if target.is_list else [target]
        if isinstance(target.raw, dict):
            items = [target]
        results = []
        for item in items:
            value = item
            for kind, operand in node["ops"]:
                if kind == "attr":
                    value = self.get_attr(value, operand)
                else:
                    value = index_value(value, self._eval(operand, path, scope))
            results.append(value)
        return Val(results, loc)

    # -- operators ----------------------------------------------------------------------------

    def _eval_cond(self, node: dict, path: str, scope: Scope) -> Val:
        test = self._eval(node["test"], path, scope)
        if not test.known:
            return unknown_from(test, loc=Loc.of(path, node["p"]))
        if test.is_true():
            return self._eval(node["then"], path, scope)
        if test.is_false():
            return self._eval(node["else"], path, scope)
        return Val(UNKNOWN, Loc.of(path, node["p"]))

    def _eval_op(self, node: dict, path: str, scope: Scope) -> Val:
        from kapsulint.operators import apply_operator

        loc = Loc.of(path, node["p"])
        operator = node["op"]
        if operator in ("&&", "||"):
            left = self._eval(node["args"][0], path, scope)
            if left.known and operator == "&&" and left.is_false():
                return Val(False, loc)
            if left.known and operator == "||" and left.is_true():
                return Val(True, loc)
            right = self._eval(node["args"][1], path, scope)
            return apply_operator(operator, [left, right], loc)
        args = [self._eval(arg, path, scope) for arg in node["args"]]
        return apply_operator(operator, args, loc)

    def _eval_for(self, node: dict, path: str, scope: Scope) -> Val:
        loc = Loc.of(path, node["p"])
        collection = self._eval(node["coll"], path, scope)
        pairs = iteration_pairs(collection)
        if pairs is None:
            return unknown_from(collection, loc=loc)
        is_object = node["key"] is not None
        items: list[Val] = []
        mapping: dict[str, Val] = {}
        keylocs: dict[str, Loc] = {}
        groups: dict[str, list[Val]] = {}
        open_keys = False
        for key, item in pairs:
            names = {node["vv"]: item}
            if node["kv"]:
                names[node["kv"]] = key
            inner = scope.child(names)
            if node["cond"] is not None:
                keep = self._eval(node["cond"], path, inner)
                if not keep.known:
                    if is_object:
                        open_keys = True
                        continue
                    return unknown_from(keep, loc=loc)
                if not keep.is_true():
                    continue
            value = self._eval(node["value"], path, inner)
            if not is_object:
                items.append(value)
                continue
            key_value = self._eval(node["key"], path, inner)
            text = key_value.text()
            if not key_value.known or text is None:
                open_keys = True
                continue
            keylocs.setdefault(text, key_value.loc or loc)
            if node["group"]:
                groups.setdefault(text, []).append(value)
            else:
                mapping[text] = value
        if not is_object:
            return Val(items, loc)
        if node["group"]:
            mapping = {k: Val(v, loc) for k, v in groups.items()}
        return Val(mapping, loc, keylocs=keylocs, open=open_keys)

    # -- functions ----------------------------------------------------------------------------

    def _eval_call(self, node: dict, path: str, scope: Scope) -> Val:
        from kapsulint.functions import call_function

        loc = Loc.of(path, node["p"])
        name = node["name"]
        if name in ("try", "can"):
            return self._eval_try(node, path, scope, loc)
        args = [self._eval(arg, path, scope) for arg in node["args"]]
        if node["expand"] and args:
            spread = args[-1]
            if not spread.known or not spread.is_list:
                return unknown_from(spread, loc=loc)
            args = args[:-1] + spread.elements()
        return call_function(name, args, loc, self, path)

    def _eval_try(self, node: dict, path: str, scope: Scope, loc: Loc) -> Val:
        """``try`` and ``can``: a reference that resolves to null through a missing key fails."""
        for arg in node["args"]:
            value = self._eval(arg, path, scope)
            if not value.known:
                return unknown_from(value, loc=loc)
            if value.raw is not None or arg["t"] not in ("attr", "index"):
                return Val(True, loc) if node["name"] == "can" else value
            if node["name"] == "can":
                return Val(False, loc)
        return Val(UNKNOWN, loc)


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


class _Rendered:
    """A template's text so far, with its length kept (templates can be long; no re-summing)."""

    __slots__ = ("parts", "length")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.length = 0

    def add(self, text: str) -> None:
        self.parts.append(text)
        self.length += len(text)


def iteration_pairs(collection: Val) -> list[tuple[Val, Val]] | None:
    """(key, value) pairs of a list, set or object, in Terraform's order; None when Unknown."""
    if not collection.known or collection.open:
        return None
    if isinstance(collection.raw, list):
        return [(Val(i), item) for i, item in enumerate(collection.raw)]
    if isinstance(collection.raw, dict):
        return [(Val(k, collection.key_loc(k)), collection.raw[k]) for k in sorted(collection.raw)]
    if collection.raw is None:
        return []
    return None


def index_value(target: Val, key: Val) -> Val:
    if not target.known:
        return unknown_from(target)
    if not key.known:
        return unknown_from(target, key)
    if isinstance(target.raw, list):
        if isinstance(key.raw, (int, float)) or (isinstance(key.raw, str) and key.raw.isdigit()):
            index = int(key.raw)
            if 0 <= index < len(target.raw):
                return target.raw[index]
            return Val(UNKNOWN, target.loc) if target.open else Val(None)
        return Val(None)
    if isinstance(target.raw, dict):
        text = key.text()
        return target.get(text) if text is not None else Val(None)
    return Val(None)


def number(value: Val) -> int | float | None:
    """A value as a Terraform number (strings convert), or None."""
    raw = value.raw
    if isinstance(raw, bool):
        return None
    if isinstance(raw, (int, float)):
        return raw
    if isinstance(raw, str):
        try:
            parsed = float(raw)
        except ValueError:
            return None
        return int(parsed) if parsed.is_integer() else parsed
    return None
