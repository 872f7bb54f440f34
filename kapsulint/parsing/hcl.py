"""HCL files through python-hcl2's grammar, converted to parser-neutral data.

We build the Lark parser ourselves from the grammar python-hcl2 ships, so that its grammar cache
lives in kapsulint's cache directory (python-hcl2 would write one into site-packages), and we
convert the raw lark tree iteratively (python-hcl2's own transformer recurses and keeps quotes).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from kapsulint.cachedir import cache_dir
from kapsulint.parsing import lit, span
from kapsulint.parsing.template import assemble, parse_template

MAX_DEPTH = 500

_Token: Any = ()  # lark's Token class once the parser is built (lark is imported only to parse)

_BINARY_OPERATORS = {"==", "!=", "<", ">", "<=", ">=", "-", "*", "/", "%", "&&", "||", "+"}


class HclSyntaxError(Exception):
    """A file that does not parse, with a readable message and the position of the problem."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


@lru_cache(maxsize=None)
def _parser():  # -> lark.Lark
    """The LALR parser, converting as it reduces: no parse tree is ever built (the conversion is as
    iterative as the parser itself, and the tree's memory and time are saved).

    Only python-hcl2's grammar file is used: importing the package would load its builder,
    reconstructor and rule classes, which cost every parsing process time and memory."""
    import importlib.util

    from kapsulint.cache import installed_versions

    lark = _import_lark()

    global _Token
    _Token = lark.Token
    spec = importlib.util.find_spec("hcl2")  # finds the package without importing it
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("python-hcl2 is not installed")
    grammar = Path(spec.submodule_search_locations[0]) / "hcl2.lark"
    options: dict[str, Any] = dict(
        parser="lalr",
        postlex=_PostLexer(),
        start=["start", "expression"],
        maybe_placeholders=False,
        transformer=_CONVERTER,
    )
    directory = cache_dir()
    if directory is not None:
        version = installed_versions().get("python_hcl2", "x")
        cache_file = directory / f"grammar-hcl2-{version}-lark-{lark.__version__}.cache"
        try:
            return lark.Lark.open(str(grammar), cache=str(cache_file), **options)
        except OSError:
            pass
    return lark.Lark.open(str(grammar), **options)


def _import_lark():
    """lark, kept from importing the third-party ``regex`` module (installed for python-hcl2),
    which it loads only to offer an option this adapter never sets: every parsing process then
    saves the module's 2 MB and its import time."""
    import sys

    if "lark" in sys.modules or "regex" in sys.modules:
        import lark

        return lark
    sys.modules["regex"] = None  # type: ignore[assignment]  # import regex now raises ImportError
    try:
        import lark
    finally:
        del sys.modules["regex"]
    return lark


def parse_hcl(text: str) -> dict:
    """Parse a whole HCL file: ``{"body": ..., "comments": [[line, col, text], ...]}``."""
    text = _normalise(text)
    outer = _CONVERTER.comments
    _CONVERTER.comments = comments = []
    try:
        body = _parse(text, "start")
    finally:
        _CONVERTER.comments = outer
    return {"body": body, "comments": comments}


def parse_expression(text: str, line_offset: int = 0, column_offset: int = 0) -> dict:
    """Parse one expression (a template's ``${...}``); spans are shifted by the offsets."""
    outer = _CONVERTER.comments
    _CONVERTER.comments = []
    try:
        node = _as_expr(_parse(text, "expression"))
    finally:
        _CONVERTER.comments = outer
    if line_offset or column_offset:
        _shift(node, line_offset, column_offset)
    return node


