"""Terraform's JSON configuration syntax (``.tf.json``), converted to parser-neutral data.

The output has the shape of :func:`kapsulint.parsing.hcl.parse_hcl`'s. A small iterative JSON
parser keeps every token's position (no recursion: nesting is bounded by ``MAX_DEPTH``); a second
pass maps the JSON structure onto Terraform's blocks and attributes:

- top-level keys are block types, with two label levels for ``resource``/``data``/``ephemeral``,
  one for ``module``/``provider``/``variable``/``output``/``check``, none otherwise
  (``terraform``, ``locals``...); any label level or body may also be an array of objects;
- inside a body, a key is a nested block when its value is an object (or an array of objects)
  and its name is a known block type (``_NESTED_BLOCKS``); everything else is an attribute;
- string values are HCL templates (``"${var.x}"`` gives the nodes the HCL adapter gives), and the
  few arguments Terraform reads as bare expressions (``depends_on``, a resource's ``provider``,
  ``lifecycle.ignore_changes``, a variable's ``type``...) are parsed as expressions;
- ``"//"`` keys of bodies and label levels are comments and are dropped.

Spans are exact for every JSON token. A block's header span (``p``) runs from its innermost key
(its last label, or its type when it has none) to the body's ``{`` when that is on the same line.
Nodes inside a string are exact too: escapes are mapped back to their source columns.
"""

from __future__ import annotations

import gc
import re
from bisect import bisect_right
from contextlib import contextmanager
from typing import Any

from kapsulint.parsing import Span, computes, lit, shared, span
from kapsulint.parsing.template import TemplateSyntaxError, parse_template
from kapsulint.text import normalised

MAX_DEPTH = 500

# Label levels of the top-level block types; any other top-level object is a block without labels.
_TOP_LABELS = {
    "resource": 2,
    "data": 2,
    "ephemeral": 2,
    "module": 1,
    "provider": 1,
    "variable": 1,
    "output": 1,
    "check": 1,
}

# Keys read as nested blocks (when their value is an object or an array of objects).
_NESTED_BLOCKS = frozenset({
    "lifecycle", "auto_upgrade", "autoscaler_config", "open_id_connect_config", "upgrade_policy",
    "kubernetes", "set", "set_list", "set_sensitive", "backend", "cloud", "required_providers",
    "acl_rules", "ipv4_subnet", "ipam_config", "provisioner", "connection", "dynamic",
    "encryption", "root_volume", "private_network", "timeouts", "postrender",
    # Terraform's own nested blocks.
    "validation", "precondition", "postcondition", "workspaces",
})

# Nested blocks with one label level: (enclosing block type or None for any, block type).
_LABELLED = {(None, "dynamic"), (None, "provisioner"), ("terraform", "backend")}

# Blocks whose members are all attributes, whatever their names.
_ATTRIBUTE_ONLY = frozenset({"locals", "required_providers"})

# Arguments Terraform reads as a bare expression (or a list of them), not as a template:
# enclosing block type -> {argument: "one" | "list" | "map"}.
_STATIC = {
    "resource": {"depends_on": "list", "provider": "one"},
    "data": {"depends_on": "list", "provider": "one"},
    "ephemeral": {"depends_on": "list", "provider": "one"},
    "module": {"depends_on": "list", "providers": "map"},
    "output": {"depends_on": "list"},
    "variable": {"type": "one"},
    "lifecycle": {"ignore_changes": "list", "replace_triggered_by": "list"},
    "moved": {"from": "one", "to": "one"},
    "removed": {"from": "one"},
    "import": {"to": "one", "provider": "one"},
}

_WS_RE = re.compile(r"[ \t\n\r]*")
_STRING_RE = re.compile(r'"((?:[^"\\\n]|\\[^\n])*)"')
_NUMBER_RE = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_WORD_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SIMPLE_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_KEYWORDS = {"true": True, "false": False, "null": None}


