"""YAML (Helm values) through ruamel.yaml's composer, converted to parser-neutral literal nodes.

Helm reads values with go-yaml in YAML 1.1 mode: ``yes``/``on`` are booleans and a repeated key
is allowed (the last one wins). We compose nodes and never construct them, so a tag such as
``!!python/object`` is only a string here; anchors are expanded under a node budget so an alias
bomb becomes a syntax finding instead of exhausting memory.

Template expressions (:mod:`kapsulint.parsing.yaml_templates`) are read as placeholders: a scalar
holding one is an ``unknown`` node (``str`` when it is certainly a string: quoted, a block scalar,
or a plain scalar with characters no number, boolean, null or date has), a key holding one is
dropped and its mapping is ``open``. Everything else keeps its place. A text that is not YAML once
its expressions are seen raises :class:`TemplatedYamlError`: a control structure (``{{ if }}``,
``{{ range }}``, ``%{ for }``) not held in one scalar or one comment, an expression that writes
lines of its own into a plain scalar or stands in place of the document's mapping, an
unbalanced one, or a text that YAML still cannot read once they are placeholders.
"""

from __future__ import annotations

import bisect
from functools import cache

from kapsulint.parsing import Span, lit, span
from kapsulint.parsing.yaml_templates import (
    CLOSE,
    GO,
    MIDDLE,
    OPEN,
    SILENT,
    TERRAFORM,
    Action,
    find_actions,
    leads_line,
    may_hold_actions,
    shown,
    standalone,
    substitute,
)
from kapsulint.text import lazy_pattern, normalised

MAX_NODES = 200_000
MAX_DEPTH = 500

_INT_RE = lazy_pattern(r"^[-+]?(0|[1-9][0-9_]*)$")
_OCT_RE = lazy_pattern(r"^[-+]?0[0-7_]+$")
_HEX_RE = lazy_pattern(r"^[-+]?0x[0-9a-fA-F_]+$")
_BOOL_TRUE = {"yes", "true", "on", "y"}
_BOOL_FALSE = {"no", "false", "off", "n"}


# What a plain scalar holds when it resolves to a number, a boolean, null or a date in YAML 1.1:
# a plain scalar with a template expression and any other character is certainly a string.
_NON_STRING_CHARACTERS = frozenset("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+-._:~ \t\n")


class YamlSyntaxError(Exception):
    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


class TemplatedYamlError(YamlSyntaxError):
    """A text that is not YAML once its template expressions are seen. ``message`` says why, at
    the expression that makes it so (``line``, ``column``, ``end_column`` on its first line);
    ``syntax`` is that expression's template language (``go``, ``jinja``, ``terraform``)."""

    def __init__(self, message: str, line: int, column: int, end_column: int, syntax: str) -> None:
        super().__init__(message, line, column)
        self.end_column = end_column
        self.syntax = syntax
        self.comments: list[list] = []  # the text's comments, for its suppressions