class _PostLexer:
    """The token stream between lark's lexer and the parser, in one pass.

    A newline before a binary operator continues the expression: an LALR parser cannot tell it
    from the newline that ends an attribute, so python-hcl2's grammar expects it merged into the
    operator's token (as python-hcl2's own post-lexer does; ``-`` is left out, being unary too).
    The pass also counts nesting: the token that opens a level past MAX_DEPTH (blocks, braces,
    brackets, parentheses, template sequences) is KAP001, before the parser's stack can overflow.
    """

    _CONTINUING = frozenset({
        "DOUBLE_EQ", "NEQ", "LT", "GT", "LEQ", "GEQ", "ASTERISK", "SLASH", "PERCENT", "DOUBLE_AMP",
        "DOUBLE_PIPE", "PLUS", "QMARK",
    })
    _OPENERS = frozenset({"LBRACE", "LSQB", "LPAR", "INTERP_START", "DIRECTIVE_START"})
    _CLOSERS = frozenset({"RBRACE", "RSQB", "RPAR"})
    always_accept = ()

    def process(self, stream):
        depth = 0
        newline = None  # a newline token held back until the next token shows what it is
        for token in stream:
            kind = token.type
            if kind == "NL_OR_COMMENT":
                if newline is not None:
                    yield newline
                newline = token
                continue
            if newline is not None:
                if kind in self._CONTINUING:
                    token = token.update(value=str(newline) + str(token))
                else:
                    yield newline
                newline = None
            if kind in self._OPENERS:
                depth += 1
                if depth > MAX_DEPTH:
                    raise HclSyntaxError(f"nesting deeper than {MAX_DEPTH} levels", token.line, token.column)
            elif kind in self._CLOSERS:
                depth -= 1
            yield token
        if newline is not None:
            yield newline


def _normalise(text: str) -> str:
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    # The grammar needs a newline after the last attribute and after a heredoc's closing marker.
    if not text.endswith("\n"):
        text += "\n"
    return text


def _parse(text: str, start: str):
    import lark

    try:
        return _parser().parse(text, start=start)
    except lark.exceptions.UnexpectedInput as error:
        raise _syntax_error(error, text) from None
    except RecursionError:
        raise HclSyntaxError("nesting too deep", 1, 1) from None


def _syntax_error(error, text: str) -> HclSyntaxError:
    import lark

    line = getattr(error, "line", None)
    column = getattr(error, "column", None)
    if isinstance(error, lark.exceptions.UnexpectedEOF) or line in (None, -1):
        line, column = _end_of(text)
        expected = _readable_expected(getattr(error, "expected", ()))
        return HclSyntaxError(f"unexpected end of input{expected}", line, column)
    if isinstance(error, lark.exceptions.UnexpectedCharacters):
        char = text[error.pos_in_stream] if error.pos_in_stream < len(text) else ""
        shown = repr(char) if char.strip() else "whitespace"
        message = f"unexpected character {shown}"
        if char in "{}":
            message = f"unexpected `{char}`"
        return HclSyntaxError(message, line, column)
    token = getattr(error, "token", None)
    expected = _readable_expected(getattr(error, "expected", ()) or getattr(error, "accepts", ()))
    if token is not None and token.type == "$END":
        line, column = _end_of(text)
        return HclSyntaxError(f"unexpected end of input{expected}", line, column)
    found = str(token).strip() if token is not None else ""
    found = found.splitlines()[0] if found else "newline"
    return HclSyntaxError(f"unexpected `{found}`{expected}", line, column)


_TOKEN_NAMES = {
    "RBRACE": "}", "LBRACE": "{", "RSQB": "]", "LSQB": "[", "RPAR": ")", "LPAR": "(",
    "EQ": "=", "COLON": ":", "COMMA": ",", "DBLQUOTE": '"', "QMARK": "?", "DOT": ".",
    "NL_OR_COMMENT": "newline", "NAME": "a name", "INTERP_START": "${", "DIRECTIVE_START": "%{",
}


def _readable_expected(expected) -> str:
    names = sorted({_TOKEN_NAMES[name] for name in expected if name in _TOKEN_NAMES})
    if not names:
        return ""
    if len(names) > 4:
        names = [n for n in names if n in "}])\"="] or names[:4]
    return ": expected " + " or ".join(f"`{n}`" for n in names)


def _end_of(text: str) -> tuple[int, int]:
    """The position of the last character of the file (design.md §5, KAP001)."""
    stripped = text.rstrip("\n")
    if not stripped:
        return 1, 1
    lines = stripped.split("\n")
    return len(lines), max(1, len(lines[-1]))


