"""Where decoded documents and encoded values were written: YAML and JSON located in their source."""

from __future__ import annotations

from typing import Any, Protocol

from kapsulint.findings import Loc
from kapsulint.terraform.types import STRING
from kapsulint.terraform.values import INHERITED, UNKNOWN, Val, plain
from kapsulint.text import lazy_pattern


class YamlTexts(Protocol):
    """Who parses a decoded document's text (the project, which keeps one parse per text)."""

    def parse_yaml_text(self, text: str, path: str | None) -> dict: ...


def decode_located(text: str, origin: tuple | None, loc: Loc, project: YamlTexts) -> Val | None:
    """YAML (a superset of JSON) text as a Val tree, located in the file it was read from.

    ``origin`` is (path, line offset, column offset) of the text's first line when it came from a
    file or a heredoc; otherwise every node is placed at ``loc``, the expression that built it.
    """
    from kapsulint.parsing.yaml import YamlSyntaxError

    try:
        parsed = project.parse_yaml_text(text, origin[0] if origin is not None else None)
    except YamlSyntaxError:
        return None
    docs = parsed["docs"]
    if not docs:
        return Val(None, loc)
    if origin is not None and len(origin) > 3:
        origin = (*origin[:3], tuple(_text_position(text, start) + (end - start, value)
                                     for start, end, value in origin[3]))
    return literal_to_val(docs[0], origin, loc)


def _text_position(text: str, offset: int) -> tuple[int, int]:
    """The 1-based (line, column) of ``offset`` in ``text``."""
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _interpolated(node: dict, segments: tuple) -> Val | None:
    """The template interpolation a YAML string scalar consists of exactly, if any."""
    text = node.get("v")
    if not isinstance(text, str):
        return None
    line, column, end_line, end_column = node["p"]
    for at_line, at_column, length, value in segments:
        if (length == len(text) and value.text() == text and value.loc is not None
                and (line, column) <= (at_line, at_column) < (end_line, end_column)):
            return value
    return None


def literal_to_val(node: dict, origin: tuple | None, fallback: Loc) -> Val:
    """Convert a literal node tree (as the YAML adapter yields) to a Val tree, iteratively.

    ``origin`` may carry a fourth item, the text's template interpolations as (line, column,
    length, value): a string scalar that is exactly one of them is placed where its value was
    written (a templatefile() argument, a local, a variable default).

    A scalar holding a template expression (``{{ .Release.Name }}``) is Unknown, of type string
    when it certainly is one; a key holding one leaves its object open.
    """
    segments: tuple = ()
    if origin is not None:
        path, line_offset, column_offset = origin[:3]
        segments = origin[3] if len(origin) > 3 else ()

        def place(span: list[int]) -> Loc:
            if not line_offset and not column_offset:  # a whole file
                return Loc.of(path, span)
            return Loc.of(path, span).shifted(line_offset, 0) if not column_offset else Loc(
                path, span[0] + line_offset, span[1] + column_offset, span[2] + line_offset, span[3] + column_offset
            )
    else:

        def place(span: list[int]) -> Loc:
            return fallback

    root_holder: list[Val] = []
    stack: list[tuple[dict, Any, Any]] = [(node, root_holder, None)]
    while stack:
        current, container, key = stack.pop()
        kind = current["t"]
        if kind == "object":
            keylocs: dict[str, Loc] = {}
            value = Val({}, place(current["p"]), keylocs=keylocs, open=current.get("open", False))
            for key_node, value_node in current["items"]:
                text = key_node["v"] if isinstance(key_node["v"], str) else str(key_node["v"])
                keylocs[text] = place(key_node["p"])
                value.raw[text] = None  # keeps the written order; filled below
                stack.append((value_node, value.raw, text))
        elif kind == "tuple":
            value = Val([None] * len(current["items"]), place(current["p"]))
            for index, item in enumerate(current["items"]):
                stack.append((item, value.raw, index))
        elif kind == "unknown":
            value = Val(UNKNOWN, place(current["p"]), type=STRING if current.get("str") else None)
        else:
            source = _interpolated(current, segments) if segments else None
            value = plain(current.get("v"), source.loc if source is not None else place(current["p"]))
        if key is None:
            container.append(value)
        else:
            container[key] = value
    return root_holder[0]


