"""YAML (Helm values) through ruamel.yaml's composer, converted to parser-neutral literal nodes.

Helm reads values with go-yaml in YAML 1.1 mode: ``yes``/``on`` are booleans and a repeated key
is allowed (the last one wins). We compose nodes and never construct them, so a tag such as
``!!python/object`` is only a string here; anchors are expanded under a node budget so an alias
bomb becomes a syntax finding instead of exhausting memory.
"""

from __future__ import annotations

import re

from kapsulint.parsing import lit, span

MAX_NODES = 200_000
MAX_DEPTH = 500

_INT_RE = re.compile(r"^[-+]?(0|[1-9][0-9_]*)$")
_OCT_RE = re.compile(r"^[-+]?0[0-7_]+$")
_HEX_RE = re.compile(r"^[-+]?0x[0-9a-fA-F_]+$")
_BOOL_TRUE = {"yes", "true", "on", "y"}
_BOOL_FALSE = {"no", "false", "off", "n"}


class YamlSyntaxError(Exception):
    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


def parse_yaml(text: str) -> dict:
    """``{"docs": [node, ...], "comments": [[line, col, text], ...]}``; raises YamlSyntaxError."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    if "\x00" in text:
        index = text.index("\x00")
        line = text.count("\n", 0, index) + 1
        column = index - (text.rfind("\n", 0, index) + 1) + 1
        raise YamlSyntaxError("NUL byte in a YAML file", line, column)
    reader = YAML(typ="rt", pure=True)
    reader.version = (1, 1)
    reader.allow_duplicate_keys = True
    try:
        try:
            roots = [node for node in reader.compose_all(text) if node is not None]
        except RecursionError:
            roots = _compose_deep(reader, text)
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or error.context or "invalid YAML"
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        raise YamlSyntaxError(problem, *_clamp(text, line, column)) from None
    except (YAMLError, RecursionError, ValueError) as error:
        raise YamlSyntaxError(str(error).splitlines()[0] if str(error) else "invalid YAML", 1, 1) from None
    converter = _Converter()
    docs = [converter.convert(root) for root in roots]
    return {"docs": docs, "comments": _comments(text, converter.scalar_spans)}


def parse_values(text: str) -> dict:
    """A Helm values file: :func:`parse_yaml`, and its document must be a mapping (or empty).

    Helm reads the first document into a map; a list or a scalar there fails the install
    ("cannot unmarshal ... into map"), so it is a syntax error at the document's start.
    """
    data = parse_yaml(text)
    docs = data["docs"]
    if docs and docs[0]["t"] != "object" and not (docs[0]["t"] == "lit" and docs[0]["v"] is None):
        found = "a list" if docs[0]["t"] == "tuple" else "a scalar"
        line, column = docs[0]["p"][:2]
        raise YamlSyntaxError(f"a values file must be a mapping, this document is {found}", line, column)
    return data


def _compose_deep(reader, text: str) -> list:
    """ruamel.yaml's composer recurses (several frames per level) and runs out of stack well before
    MAX_DEPTH: find a node deeper than MAX_DEPTH with the (iterative) event parser and report it at
    its position, else compose again with room for MAX_DEPTH levels."""
    import sys

    from ruamel.yaml.events import CollectionEndEvent, CollectionStartEvent

    depth = 0
    for event in reader.parse(text):
        if isinstance(event, CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                mark = event.start_mark
                raise YamlSyntaxError(f"nesting deeper than {MAX_DEPTH} levels", mark.line + 1, mark.column + 1)
        elif isinstance(event, CollectionEndEvent):
            depth -= 1
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(limit + 10 * MAX_DEPTH)
    try:
        return [node for node in reader.compose_all(text) if node is not None]
    finally:
        sys.setrecursionlimit(limit)


def _clamp(text: str, line: int, column: int) -> tuple[int, int]:
    lines = text.split("\n")
    while len(lines) > 1 and lines[-1] == "":
        lines.pop()
    if line > len(lines):
        return len(lines), max(1, len(lines[-1]))
    return line, max(1, min(column, len(lines[line - 1]) or 1))


def _node_span(node) -> list[int]:
    start, end = node.start_mark, node.end_mark
    return span(start.line + 1, start.column + 1, end.line + 1, end.column + 1)


def scalar_value(node) -> object:
    """A scalar as go-yaml (YAML 1.1) would type it; unknown tags stay strings."""
    tag = getattr(node.tag, "value", node.tag) or ""
    text = node.value
    if getattr(node, "style", None) in ('"', "'", "|", ">"):
        return text
    if tag.endswith(":bool"):
        return text.lower() in _BOOL_TRUE
    if tag.endswith(":null"):
        return None
    if tag.endswith(":int"):
        cleaned = text.replace("_", "")
        try:
            if _HEX_RE.match(cleaned):
                return int(cleaned, 16)
            if _OCT_RE.match(cleaned):
                return int(cleaned, 8)
            return int(cleaned)
        except ValueError:
            return text
    if tag.endswith(":float"):
        try:
            value = float(text.replace("_", ""))
        except ValueError:
            return text
        return value
    return text


class _Converter:
    def __init__(self) -> None:
        self.count = 0
        self.scalar_spans: list[list[int]] = []

    def convert(self, root) -> dict:
        from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

        results: dict[int, dict] = {}
        # (node, depth, expanded, slot) where slot identifies the result of this visit.
        # depth counts the collections enclosing a node, the node included (a scalar adds none).
        stack: list[tuple] = [(root, 1, False, 0)]
        next_slot = 1
        pending_children: dict[int, list[int]] = {}
        while stack:
            node, depth, expanded, slot = stack.pop()
            if depth > MAX_DEPTH and not isinstance(node, ScalarNode):
                sp = _node_span(node)
                raise YamlSyntaxError(f"nesting deeper than {MAX_DEPTH} levels", sp[0], sp[1])
            if isinstance(node, ScalarNode):
                self._count(node)
                sp = _node_span(node)
                self.scalar_spans.append(sp)
                results[slot] = lit(scalar_value(node), _scalar_span(node, sp))
                continue
            if not expanded:
                self._count(node)
                children = []
                stack.append((node, depth, True, slot))
                items = node.value if isinstance(node, SequenceNode) else [x for pair in node.value for x in pair]
                for child in items:
                    children.append(next_slot)
                    stack.append((child, depth + 1, False, next_slot))
                    next_slot += 1
                pending_children[slot] = children
                continue
            values = [results.pop(s) for s in pending_children.pop(slot)]
            sp = _node_span(node)
            if isinstance(node, SequenceNode):
                results[slot] = {"t": "tuple", "items": values, "p": sp}
            elif isinstance(node, MappingNode):
                results[slot] = _mapping(values, sp)
        return results[0]

    def _count(self, node) -> None:
        self.count += 1
        if self.count > MAX_NODES:
            sp = _node_span(node)
            raise YamlSyntaxError(f"more than {MAX_NODES} nodes after expanding aliases", sp[0], sp[1])


def _scalar_span(node, sp: list[int]) -> list[int]:
    # A block scalar's region is cut to its indicator line; others keep their own extent.
    if sp[2] != sp[0]:
        return span(sp[0], sp[1], sp[0], sp[1] + 1)
    return sp


def _mapping(flat: list[dict], sp: list[int]) -> dict:
    items: list[list[dict]] = []
    merged: list[list[dict]] = []
    for index in range(0, len(flat), 2):
        key, value = flat[index], flat[index + 1]
        if key["t"] == "lit" and key["v"] == "<<":
            sources = value["items"] if value["t"] == "tuple" else [value]
            for source in sources:
                if source["t"] == "object":
                    merged.extend(source["items"])
            continue
        if key["t"] == "lit" and not isinstance(key["v"], str):
            key = lit(_key_text(key["v"]), key["p"])
        items.append([key, value])
    own = {item[0]["v"] for item in items if item[0]["t"] == "lit"}
    items = [m for m in merged if m[0].get("v") not in own] + items
    return {"t": "object", "items": items, "p": sp}


def _key_text(value: object) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    return str(value)


def _comments(text: str, scalar_spans: list[list[int]]) -> list[list]:
    """``#`` comments: a ``#`` at a line start or after a blank, outside every scalar."""
    inside: dict[int, list[tuple[int, int]]] = {}
    for sp in scalar_spans:
        for line in range(sp[0], sp[2] + 1):
            start = sp[1] if line == sp[0] else 1
            end = sp[3] if line == sp[2] else 10**9
            inside.setdefault(line, []).append((start, end))
    comments = []
    for number, line in enumerate(text.split("\n"), start=1):
        position = line.find("#")
        while position >= 0:
            column = position + 1
            if (position == 0 or line[position - 1] in " \t") and not any(
                s <= column < e for s, e in inside.get(number, ())
            ):
                comments.append([number, column, line[position:]])
                break
            position = line.find("#", position + 1)
    return comments