def _shift(node: Any, lines: int, columns: int) -> None:
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            sp = item.get("p")
            if isinstance(sp, list) and len(sp) == 4:
                if sp[0] == 1:
                    sp[1] += columns
                if sp[2] == 1:
                    sp[3] += columns
                sp[0] += lines
                sp[2] += lines
            stack.extend(v for k, v in item.items() if k != "p")
        elif isinstance(item, list):
            stack.extend(item)


def _tok_span(token) -> list[int]:
    return span(token.line, token.column, token.end_line, token.end_column)


def _meta_span(tree) -> list[int]:
    """The span of a reduction, from its first and last children that have a position."""
    start = end = None
    for child in tree.children:
        position = _position(child)
        if position is not None:
            start = position
            break
    for child in reversed(tree.children):
        position = _position(child)
        if position is not None:
            end = position
            break
    if start is None or end is None:
        return span(1, 1, 1, 1)
    return span(start[0], start[1], end[2], end[3])


def _position(child) -> list[int] | None:
    if isinstance(child, _Token):
        return [child.line, child.column, child.end_line, child.end_column]
    if isinstance(child, dict):
        if "span" in child:
            return child["span"]
        if "p" in child:
            return child["p"]
        for key in ("coll", "cond", "e"):
            if isinstance(child.get(key), dict):
                return _position(child[key])
        items = child.get("items")
        if items:
            first, last = _position(items[0]), _position(items[-1])
            if first and last:
                return [first[0], first[1], last[2], last[3]]
        return None
    if isinstance(child, tuple):
        if len(child) >= 2 and isinstance(child[1], list) and len(child[1]) == 4:
            return child[1]
        found = [p for p in (_position(c) for c in child) if p]
        return [found[0][0], found[0][1], found[-1][2], found[-1][3]] if found else None
    if isinstance(child, list) and child:
        first, last = _position(child[0]), _position(child[-1])
        if first and last:
            return [first[0], first[1], last[2], last[3]]
    return None


_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}
_ESCAPE_RE = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)", re.S)


def unescape(chars: str) -> str:
    """HCL's string escapes, and the ``$${`` / ``%%{`` literal forms."""

    def replace(match: re.Match) -> str:
        code = match.group(1)
        if code[0] in "uU" and len(code) > 1:
            return chr(int(code[1:], 16))
        return _ESCAPES.get(code, "\\" + code)

    text = _ESCAPE_RE.sub(replace, chars) if "\\" in chars else chars
    return text.replace("$${", "${").replace("%%{", "%{")


class _Reduction:
    """What a handler sees of one reduced rule: its name and its (already converted) children."""

    __slots__ = ("data", "children")

    def __init__(self, data: str, children: list) -> None:
        self.data = data
        self.children = children


