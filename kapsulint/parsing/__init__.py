"""The parsing adapter: parser output in, parser-neutral plain data out.

Every parser quirk (python-hcl2's lark tree, lark positions, ruamel.yaml's 0-based marks) stays in
this package. What leaves it is made of dicts, lists, strings and numbers only, so it can be cached
and shipped between processes. Spans are ``(line, column, end_line, end_column)`` tuples: 1-based,
columns in code points, end column exclusive. Names (identifiers, keys, labels) and short string
literals are interned, so that the thousand files of a monorepo that name ``node_type`` share one
string, in this process and in what the parse cache gives back (marshal keeps interning).

Expression nodes are dicts with a ``"t"`` kind and a ``"p"`` span:

- ``lit`` (``v``: str, int, float, bool or None; a number literal that is not a plain decimal
  integer, such as ``0.1``, ``1e20`` or ``-1.5e-3``, also has ``num``, its source text, so that it
  can be read exactly: Terraform numbers are arbitrary-precision), ``tmpl`` (``parts``: strings and nodes),
  ``tif`` / ``tfor`` (template directives), ``var`` (a root name), ``attr`` (``obj``, ``name``),
  ``index`` (``obj``, ``key``), ``splat`` (``obj``, ``ops``: the steps applied to each element,
  ``["attr", name]``, ``["index", key node]`` or ``["splat", ops]`` for a splat applied to each
  element's value, as in ``a[*].b[*].c``), ``call`` (``name``, ``args``,
  ``expand``), ``tuple`` (``items``), ``object`` (``items``: ``[key node, value node]``),
  ``op`` (``op``, ``args``), ``cond`` (``test``, ``then``, ``else``), ``for`` (``kv``, ``vv``,
  ``coll``, ``key``, ``value``, ``cond``, ``group``), ``paren`` (``e``).

YAML documents are ``lit``, ``tuple`` and ``object`` nodes (an ``object`` with ``open`` when one
of its keys holds a template expression, so its set of keys is not known), and ``unknown`` for a
scalar holding a template expression (``str`` when it is certainly a string).
"""

from __future__ import annotations

from sys import intern

SCHEMA_VERSION = 10  # 2: a values document that is not a mapping is a syntax error; 3: step spans;
# 4: HCL parsed as Terraform parses it (tests/test_parse_conformance.py), number literals keep ``num``;
# 5: Unicode identifiers by XID properties, heredocs nesting one of the same marker;
# 6: a brace after `in` inside an expression opens an object; 7: attributes say whether they compute;
# 8: YAML template expressions are ``unknown`` nodes, a values file not YAML once they are seen is ``left_out``;
# 9: a splat after a full splat is a ``["splat", ops]`` step of it; 10: spans are tuples, names interned


Span = tuple[int, int, int, int]
_INTERNED_LENGTH = 64  # longer strings are seldom repeated: interning them only costs the table


def span(line: int, column: int, end_line: int, end_column: int) -> Span:
    return (line, column, end_line, end_column)


def shared(text: str) -> str:
    """``text`` interned when it is short enough to be repeated across files (a name, a key, an
    enumerated value): one string object however many files hold it."""
    return intern(text) if len(text) <= _INTERNED_LENGTH else text


_COMPUTING = frozenset({"call", "for", "tfor"})


def computes(expr: dict) -> bool:
    """Whether an expression calls a function or runs a ``for`` (in a template too): only such an
    expression can read a file or use up an evaluation budget. Kept on attribute nodes as ``c``."""
    stack: list[object] = [expr]
    while stack:
        current = stack.pop()
        if isinstance(current, dict):
            if current.get("t") in _COMPUTING:
                return True
            stack.extend(value for key, value in current.items() if key != "p")
        elif isinstance(current, list):
            stack.extend(current)
    return False


def lit(value: object, sp: Span | list[int]) -> dict:
    return {"t": "lit", "v": shared(value) if type(value) is str else value, "p": sp}