_VERB_RE = lazy_pattern(r"%(%|[-+# 0]*\d*(?:\.\d+)?[vdsfqtxXeEgGbo])")


def located_result(name: str, args: list[Val], result: Val, context: Any, loc: Loc) -> Val:
    """A function's result with the places its text or structure was written, for the rules.

    ``file()`` and ``templatefile()`` text starts in the file read; an encoded document keeps the
    structure it was made from; a decoded one gets the positions of the document's nodes (in the
    file or heredoc it came from, or of the structure that was encoded)."""
    if name in ("yamlencode", "jsonencode") and args:
        if result.encoded is None:  # an Unknown document keeps its known parts for the rules
            # the structure of a sensitive text is sensitive in every part
            encoded = args[0].with_sensitive(INHERITED) if result.sensitive else args[0]
            return result.replaced(encoded=encoded)
        return result
    if not result.known or not args or not isinstance(args[0].raw, str):
        return result
    if name == "file":
        return result.replaced(origin=(context.resolve(args[0].raw), 0, 0))
    if name == "templatefile":
        target = context.resolve(args[0].raw)
        rendered = context.rendered.get(target)
        return result.replaced(origin=rendered.origin if rendered is not None and rendered.origin else (target, 0, 0))
    if name in ("yamldecode", "jsondecode"):
        source = args[0]
        located = source.encoded or decode_located(source.raw, source.origin, loc, context.instance.project)
        if located is not None:
            return relocated(result, located)
    return result


def relocated(exact: Val, located: Val) -> Val:
    """``exact`` with the locations of ``located`` wherever the two have the same shape (and its
    resource references where ``exact`` has none): a copy where a node changes, ``exact`` itself
    untouched. Iterative, members built before the nodes that hold them."""
    order: list[tuple[Val, Val, int, Any]] = []  # (target, source, index of its parent, key there)
    stack: list[tuple[Val, Val, int, Any]] = [(exact, located, -1, None)]
    while stack:
        target, source, parent, key = stack.pop()
        index = len(order)
        order.append((target, source, parent, key))
        if isinstance(target.raw, dict) and isinstance(source.raw, dict):
            stack.extend((target.raw[k], source.raw[k], index, k) for k in target.raw if k in source.raw)
        elif isinstance(target.raw, list) and isinstance(source.raw, list) and len(target.raw) == len(source.raw):
            stack.extend((t, s, index, i) for i, (t, s) in enumerate(zip(target.raw, source.raw)))
    members: dict[int, dict[Any, Val]] = {}  # the new members of a node, by its index in order
    built = exact
    for index in range(len(order) - 1, -1, -1):  # a node's members come after it in order
        target, source, parent, key = order[index]
        raw, keylocs = target.raw, target.keylocs
        new_members = members.pop(index, None)
        if new_members and isinstance(raw, dict):
            raw = {k: new_members.get(k, member) for k, member in raw.items()}
        elif new_members and isinstance(raw, list):
            raw = [new_members.get(i, member) for i, member in enumerate(raw)]
        if isinstance(raw, dict) and isinstance(source.raw, dict) and source.keylocs:
            keylocs = {k: v for k, v in source.keylocs.items() if k in raw}
        loc = source.loc if source.loc is not None else target.loc
        ref = source.ref if source.ref is not None and target.ref is None else target.ref
        if raw is target.raw and keylocs == target.keylocs and loc == target.loc and ref is target.ref:
            built = target
        else:
            built = target.replaced(raw=raw, keylocs=keylocs, loc=loc, ref=ref)
            if parent >= 0:
                members.setdefault(parent, {})[key] = built
    return built