class _Converter:
    """Callbacks the LALR parser calls on each reduction, children already converted.

    Lark finds a rule's callback as an attribute named after the rule; ``_<rule>`` methods are
    served through ``__getattr__``.
    """

    def __init__(self) -> None:
        self.comments: list[list] = []

    def __getattr__(self, name: str):
        handler = type(self).__dict__.get("_" + name)
        if handler is None or name.startswith("_"):
            raise AttributeError(name)

        def callback(children: list, handler=handler, name=name):
            return handler(self, _Reduction(name, children), children)

        return callback

    # -- structure ---------------------------------------------------------------------------

    def _start(self, tree, children):
        return children[0]

    def _body(self, tree, children):
        attrs, blocks = [], []
        for child in children:
            if isinstance(child, dict):
                if child["t"] == "attribute":
                    attrs.append(child)
                elif child["t"] == "block":
                    blocks.append(child)
        return {"attrs": attrs, "blocks": blocks}

    def _new_line_or_comment(self, tree, children):
        for token in children:
            self._collect_comment(token)
        return None

    def _collect_comment(self, token) -> None:
        value = str(token)
        # Operators may carry a merged newline or comment prefix (python-hcl2's post-lexer).
        for match in re.finditer(r"#[^\n]*|//[^\n]*|/\*.*?\*/", value, re.S):
            before = value[: match.start()]
            line = token.line + before.count("\n")
            column = (len(before) - before.rfind("\n")) if "\n" in before else token.column + len(before)
            self.comments.append([line, column, match.group(0).rstrip("\r")])

    def _attribute(self, tree, children):
        name, name_span = children[0]
        expr = children[-1]
        return {"t": "attribute", "name": name, "p": name_span, "expr": expr, "span": _meta_span(tree)}

    def _block(self, tree, children):
        labels, label_spans = [], []
        block_type = None
        type_span = None
        open_brace = None
        body = {"attrs": [], "blocks": []}
        for child in children:
            if isinstance(child, _Token):
                if child.type == "LBRACE" and open_brace is None:
                    open_brace = child
                continue
            if isinstance(child, tuple):  # a bare name
                if block_type is None:
                    block_type, type_span = child
                else:
                    labels.append(child[0])
                    label_spans.append(child[1])
            elif isinstance(child, dict) and child.get("t") in ("tmpl", "lit"):
                labels.append(_plain_text(child) if child["t"] == "tmpl" else str(child["v"]))
                label_spans.append(child["p"])
            elif isinstance(child, dict) and "attrs" in child:
                body = child
        assert type_span is not None
        end_column = open_brace.end_column if open_brace is not None and open_brace.line == type_span[0] else None
        if end_column is None:
            end_column = (label_spans[-1] if label_spans else type_span)[3]
        header = span(type_span[0], type_span[1], type_span[0], end_column)
        return {
            "t": "block",
            "type": block_type,
            "labels": labels,
            "label_spans": label_spans,
            "p": header,
            "span": _meta_span(tree),
            "body": body,
        }

    def _identifier(self, tree, children):
        token = children[0]
        return (str(token), _tok_span(token))

    _keyword = _identifier

    def _literal_value(self, tree, children):
        token = children[0]
        value = {"true": True, "false": False, "null": None}[str(token)]
        return (str(token), _tok_span(token), value)

    # -- literals and strings -------------------------------------------------------------

    def _int_lit(self, tree, children):
        token = children[0]
        return lit(int(str(token)), _tok_span(token))

    def _float_lit(self, tree, children):
        token = children[0]
        value = float(str(token))
        return lit(int(value) if value.is_integer() and "e" not in str(token).lower() else value, _tok_span(token))

    def _string(self, tree, children):
        parts: list[Any] = []
        for child in children:
            if isinstance(child, _Token):
                continue
            parts.append(child)
        return _template_node(_assemble_directives(parts), _meta_span(tree))

    def _string_part(self, tree, children):
        child = children[0]
        if isinstance(child, _Token):
            return unescape(str(child))
        return child

    def _interpolation(self, tree, children):
        return children[1]

    def _template_if_start(self, tree, children):
        return {"t": "_if", "cond": _first_node(children), "p": _meta_span(tree), "strip": _strips(children)}

    def _template_else(self, tree, children):
        return {"t": "_else", "p": _meta_span(tree), "strip": _strips(children)}

    def _template_endif(self, tree, children):
        return {"t": "_endif", "p": _meta_span(tree), "strip": _strips(children)}

    def _template_for_start(self, tree, children):
        names = [c[0] for c in children if isinstance(c, tuple)]
        coll = _first_node(children)
        key_name, value_name = (names[0], names[1]) if len(names) == 2 else (None, names[0])
        return {"t": "_for", "kv": key_name, "vv": value_name, "coll": coll, "p": _meta_span(tree),
                "strip": _strips(children)}

    def _template_endfor(self, tree, children):
        return {"t": "_endfor", "p": _meta_span(tree), "strip": _strips(children)}

    def _template_string(self, tree, children):
        token = children[0]
        raw = str(token)[2:-2]
        return lit(unescape(raw), _tok_span(token))

    def _heredoc_template(self, tree, children, trim: bool = False):
        token = children[0]
        text = str(token)
        first_newline = text.index("\n")
        marker = text[2:first_newline].lstrip("-")
        body = text[first_newline + 1 :]
        body = body[: body.rstrip().rfind(marker)] if body.rstrip().endswith(marker) else body
        body_lines = body.split("\n")
        indent = 0
        if trim:
            widths = [len(l) - len(l.lstrip(" \t")) for l in body_lines if l.strip()]
            indent = min(widths) if widths else 0
            body = "\n".join(l[indent:] for l in body_lines)
        sp = _tok_span(token)
        node = parse_template(body, token.line + 1, 1 + indent, parse_expression)
        node["p"] = span(sp[0], sp[1], sp[0], sp[1] + first_newline)
        node["heredoc"] = {"line": token.line + 1, "indent": indent}
        return node

    def _heredoc_template_trim(self, tree, children):
        return self._heredoc_template(tree, children, trim=True)

    # -- expressions ----------------------------------------------------------------------

    def _expr_term(self, tree, children):
        nodes = [c for c in children if not _is_token(c) and c is not None]
        node = _as_expr(nodes[0])
        if _is_token(children[0]) and str(children[0]) == "(":
            return {"t": "paren", "e": node, "p": _meta_span(tree)}
        return node

    def _conditional(self, tree, children):
        nodes = [_as_expr(c) for c in children if not _is_token(c) and c is not None]
        return {"t": "cond", "test": nodes[0], "then": nodes[1], "else": nodes[2], "p": _meta_span(tree)}

    def _binary_op(self, tree, children):
        nodes = [c for c in children if not _is_token(c) and c is not None]
        left, (operator, right) = _as_expr(nodes[0]), nodes[1]
        return {"t": "op", "op": operator, "args": [left, right], "p": _meta_span(tree)}

    def _binary_term(self, tree, children):
        nodes = [c for c in children if not _is_token(c) and c is not None]
        return (nodes[0], _as_expr(nodes[1]))

    def _binary_operator(self, tree, children):
        return str(children[0]).strip()

    def _unary_op(self, tree, children):
        operator = str(children[0]).strip()
        operand = _as_expr(children[1])
        if operator == "-" and operand["t"] == "lit" and isinstance(operand["v"], (int, float)):
            return lit(-operand["v"], _meta_span(tree))
        return {"t": "op", "op": "neg" if operator == "-" else "!", "args": [operand], "p": _meta_span(tree)}

    def _tuple(self, tree, children):
        items = [_as_expr(c) for c in children if not _is_token(c) and c is not None]
        return {"t": "tuple", "items": items, "p": _meta_span(tree)}

    def _object(self, tree, children):
        items = [c for c in children if isinstance(c, list)]
        return {"t": "object", "items": items, "p": _meta_span(tree)}

    def _object_elem(self, tree, children):
        nodes = [c for c in children if not _is_token(c) and c is not None]
        return [nodes[0], _as_expr(nodes[1])]

    def _object_elem_key(self, tree, children):
        key = children[0]
        if isinstance(key, tuple):  # a keyword used as a key
            return lit(key[0], key[1])
        key = _as_expr(key)
        if key["t"] == "var":  # a bare name is the key's text, not a reference
            return lit(key["name"], key["p"])
        return key

    def _function_call(self, tree, children):
        names = [c[0] for c in children if isinstance(c, tuple)]
        args_node = next((c for c in children if isinstance(c, dict) and c.get("t") == "_args"), None)
        args = args_node["items"] if args_node else []
        expand = bool(args_node and args_node["expand"])
        return {"t": "call", "name": "::".join(names), "args": args, "expand": expand, "p": _meta_span(tree)}

    def _arguments(self, tree, children):
        items = [_as_expr(c) for c in children if not _is_token(c) and c is not None]
        expand = any(_is_token(c) and c.type == "ELLIPSIS" for c in children)
        return {"t": "_args", "items": items, "expand": expand}

    # Index, attribute and splat steps come back as ``_step`` nodes carrying their own span, so the
    # expression that applies them spans its brackets and names.

    def _index_expr_term(self, tree, children):
        obj, step = _as_expr(children[0]), children[1]
        return {"t": "index", "obj": obj, "key": step["key"], "p": _meta_span(tree)}

    def _braces_index(self, tree, children):
        key = _as_expr(next(c for c in children if not _is_token(c) and c is not None))
        return {"t": "_step", "kind": "index", "key": key, "p": _meta_span(tree)}

    def _short_index(self, tree, children):
        token = children[1]
        return {"t": "_step", "kind": "index", "key": lit(int(str(token)), _tok_span(token)), "p": _meta_span(tree)}

    def _get_attr_expr_term(self, tree, children):
        obj, step = _as_expr(children[0]), children[1]
        return {"t": "attr", "obj": obj, "name": step["name"], "p": _meta_span(tree)}

    def _get_attr(self, tree, children):
        return {"t": "_step", "kind": "attr", "name": children[1][0], "p": _meta_span(tree)}

    def _attr_splat_expr_term(self, tree, children):
        return {"t": "splat", "obj": _as_expr(children[0]), "ops": children[1]["ops"], "p": _meta_span(tree)}

    _full_splat_expr_term = _attr_splat_expr_term

    def _attr_splat(self, tree, children):
        ops = []
        for step in children[1:]:
            ops.append(["attr", step["name"]] if step["kind"] == "attr" else ["index", step["key"]])
        return {"t": "_ops", "ops": ops, "p": _meta_span(tree)}

    _full_splat = _attr_splat

    def _for_tuple_expr(self, tree, children):
        nodes = [c for c in children if not _is_token(c) and c is not None]
        intro, value = nodes[0], _as_expr(nodes[1])
        cond = nodes[2]["cond"] if len(nodes) > 2 else None
        return {"t": "for", **intro, "key": None, "value": value, "cond": cond, "group": False,
                "p": _meta_span(tree)}

    def _for_object_expr(self, tree, children):
        nodes = [c for c in children if not _is_token(c) and c is not None]
        intro, key, value = nodes[0], _as_expr(nodes[1]), _as_expr(nodes[2])
        cond = nodes[3]["cond"] if len(nodes) > 3 else None
        group = any(_is_token(c) and c.type == "ELLIPSIS" for c in children)
        return {"t": "for", **intro, "key": key, "value": value, "cond": cond, "group": group,
                "p": _meta_span(tree)}

    def _for_intro(self, tree, children):
        names = [c[0] for c in children if isinstance(c, tuple)]
        coll = _as_expr(next(c for c in children if isinstance(c, dict)))
        key_name, value_name = (names[0], names[1]) if len(names) == 2 else (None, names[0])
        return {"kv": key_name, "vv": value_name, "coll": coll}

    def _for_cond(self, tree, children):
        return {"cond": _as_expr(next(c for c in children if not _is_token(c) and c is not None))}