class JsonSyntaxError(Exception):
    """A file that does not parse, with a readable message and the position of the problem."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


def parse_terraform_json(text: str) -> dict:
    """Parse a ``.tf.json`` file: ``{"body": ..., "comments": []}`` (JSON has no comments)."""
    source = _Source(normalised(text))
    with _gc_paused():
        root = _parse_json(source)
        if root["k"] != "obj":
            raise source.error_at("the root of a Terraform JSON file must be an object", root["p"])
        return {"body": _Builder(source).build(root), "comments": []}


def parse_tfvars_json(text: str) -> dict:
    """Parse a ``.tfvars.json`` file: every top-level key is an attribute with a literal value."""
    source = _Source(normalised(text))
    with _gc_paused():
        root = _parse_json(source)
        if root["k"] != "obj":
            raise source.error_at("the root of a JSON variables file must be an object", root["p"])
        builder = _Builder(source, templates=False)
        attrs = [builder.attribute(key, key_span, value) for key, key_span, value in root["items"]]
    return {"body": {"attrs": attrs, "blocks": []}, "comments": []}


@contextmanager
def _gc_paused():
    """The parser makes no reference cycles; collecting while it allocates a large file's nodes
    would only cost time (more than doubling it for a few megabytes)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# -- positions --------------------------------------------------------------------------------


class _Source:
    def __init__(self, text: str) -> None:
        self.text = text
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def position(self, index: int) -> tuple[int, int]:
        line = bisect_right(self.line_starts, index)
        return line, index - self.line_starts[line - 1] + 1

    def span(self, start: int, end: int) -> Span:
        """The span of ``text[start:end]`` (``end`` exclusive, ``end > start``)."""
        line, column = self.position(start)
        end_line, end_column = self.position(end - 1)
        return span(line, column, end_line, end_column + 1)

    def end_of_input(self) -> tuple[int, int]:
        """The last character of the file (where KAP001 points when the file ends too early)."""
        stripped = self.text.rstrip("\n")
        if not stripped:
            return 1, 1
        return self.position(len(stripped) - 1)

    def error(self, message: str, index: int) -> JsonSyntaxError:
        if index >= len(self.text.rstrip("\n")):
            return self.eof(message)
        return JsonSyntaxError(message, *self.position(index))

    def eof(self, expected: str) -> JsonSyntaxError:
        return JsonSyntaxError(f"unexpected end of input: {expected}", *self.end_of_input())

    def error_at(self, message: str, sp: Span) -> JsonSyntaxError:
        return JsonSyntaxError(message, *self.clamp(sp[0], sp[1]))

    def clamp(self, line: int, column: int) -> tuple[int, int]:
        last_line, last_column = self.end_of_input()
        if line > last_line or (line == last_line and column > last_column):
            return last_line, last_column
        line = max(1, line)
        start = self.line_starts[line - 1]
        end = self.line_starts[line] - 1 if line < len(self.line_starts) else len(self.text)
        return line, max(1, min(column, max(1, end - start)))


# -- the JSON parser ----------------------------------------------------------------------------
#
# Intermediate nodes: {"k": "obj", "items": [(key, key span, node)], "p", "open": index of `{`},
# {"k": "arr", "items": [node], "p"}, {"k": "str", "v", "raw", "offsets", "p"},
# {"k": "num" | "kw", "v", "p"}.


def _describe(source: _Source, index: int) -> str:
    char = source.text[index]
    if char == '"':
        return "string"
    if char in "-0123456789":
        return "number"
    word = _WORD_RE.match(source.text, index)
    if word:
        return f"`{word.group(0)}`"
    if not char.strip():
        return "whitespace"
    return f"`{char}`"


def _unexpected(source: _Source, index: int, expected: str) -> JsonSyntaxError:
    if index >= len(source.text):
        return source.eof(expected)
    return source.error(f"unexpected {_describe(source, index)}: {expected}", index)


