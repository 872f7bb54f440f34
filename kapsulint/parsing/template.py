"""HCL templates outside quoted strings: heredoc bodies and ``templatefile()`` files.

The grammar reads a heredoc as one token, so its ``${...}`` and ``%{...}`` sequences are found
here and each expression inside is handed back to the HCL expression parser.

As in hclsyntax, the literal text of these templates is a token per line, and that shapes two
rules (https://github.com/hashicorp/hcl/blob/v2.23.0/hclsyntax/parser_template.go): a ``~`` strip
marker trims the whitespace of the one literal token next to it, never past the line it is on
(``%{ for x in l ~}`` then ``  ${x}`` on the next line keeps the two spaces); and a ``<<-``
heredoc then loses the smallest indentation of the tokens that start a line, where a line that
starts with a sequence, or whose leading literal a marker emptied, counts as indentation 0 and a
blank line is not counted.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from kapsulint.parsing import lit, span
from kapsulint.parsing.scan import sequence_end
from kapsulint.text import lazy_pattern

_DIRECTIVE_WORDS = ("if", "else", "endif", "for", "endfor")
_NAME = r"[^\W\d][\w\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f-]*"  # as the HCL grammar's
_FOR_INTRO = lazy_pattern(rf"\s+({_NAME})\s*(?:,\s*({_NAME})\s*)?(?<=\s)in(?P<coll>(?![\w-]).*)\Z", re.S)
_KEYWORD = lazy_pattern(_NAME)


class TemplateSyntaxError(Exception):
    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


_LINES = lazy_pattern(r"[^\n]*\n|[^\n]+")


def parse_template(text: str, line: int, column: int, parse_expression: Callable[..., dict]) -> dict:
    """A template node for ``text``, whose lines start at ``line``:``column`` and below."""
    return _parse(text, line, column, parse_expression, flush=False)[0]


def parse_heredoc(text: str, line: int, flush: bool, parse_expression: Callable[..., dict]) -> tuple[dict, int]:
    """A heredoc body's template node (lines from ``line``, column 1) and the indentation a ``<<-``
    heredoc (``flush``) removed from its lines."""
    return _parse(text, line, 1, parse_expression, flush)


def _parse(text: str, line: int, column: int, parse_expression: Callable[..., dict],
           flush: bool) -> tuple[dict, int]:
    flat: list = []
    literal: list[str] = []
    index = 0
    cur_line, cur_col = line, column
    length = len(text)

    def advance(upto: int) -> None:
        nonlocal cur_line, cur_col, index
        chunk = text[index:upto]
        newlines = chunk.count("\n")
        if newlines:
            cur_line += newlines
            cur_col = column + len(chunk) - chunk.rfind("\n") - 1
        else:
            cur_col += len(chunk)
        index = upto

    while index < length:
        opener = _next_opener(text, index)
        if opener < 0:
            literal.append(text[index:])
            break
        if text.startswith("$${", opener) or text.startswith("%%{", opener):
            literal.append(text[index:opener] + text[opener + 1 : opener + 3])
            advance(opener + 3)
            continue
        literal.append(text[index:opener])
        advance(opener)
        close = sequence_end(text, opener + 2)
        if close < 0:
            raise TemplateSyntaxError("unclosed template sequence: expected `}`", cur_line, cur_col)
        inner = text[opener + 2 : close]
        start_line, start_col = cur_line, cur_col
        if literal:
            flat.extend(_LINES.findall("".join(literal)))
            literal = []
        if text[opener] == "$":
            expr_text = inner.strip("~")
            lead = len(inner) - len(inner.lstrip("~"))
            node = parse_expression(expr_text, start_line - 1, start_col + 2 + lead - 1)
            flat.append({"t": "_strip", "strip": [inner.startswith("~"), inner.endswith("~")], "e": node})
        else:
            flat.append(_directive(inner, start_line, start_col, parse_expression))
        advance(close + 1)
    if literal:
        flat.extend(_LINES.findall("".join(literal)))
    flat = _apply_strip_markers(flat)
    indent = _flush(flat) if flush else 0
    parts = _nest(_merge_literals(flat))
    node = {"t": "tmpl", "parts": parts, "p": span(line, column, cur_line, cur_col)}
    if all(isinstance(p, str) for p in parts):
        node = lit("".join(parts), node["p"])
    return node, indent


def _flush(flat: list) -> int:
    """Remove, in place, the smallest indentation of the line-leading literals; return it
    (hclsyntax's ``flushHeredocTemplateParts``)."""
    smallest = None
    adjust = []
    newline = True
    for index, part in enumerate(flat):
        if newline:
            newline = False
            if isinstance(part, str):
                trimmed = part.lstrip()
                if trimmed or not part.endswith("\n"):  # a blank line does not count
                    spaces = len(part) - len(trimmed)
                    adjust.append(index)
                    smallest = spaces if smallest is None else min(smallest, spaces)
            else:
                smallest = 0
        if isinstance(part, str) and part.endswith("\n"):
            newline = True
    if smallest:
        for index in adjust:
            flat[index] = flat[index][smallest:]
    return smallest or 0


def _merge_literals(flat: list) -> list:
    merged: list = []
    for part in flat:
        if isinstance(part, str):
            if not part:
                continue
            if merged and isinstance(merged[-1], str):
                merged[-1] += part
                continue
        merged.append(part)
    return merged


def _next_opener(text: str, start: int) -> int:
    dollar = text.find("${", start)
    percent = text.find("%{", start)
    candidates = [i for i in (dollar, percent) if i >= 0]
    found = min(candidates) if candidates else -1
    if found > 0 and text[found - 1] == text[found]:  # $${ or %%{
        return found - 1
    return found


def _directive(inner: str, line: int, column: int, parse_expression) -> dict:
    strip = [inner.startswith("~"), inner.endswith("~")]
    body = inner.strip("~")
    lead = len(inner) - len(inner.lstrip("~"))
    stripped = body.lstrip()
    offset = lead + len(body) - len(stripped)
    # The keyword is an identifier token: ``%{if(x)}`` is an ``if``, as hclsyntax's scanner reads it.
    keyword = _KEYWORD.match(stripped)
    word = keyword.group() if keyword else (stripped.split(None, 1)[0] if stripped.split() else "")
    sp = span(line, column, line, column + len(inner) + 3)
    if word not in _DIRECTIVE_WORDS:
        raise TemplateSyntaxError(f"unknown template directive `{word}`", line, column)
    rest = stripped[len(word):]
    if word in ("else", "endif", "endfor"):
        if rest.strip():
            raise TemplateSyntaxError(f"extra characters after `{word}` in a template directive", line, column)
        return {"t": "_" + word, "p": sp, "strip": strip}
    rest_col = column + 2 + offset + len(word)
    if word == "if":
        cond = parse_expression(rest, line - 1, rest_col - 1)
        return {"t": "_if", "cond": cond, "p": sp, "strip": strip}
    intro = _FOR_INTRO.match(rest)
    if intro is None:
        raise TemplateSyntaxError("invalid for directive: expected `for NAME in` or `for KEY, VALUE in`",
                                  line, column)
    coll = parse_expression(intro.group("coll"), line - 1, rest_col + intro.start("coll") - 1)
    key_name, value_name = (intro.group(1), intro.group(2)) if intro.group(2) else (None, intro.group(1))
    return {"t": "_for", "kv": key_name, "vv": value_name, "coll": coll, "p": sp, "strip": strip}


def assemble(flat: list) -> list:
    """Nest flat directive markers into ``tif`` and ``tfor`` nodes, applying ``~`` strip markers
    (a quoted string's literal between two sequences is one token, stripped as a whole)."""
    return _nest(_apply_strip_markers(flat))


def _nest(flat: list) -> list:
    root: list = []
    stack: list[tuple[dict, list]] = []
    current = root
    for part in flat:
        kind = part.get("t") if isinstance(part, dict) else None
        if kind == "_if":
            node = {"t": "tif", "cond": part["cond"], "then": [], "else": [], "p": part["p"]}
            current.append(node)
            stack.append((node, current))
            current = node["then"]
        elif kind == "_else":
            if not stack or stack[-1][0]["t"] != "tif":
                raise TemplateSyntaxError("`else` without `if`", part["p"][0], part["p"][1])
            if current is stack[-1][0]["else"]:
                raise TemplateSyntaxError("a second `else` for one `if`", part["p"][0], part["p"][1])
            current = stack[-1][0]["else"]
        elif kind == "_endif":
            if not stack or stack[-1][0]["t"] != "tif":
                raise TemplateSyntaxError("`endif` without `if`", part["p"][0], part["p"][1])
            current = stack.pop()[1]
        elif kind == "_for":
            node = {"t": "tfor", "kv": part["kv"], "vv": part["vv"], "coll": part["coll"], "body": [],
                    "p": part["p"]}
            current.append(node)
            stack.append((node, current))
            current = node["body"]
        elif kind == "_endfor":
            if not stack or stack[-1][0]["t"] != "tfor":
                raise TemplateSyntaxError("`endfor` without `for`", part["p"][0], part["p"][1])
            current = stack.pop()[1]
        else:
            current.append(part)
    if stack:
        sp = stack[-1][0]["p"]
        raise TemplateSyntaxError("unclosed template directive", sp[0], sp[1])
    return root


def _apply_strip_markers(flat: list) -> list:
    result = list(flat)
    for i, part in enumerate(result):
        if not isinstance(part, dict) or "strip" not in part:
            continue
        left, right = part["strip"]
        if left and i > 0 and isinstance(result[i - 1], str):
            result[i - 1] = result[i - 1].rstrip()
        if right and i + 1 < len(result) and isinstance(result[i + 1], str):
            result[i + 1] = result[i + 1].lstrip()
    # Interpolations only carried their strip markers for the step above.
    return [p["e"] if isinstance(p, dict) and p.get("t") == "_strip" else p for p in result]