def _is_token(value) -> bool:
    return isinstance(value, _Token)


def _as_expr(value) -> dict:
    """Names and keyword literals become expression nodes where an expression is expected."""
    if isinstance(value, tuple):
        if len(value) == 3:
            return lit(value[2], value[1])
        return {"t": "var", "name": value[0], "p": value[1]}
    return value


def _first_node(children) -> dict:
    return _as_expr(next(c for c in children if isinstance(c, dict) or (isinstance(c, tuple) and len(c) == 3)))


def _strips(children) -> list[bool]:
    marks = [i for i, c in enumerate(children) if _is_token(c) and c.type == "STRIP_MARKER"]
    return [bool(marks and marks[0] == 1), bool(marks and marks[-1] == len(children) - 2)]


def _plain_text(node: dict) -> str:
    return "".join(p for p in node["parts"] if isinstance(p, str))


def _template_node(parts: list, sp: list[int]) -> dict:
    if all(isinstance(p, str) for p in parts):
        return lit("".join(parts), sp)
    if len(parts) == 1 and isinstance(parts[0], dict) and parts[0]["t"] not in ("tif", "tfor"):
        # "${expr}" alone keeps the expression's own type, as in Terraform.
        return {"t": "tmpl", "parts": parts, "p": sp, "single": True}
    return {"t": "tmpl", "parts": parts, "p": sp}


def _assemble_directives(flat: list) -> list:
    return assemble([_as_expr(p) if isinstance(p, tuple) else p for p in flat])


_CONVERTER = _Converter()