def _skip_blanks(text: str, index: int) -> int:
    """The index after the JSON whitespace that starts at ``index``."""
    match = _WS_RE.match(text, index)
    return match.end() if match is not None else index


def _parse_json(source: _Source) -> dict:
    text = source.text
    length = len(text)
    stack: list[dict] = []
    index = _skip_blanks(text, 0)
    value: dict | None = None
    while True:
        if value is None:
            if index >= length:
                raise source.eof("expected a JSON object" if not stack else "expected a value")
            char = text[index]
            if char == "{" or char == "[":
                if len(stack) >= MAX_DEPTH:
                    raise source.error(f"nesting deeper than {MAX_DEPTH} levels", index)
                frame: dict[str, Any] = {"k": "obj" if char == "{" else "arr", "items": [], "start": index}
                stack.append(frame)
                index = _skip_blanks(text, index + 1)
                close = "}" if char == "{" else "]"
                if index < length and text[index] == close:
                    stack.pop()
                    value = _close(source, frame, index + 1)
                    index += 1
                elif char == "{":
                    index = _key(source, frame, index, "expected a string key or `}`")
                    continue
                else:
                    continue
            elif char == '"':
                value, index = _string(source, index)
            elif char in "-0123456789":
                value, index = _number(source, index)
            else:
                word = _WORD_RE.match(text, index)
                if word and word.group(0) in _KEYWORDS:
                    value = {"k": "kw", "v": _KEYWORDS[word.group(0)], "p": source.span(index, word.end())}
                    index = word.end()
                else:
                    raise _unexpected(source, index, "expected a value")
        # A value is complete: attach it to its container, then read `,` or the closing bracket.
        if not stack:
            index = _skip_blanks(text, index)
            if index < length:
                raise _unexpected(source, index, "expected end of input")
            return value
        frame = stack[-1]
        if frame["k"] == "obj":
            key, key_span = frame.pop("key")
            frame["items"].append((key, key_span, value))
            close, expected = "}", "expected `,` or `}`"
        else:
            frame["items"].append(value)
            close, expected = "]", "expected `,` or `]`"
        value = None
        index = _skip_blanks(text, index)
        if index >= length:
            raise source.eof(expected)
        char = text[index]
        if char == ",":
            index = _skip_blanks(text, index + 1)
            if frame["k"] == "obj":
                index = _key(source, frame, index, "expected a string key after `,`")
            elif index < length and text[index] == "]":
                raise source.error("unexpected `]`: expected a value after `,`", index)
        elif char == close:
            stack.pop()
            value = _close(source, frame, index + 1)
            index += 1
        else:
            raise _unexpected(source, index, expected)


def _close(source: _Source, frame: dict, end: int) -> dict:
    node = {"k": frame["k"], "items": frame["items"], "p": source.span(frame["start"], end)}
    if frame["k"] == "obj":
        node["open"] = frame["start"]
    return node


def _key(source: _Source, frame: dict, index: int, expected: str) -> int:
    """Read ``"key" :`` at ``index``; the index after the colon and the whitespace after it."""
    text = source.text
    if index >= len(text) or text[index] != '"':
        raise _unexpected(source, index, expected)
    node, index = _string(source, index)
    index = _skip_blanks(text, index)
    if index >= len(text) or text[index] != ":":
        raise _unexpected(source, index, "expected `:`")
    frame["key"] = (node["v"], node["p"])
    return _skip_blanks(text, index + 1)


def _string(source: _Source, index: int) -> tuple[dict, int]:
    match = _STRING_RE.match(source.text, index)
    if match is None:
        raise source.error("unterminated string", index)
    raw = match.group(1)
    value, offsets = _unescape(source, raw, index + 1)
    node = {"k": "str", "v": value, "raw": raw, "offsets": offsets, "p": source.span(index, match.end())}
    return node, match.end()


