"""Expressions as written: the model object a consumer holds instead of the parser's node.

An :class:`Expression` knows its file and its node; consumers ask it where it is and the few
syntactic facts the domain needs (a literal, an object member, the text of a command). The node
itself is the engine's: :mod:`kapsulint.model.references` walks it, :mod:`kapsulint.terraform`
evaluates it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kapsulint.findings import Loc


class Expression:
    """An expression as written in a file: where it is, and the little a consumer may ask of it."""

    __slots__ = ("_node", "path")

    def __init__(self, node: dict, path: str) -> None:
        self._node = node
        self.path = path

    @property
    def loc(self) -> Loc:
        return Loc.of(self.path, self._node["p"])

    @property
    def is_literal(self) -> bool:
        """A string with no interpolation, a number, a bool or null."""
        return self._node.get("t") == "lit"

    @property
    def literal(self) -> object:
        """The literal as written; None when the expression is not a literal."""
        return self._node.get("v") if self.is_literal else None

    @property
    def is_object(self) -> bool:
        """An object written with braces (``{ a = 1 }``), parentheses around it or not."""
        return _unparen(self._node).get("t") == "object"

    @property
    def is_traversal(self) -> bool:
        """A bare reference (``var.x``, ``a.b[0].c``), parentheses around it or not."""
        current = self._node
        while current.get("t") in ("attr", "index", "paren"):
            current = (current.get("e") if current["t"] == "paren" else current.get("obj")) or {}
        return current.get("t") == "var"

    @property
    def last_attribute(self) -> str | None:
        """``c`` of ``a.b.c``: the name after the last dot of a traversal ending in one."""
        return self._node.get("name") if self._node.get("t") == "attr" else None

    def member(self, key: str) -> Expression | None:
        """The value of ``key`` in an object literal (``kubernetes = { host = ... }``)."""
        node = _unparen(self._node)
        if node.get("t") != "object":
            return None
        for key_node, value in node.get("items", []):
            if key_name(key_node) == key:
                return Expression(value, self.path)
        return None

    def string_literals(self, names: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], str, Loc]]:
        """(key path from ``names``, text, loc) of each string literal, in objects and tuples
        written as literals too (``{ a = ["x"] }`` gives ``(names + ("a",), "x", ...)``)."""
        stack = [(self._node, names)]
        while stack:
            current, where = stack.pop()
            if not isinstance(current, dict):
                continue
            kind = current.get("t")
            if kind == "lit" and isinstance(current.get("v"), str):
                yield where, current["v"], Loc.of(self.path, current["p"])
            elif kind == "paren":
                stack.append((current["e"], where))
            elif kind == "tuple":
                stack.extend((item, where) for item in current.get("items", []))
            elif kind == "object":
                for key, value in current.get("items", []):
                    label = key_name(key)
                    stack.append((value, where + ((label,) if label is not None else ())))

    def written_text(self) -> str:
        """The literal text of a string as written, interpolations and directives left out."""
        return _written_text(self._node)


def node_of(expression: Expression) -> dict:
    """The parser's node, for the engine's walkers and evaluator only (never the domain's)."""
    return expression._node


def _unparen(node: Any) -> dict:
    while isinstance(node, dict) and node.get("t") == "paren":
        node = node.get("e")
    return node if isinstance(node, dict) else {}


def key_name(key: dict) -> str | None:
    """An object key written as a name or a literal (``a = 1``, ``"a" = 1``)."""
    if key.get("t") == "lit":
        return str(key.get("v"))
    if key.get("t") == "var":
        return key.get("name")
    return None


def _written_text(node) -> str:
    if isinstance(node, str):
        return node  # the text parts of a template
    if not isinstance(node, dict):
        return ""
    if node.get("t") == "lit":
        return str(node.get("v", ""))
    if node.get("t") in ("tmpl", "paren"):
        parts = node.get("parts") or [node.get("e")]
        return "".join(_written_text(part) for part in parts)
    return ""