def parse_yaml(text: str, dialect: str = GO, values: bool = False) -> dict:
    """``{"docs": [node, ...], "comments": [[line, col, text], ...], "templates": count}``, where
    ``count`` is the number of template expressions of ``dialect`` (``yaml_templates.dialect_of``)
    read; raises YamlSyntaxError, and TemplatedYamlError for a text that is not YAML once its
    template expressions are seen (for a values file, ``values``, a first document that is one
    template expression too)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    text = normalised(text)
    if "\x00" in text:
        index = text.index("\x00")
        line = text.count("\n", 0, index) + 1
        column = index - (text.rfind("\n", 0, index) + 1) + 1
        raise YamlSyntaxError("NUL byte in a YAML file", line, column)
    actions = find_actions(text, dialect) if may_hold_actions(text, dialect) else []
    readable = substitute(text, actions) if actions else text
    # Nodes are composed, never constructed, and comments are found by our own scan: the safe
    # composer gives the round-trip one's nodes and marks without gathering comments as it scans
    # (a third of the time to compose a values file).
    reader = YAML(typ="safe", pure=True)
    reader.Resolver = _yaml_1_1_resolver()
    reader.allow_duplicate_keys = True
    try:
        try:
            roots = [node for node in reader.compose_all(readable) if node is not None]
        except RecursionError:
            roots = _compose_deep(reader, readable)
        finally:
            _dispose(reader)
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or error.context or "invalid YAML"
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        line, column = _clamp(text, line, column)
        if actions:
            left_out = _still_not_yaml(text, actions, mark.index if mark is not None else 0, problem, line, column)
            left_out.comments = _whole_line_comments(readable, text)
            raise left_out from None
        raise YamlSyntaxError(problem, line, column) from None
    except (YAMLError, RecursionError, ValueError) as error:
        raise YamlSyntaxError(str(error).splitlines()[0] if str(error) else "invalid YAML", 1, 1) from None
    converter = _Converter(text, readable, actions)
    docs = [converter.convert(root) for root in roots]
    comments = _comments(readable, text, converter.scalar_spans)
    if actions:
        converter.check_structure(comments, docs[0] if values and docs else None)
    return {"docs": docs, "comments": comments, "templates": len(actions)}


def parse_values(text: str, dialect: str = GO) -> dict:
    """A Helm values file: :func:`parse_yaml`, and its document must be a mapping (or empty).

    Helm reads the first document into a map; a list or a scalar there fails the install
    ("cannot unmarshal ... into map"), so it is a syntax error at the document's start. A
    template expression in place of that mapping (``{{ toYaml .Values.x }}``) leaves the file out.
    """
    data = parse_yaml(text, dialect, values=True)
    docs = data["docs"]
    if docs and docs[0]["t"] != "object" and not (docs[0]["t"] == "lit" and docs[0]["v"] is None):
        found = "a list" if docs[0]["t"] == "tuple" else "a scalar"
        line, column = docs[0]["p"][:2]
        raise YamlSyntaxError(f"a values file must be a mapping, this document is {found}", line, column)
    return data


@cache
def _yaml_1_1_resolver() -> type:
    """ruamel.yaml's resolver held to YAML 1.1 in every document, as go-yaml resolves: given
    ``version = (1, 1)``, ruamel.yaml still resolves a document after an explicit ``---`` by YAML
    1.2's rules (``yes`` and ``on`` are strings there), because the parser resets the version it
    was given at each document start without a ``%YAML`` directive."""
    from ruamel.yaml.resolver import VersionedResolver

    class Yaml11Resolver(VersionedResolver):
        @property
        def processing_version(self) -> tuple[int, int]:
            return (1, 1)

    return Yaml11Resolver


def _dispose(reader) -> None:
    """Break the references between ruamel.yaml's loader and its parts (reader, scanner, parser,
    composer, resolver), and the parser's to its own state methods: only a collection would free
    them otherwise, and a run turns collections off (a parsing worker too)."""
    for part in list(vars(reader).values()):
        if getattr(part, "loader", None) is reader:
            vars(part).clear()
    vars(reader).clear()


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


def _node_span(node) -> Span:
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
    """Composed nodes to plain nodes; with template expressions (``actions``), which scalar holds
    each, so that :meth:`check_structure` can tell whether the text is still YAML."""

    def __init__(self, text: str = "", readable: str = "", actions: list[Action] | None = None) -> None:
        self.count = 0
        self.scalar_spans: list[Span] = []
        self.text = text
        self.readable = readable
        self.actions = actions or []
        self._starts = [action.start for action in self.actions]
        # action index -> (the offset of the scalar holding it, plain style, the scalar's first line)
        self.holders: dict[int, tuple[int, bool, int]] = {}
        self.roots: list[int] = []  # the offset of each document's root node

    def convert(self, root) -> dict:
        from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

        self.roots.append(root.start_mark.index)
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
                held = self._held(node) if self.actions else range(0)
                if held:
                    results[slot] = self._unknown(node, sp, held)
                else:
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

    def _held(self, node) -> range:
        """The indexes of the actions that start inside a scalar node."""
        start, end = node.start_mark.index, node.end_mark.index
        held = range(bisect.bisect_left(self._starts, start), bisect.bisect_left(self._starts, end))
        plain = getattr(node, "style", None) not in ('"', "'", "|", ">")
        for index in held:
            self.holders[index] = (start, plain, node.start_mark.line)
        return held

    def _unknown(self, node, sp: Span, held: range) -> dict:
        """A scalar holding template expressions: Unknown, and a string when it certainly is one."""
        result: dict[str, object] = {"t": "unknown", "p": _scalar_span(node, sp)}
        if getattr(node, "style", None) in ('"', "'", "|", ">"):
            result["str"] = True
            return result
        written, position = [], node.start_mark.index
        for index in held:
            written.append(self.text[position:self.actions[index].start])
            position = self.actions[index].end
        written.append(self.text[position:max(position, node.end_mark.index)])
        if any(char not in _NON_STRING_CHARACTERS for part in written for char in part):
            result["str"] = True
        return result

    def check_structure(self, comments: list[list], document: dict | None) -> None:
        """Raise TemplatedYamlError unless every action stays inside the YAML it was read in: each
        control structure held by one scalar, no action leading a line of a plain scalar that
        starts on an earlier line, none outside every scalar and comment, and (for a values file)
        no ``document`` that is only template expressions. An action in a comment is comment text
        (Helm reads a values file's comments as comments)."""
        comment_columns = {line: column for line, column, _ in comments}
        newlines = [index for index, char in enumerate(self.readable) if char == "\n"]
        problems: list[tuple[int, str]] = []
        places: list[tuple | None] = []
        for index, action in enumerate(self.actions):
            places.append(self._place(index, action, comment_columns, newlines))
        open_groups: dict[str, list[list[int]]] = {}
        for index, action in enumerate(self.actions):
            place = places[index]
            if place is not None and place[0] == "comment":
                continue  # text of a comment: it shapes nothing
            if place is None and action.role not in (OPEN, MIDDLE, CLOSE):
                if action.role != SILENT or not _blank_in(self.readable, action):
                    problems.append((index, "stands where YAML expects a key or an item"))
                continue
            if index in self.holders:
                _, plain, first_line = self.holders[index]
                if (plain and bisect.bisect_left(newlines, action.start) > first_line
                        and leads_line(self.readable, action)):
                    problems.append((index, "writes lines of its own inside a value"))
            groups = open_groups.setdefault(action.syntax, [])
            if action.role == OPEN:
                groups.append([index])
            elif action.role in (MIDDLE, CLOSE):
                if not groups:
                    problems.append((index, "closes no control structure" if action.role == CLOSE
                                     else "stands outside any control structure"))
                    continue
                groups[-1].append(index)
                if action.role == CLOSE:
                    members = groups.pop()
                    if len({places[m] for m in members}) != 1 or places[members[0]] is None:
                        problems.append((members[0], "starts a control structure that is not held in one value"))
        for groups in open_groups.values():
            problems.extend((members[0], "starts a control structure that is never closed") for members in groups)
        if not problems and document is not None and document["t"] == "unknown":
            first = next(i for i, place in enumerate(places) if place == ("scalar", self.roots[0]))
            problems.append((first, "stands in place of the file's mapping"))
        if problems:
            problems.sort()
            chosen = next((p for p in problems if self.actions[p[0]].syntax != TERRAFORM), problems[0])
            error = _left_out(self.text, self.actions[chosen[0]], chosen[1])
            error.comments = comments
            raise error

    def _place(self, index: int, action: Action, comment_columns: dict[int, int],
               newlines: list[int]) -> tuple | None:
        """Where an action was read: ("scalar", offset of its scalar), ("comment", line), or None
        (``newlines``: the offsets of the text's line breaks)."""
        holder = self.holders.get(index)
        if holder is not None:
            return ("scalar", holder[0])
        line = bisect.bisect_left(newlines, action.start)  # 0-based
        column = action.start - (newlines[line - 1] + 1 if line else 0) + 1
        comment = comment_columns.get(line + 1)
        if comment is not None and comment <= column:
            return ("comment", line)
        return None


def _blank_in(readable: str, action: Action) -> bool:
    """Whether an action was replaced by blanks (a silent one alone on its lines)."""
    return not readable[action.start:action.end].strip()


def _left_out(text: str, action: Action, why: str) -> TemplatedYamlError:
    line = text.count("\n", 0, action.start) + 1
    column = action.start - (text.rfind("\n", 0, action.start) + 1) + 1
    first_line_end = text.find("\n", action.start)
    end = action.end if first_line_end < 0 or first_line_end > action.end else first_line_end
    return TemplatedYamlError(f"`{shown(text, action)}` at line {line} {why}", line, column,
                              column + end - action.start, action.syntax)


def _still_not_yaml(text: str, actions: list[Action], index: int, problem: str, line: int,
                    column: int) -> TemplatedYamlError:
    """A text YAML cannot read with its actions as placeholders: at its first control structure on
    a line of its own if any (an ``{{ if }}`` between lines of YAML), else at the last action
    before the problem (what broke the YAML, most likely), else at the first."""
    from kapsulint.parsing.yaml_words import in_words

    control = [action for action in actions if action.role in (OPEN, MIDDLE, CLOSE) and standalone(text, action)]
    if control:
        action = next((a for a in control if a.syntax != TERRAFORM), control[0])
        return _left_out(text, action, "is a control structure on a line of its own, between the lines of the YAML")
    before = [action for action in actions if action.start <= index]
    action = before[-1] if before else actions[0]
    if standalone(text, action):
        return _left_out(text, action, "stands on a line of its own where YAML expects a key or an item")
    worded = in_words(problem, line, column)
    if worded == problem:
        worded = f"invalid YAML at line {line}, column {column}: {problem}"
    return _left_out(text, action, f"leaves YAML that cannot be read ({worded})")


def _whole_line_comments(readable: str, text: str) -> list[list]:
    """The comments that stand alone on their lines, in a text YAML could not read (for its
    suppressions: ``# kapsulint: ignore-file[...]`` at the top)."""
    original = text.split("\n")
    found = []
    for number, line in enumerate(readable.split("\n"), start=1):
        stripped = line.lstrip(" \t")
        if stripped.startswith("#"):
            column = len(line) - len(stripped) + 1
            found.append([number, column, original[number - 1][column - 1:]])
    return found


def _scalar_span(node, sp: Span) -> Span:
    # A block scalar's region is cut to its indicator line; others keep their own extent.
    if sp[2] != sp[0]:
        return span(sp[0], sp[1], sp[0], sp[1] + 1)
    return sp


def _mapping(flat: list[dict], sp: Span) -> dict:
    items: list[list[dict]] = []
    merged: list[list[dict]] = []
    is_open = False
    for index in range(0, len(flat), 2):
        key, value = flat[index], flat[index + 1]
        if key["t"] == "lit" and key["v"] == "<<":
            sources = value["items"] if value["t"] == "tuple" else [value]
            for source in sources:
                if source["t"] == "object":
                    merged.extend(source["items"])
                    is_open = is_open or source.get("open", False)
                elif source["t"] == "unknown":
                    is_open = True
            continue
        if key["t"] == "unknown":  # a key holding a template expression: which key is unknown
            is_open = True
            continue
        if key["t"] != "lit":  # go-yaml refuses a list or a mapping as a key ("invalid map key")
            raise YamlSyntaxError("a mapping key that is a list or a mapping", *key["p"][:2])
        if not isinstance(key["v"], str):
            key = lit(_key_text(key["v"]), key["p"])
        items.append([key, value])
    own = {item[0]["v"] for item in items}
    items = [m for m in merged if m[0].get("v") not in own] + items
    result: dict[str, object] = {"t": "object", "items": items, "p": sp}
    if is_open:
        result["open"] = True
    return result


def _key_text(value: object) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    return str(value)


def _comments(readable: str, text: str, scalar_spans: list[Span]) -> list[list]:
    """``#`` comments: a ``#`` at a line start or after a blank, outside every scalar, found in the
    text YAML read (``readable``: template expressions are placeholders) and taken from ``text``."""
    inside: dict[int, list[tuple[int, int]]] = {}
    for sp in scalar_spans:
        for line_number in range(sp[0], sp[2] + 1):
            start = sp[1] if line_number == sp[0] else 1
            end = sp[3] if line_number == sp[2] else 10**9
            inside.setdefault(line_number, []).append((start, end))
    comments = []
    original = text.split("\n") if readable is not text else None
    for number, line in enumerate(readable.split("\n"), start=1):
        position = line.find("#")
        while position >= 0:
            column = position + 1
            if (position == 0 or line[position - 1] in " \t") and not any(
                s <= column < e for s, e in inside.get(number, ())
            ):
                comments.append([number, column, (original[number - 1] if original else line)[position:]])
                break
            position = line.find("#", position + 1)
    return comments