def _unescape(source: _Source, raw: str, start: int) -> tuple[str, list[int] | None]:
    """The string's value and, when it had escapes, each character's offset in ``raw``."""
    if "\\" not in raw:
        return raw, None
    chars: list[str] = []
    offsets: list[int] = []
    i = 0
    length = len(raw)
    while i < length:
        char = raw[i]
        if char != "\\":
            chars.append(char)
            offsets.append(i)
            i += 1
            continue
        code = raw[i + 1]
        if code in _SIMPLE_ESCAPES:
            chars.append(_SIMPLE_ESCAPES[code])
            offsets.append(i)
            i += 2
            continue
        if code != "u" or not re.fullmatch(r"[0-9a-fA-F]{4}", raw[i + 2 : i + 6]):
            shown = f"\\{code}" if code != "u" else raw[i : i + 6]
            raise source.error(f"invalid escape `{shown}` in a string", start + i)
        point = int(raw[i + 2 : i + 6], 16)
        width = 6
        if 0xD800 <= point < 0xDC00 and raw[i + 6 : i + 8] == "\\u" and re.fullmatch(
            r"[0-9a-fA-F]{4}", raw[i + 8 : i + 12]
        ):
            low = int(raw[i + 8 : i + 12], 16)
            if 0xDC00 <= low < 0xE000:
                point = 0x10000 + ((point - 0xD800) << 10) + (low - 0xDC00)
                width = 12
        if 0xD800 <= point < 0xE000:  # a lone surrogate, as Go decodes it
            point = 0xFFFD
        chars.append(chr(point))
        offsets.append(i)
        i += width
    offsets.append(length)
    return "".join(chars), offsets


def _number(source: _Source, index: int) -> tuple[dict, int]:
    text = source.text
    match = _NUMBER_RE.match(text, index)
    end = match.end() if match else index
    if match is None or end == index or (end < len(text) and (text[end].isalnum() or text[end] in "._")):
        stop = end
        while stop < len(text) and (text[stop].isalnum() or text[stop] in "._+-"):
            stop += 1
        shown = text[index : max(stop, index + 1)]
        raise source.error(f"invalid number `{shown}`", index)
    token = match.group(0)
    if "." in token or "e" in token or "E" in token:
        number = float(token)
        value: int | float = int(number) if number.is_integer() and "e" not in token.lower() else number
    else:
        value = int(token)
    node = {"k": "num", "v": value, "p": source.span(index, end)}
    if isinstance(value, float):
        node["num"] = token  # the evaluator reads Terraform's exact number from the text
    return node, end


# -- JSON structure to Terraform bodies and expressions ----------------------------------------


def _is_object_or_objects(node: dict) -> bool:
    if node["k"] == "obj":
        return True
    return node["k"] == "arr" and all(item["k"] == "obj" for item in node["items"])


class _Builder:
    def __init__(self, source: _Source, templates: bool = True) -> None:
        self.source = source
        self.templates = templates

    # -- bodies -------------------------------------------------------------------------------

    def build(self, root: dict) -> dict:
        body: dict = {"attrs": [], "blocks": []}
        work: list[tuple[dict, dict, str | None]] = [(root, body, None)]
        while work:
            obj, out, block_type = work.pop()
            for key, key_span, value in obj["items"]:
                if key == "//":
                    continue
                labels = self._block_labels(block_type, key, value)
                if labels is None:
                    out["attrs"].append(self.attribute(key, key_span, value, block_type))
                    continue
                for block, body_node in self._blocks(key, key_span, value, labels):
                    out["blocks"].append(block)
                    work.append((body_node, block["body"], key))
        return body

    def _block_labels(self, parent: str | None, key: str, value: dict) -> int | None:
        """How many label levels ``key`` has as a block inside ``parent``; None for an attribute."""
        if not _is_object_or_objects(value):
            return None
        if parent is None:
            return _TOP_LABELS.get(key, 0)
        if parent in _ATTRIBUTE_ONLY:
            return None
        if key in _NESTED_BLOCKS or (parent == "dynamic" and key == "content"):
            return 1 if (None, key) in _LABELLED or (parent, key) in _LABELLED else 0
        return None

    def _blocks(self, block_type: str, type_span: Span, value: dict, label_levels: int):
        """(block, body node) for each block a key's value declares, in source order."""
        results: list[tuple[dict, dict]] = []
        # A stack of (node, labels, label spans, innermost key span, levels left), in source order.
        pending: list[tuple[dict, list[str], list[Span], Span, int]] = [
            (value, [], [], type_span, label_levels)]
        while pending:
            node, labels, label_spans, key_span, left = pending.pop()
            in_array = node["k"] == "arr"
            objects = node["items"] if in_array else [node]
            if left == 0:
                for body_node in objects:
                    header = self._header(key_span, body_node, in_array)
                    results.append((self._block(block_type, labels, label_spans, header, body_node), body_node))
                continue
            expanded = []
            for obj in objects:
                for label, label_span, child in obj["items"]:
                    if label == "//":
                        continue
                    if not _is_object_or_objects(child):
                        raise self.source.error_at(
                            f"expected an object for the `{block_type}` block `{label}`", child["p"]
                        )
                    expanded.append((child, labels + [label], label_spans + [label_span], label_span, left - 1))
            pending.extend(reversed(expanded))
        return results

    def _header(self, key_span: Span, body: dict, in_array: bool) -> Span:
        """The innermost key up to the body's ``{`` on its line; an array's object on a line of
        its own is headed by its ``{``."""
        open_line, open_column = self.source.position(body["open"])
        if open_line == key_span[0]:
            return span(key_span[0], key_span[1], open_line, open_column + 1)
        if in_array:
            return span(open_line, open_column, open_line, open_column + 1)
        return span(*key_span)

    def _block(self, block_type: str, labels: list, label_spans: list, header: Span, body: dict) -> dict:
        return {
            "t": "block",
            "type": shared(block_type),
            "labels": [shared(label) for label in labels],
            "label_spans": label_spans,
            "p": header,
            "span": span(header[0], header[1], body["p"][2], body["p"][3]),
            "body": {"attrs": [], "blocks": []},
        }

    def attribute(self, key: str, key_span: Span, value: dict, block_type: str | None = None) -> dict:
        static = _STATIC.get(block_type or "", {}).get(key) if self.templates else None
        expr = self._static(value, static) if static else self.expression(value)
        return {
            "t": "attribute",
            "name": shared(key),
            "p": key_span,
            "expr": expr,
            "span": span(key_span[0], key_span[1], value["p"][2], value["p"][3]),
            "c": computes(expr),
        }

    # -- expressions --------------------------------------------------------------------------

    def expression(self, root: dict) -> dict:
        """The expression node of a JSON value, built bottom-up without recursion."""
        results: dict[int, dict] = {}
        stack: list[tuple[dict, bool]] = [(root, False)]
        while stack:
            node, expanded = stack.pop()
            kind = node["k"]
            if kind not in ("obj", "arr"):
                results[id(node)] = self._leaf(node)
                continue
            children = [item[2] for item in node["items"]] if kind == "obj" else node["items"]
            if not expanded:
                stack.append((node, True))
                stack.extend((child, False) for child in children)
                continue
            if kind == "arr":
                results[id(node)] = {"t": "tuple", "items": [results.pop(id(c)) for c in children], "p": node["p"]}
            else:
                items = [[lit(key, key_span), results.pop(id(child))] for key, key_span, child in node["items"]]
                results[id(node)] = {"t": "object", "items": items, "p": node["p"]}
        return results[id(root)]

    def _leaf(self, node: dict) -> dict:
        if node["k"] != "str":
            leaf = lit(node["v"], node["p"])
            if "num" in node:
                leaf["num"] = node["num"]
            return leaf
        value = node["v"]
        if not self.templates or ("${" not in value and "%{" not in value):
            return lit(value, node["p"])
        return self._template(node)

    def _template(self, node: dict) -> dict:
        try:
            result = parse_template(node["v"], 1, 1, _parse_expression)
        except TemplateSyntaxError as error:
            line, column = self._map_position(node, error.line, error.column)
            raise JsonSyntaxError(error.message, *self.source.clamp(line, column)) from None
        self._remap(result, node)
        _drop_empty_parts(result)
        result["p"] = node["p"]
        parts = result.get("parts")
        if result["t"] == "tmpl" and parts is not None and len(parts) == 1 and isinstance(parts[0], dict):
            if parts[0]["t"] not in ("tif", "tfor"):
                result["single"] = True  # "${expr}" alone keeps the expression's own type
        return result

    def _static(self, value: dict, shape: str) -> dict:
        """An argument Terraform reads as a bare expression: ``"aws_instance.a"``, ``"list(string)"``."""
        if value["k"] == "str" and shape == "one":
            return self._bare_expression(value)
        if value["k"] == "arr" and shape == "list":
            items: list[Any] = [self._bare_expression(i) if i["k"] == "str" else self.expression(i) for i in value["items"]]
            return {"t": "tuple", "items": items, "p": value["p"]}
        if value["k"] == "str" and shape == "list":  # ignore_changes = "all"
            return self._bare_expression(value)
        if value["k"] == "obj" and shape == "map":
            items = [
                [lit(key, key_span), self._bare_expression(child) if child["k"] == "str" else self.expression(child)]
                for key, key_span, child in value["items"]
            ]
            return {"t": "object", "items": items, "p": value["p"]}
        return self.expression(value)

    def _bare_expression(self, node: dict) -> dict:
        if "${" in node["v"] or "%{" in node["v"]:
            return self._template(node)
        try:
            result = _parse_expression(node["v"])
        except TemplateSyntaxError:
            return lit(node["v"], node["p"])
        self._remap(result, node)
        return result

    def _map_position(self, node: dict, line: int, column: int) -> tuple[int, int]:
        """A position inside a string's value (1-based, from its first character) in the file."""
        value = node["v"]
        offsets = node["offsets"]
        index = column - 1
        if line > 1:
            starts = [0] + [m.end() for m in re.finditer("\n", value)]
            index += starts[min(line, len(starts)) - 1]
        index = max(0, min(len(value), index))
        raw_offset = offsets[index] if offsets is not None else index
        return node["p"][0], node["p"][1] + 1 + raw_offset

    def _remap(self, root: Any, node: dict) -> None:
        """Move every span of ``root`` from string-value coordinates to file coordinates."""
        stack = [root]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                sp = item.get("p")
                if isinstance(sp, tuple) and len(sp) == 4:
                    item["p"] = (*self._map_position(node, sp[0], sp[1]), *self._map_position(node, sp[2], sp[3]))
                stack.extend(v for k, v in item.items() if k != "p")
            elif isinstance(item, list):
                stack.extend(item)


def _drop_empty_parts(root: dict) -> None:
    """Drop the empty literals ``parse_template`` leaves around sequences, as quoted HCL has none."""
    stack = [root]
    while stack:
        node = stack.pop()
        for key in _PART_LISTS.get(node.get("t", ""), ()):
            node[key] = [part for part in node[key] if part != ""]
            stack.extend(part for part in node[key] if isinstance(part, dict))


_PART_LISTS = {"tmpl": ("parts",), "tif": ("then", "else"), "tfor": ("body",)}


def _parse_expression(text: str, line_offset: int = 0, column_offset: int = 0) -> dict:
    """The HCL adapter's expression parser, its errors placed in the template's coordinates."""
    from kapsulint.parsing.hcl import HclSyntaxError, parse_expression

    try:
        return parse_expression(text, line_offset, column_offset)
    except HclSyntaxError as error:
        column = error.column + column_offset if error.line == 1 else error.column
        raise TemplateSyntaxError(error.message, error.line + line_offset, column) from None
