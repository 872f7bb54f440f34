r"""HCL files through python-hcl2's grammar, converted to parser-neutral data.

We build the Lark parser ourselves from the grammar python-hcl2 ships, so that its grammar cache
lives in kapsulint's cache directory (python-hcl2 would write one into site-packages), and we
convert the raw lark tree iteratively (python-hcl2's own transformer recurses and keeps quotes).

The file accepted must be exactly what Terraform accepts: ``terraform fmt`` is the oracle, and
tests/test_parse_conformance.py holds its recorded verdicts. The reference is HCL's native syntax
(https://github.com/hashicorp/hcl/blob/v2.23.0/hclsyntax/spec.md) as hclsyntax implements it.
python-hcl2's grammar departs from it; kapsulint corrects it where it is loaded
(:func:`patch_grammar`), in the post-lexer (:class:`_PostLexer`) and in the conversion:

- newlines are significant only in bodies and objects: ignored inside ``( )``, ``[ ]``, ``${ }``,
  ``%{ }`` and ``for`` expressions, and never continuing an expression (``a = 1 +`` then ``2`` on
  the next line is an error, as is a line starting with an operator);
- body items end with a newline (``a = 1 b = 2``, ``a {} b = 1`` are errors); a block's ``{`` is on
  the line of its type; a one-line block holds one attribute at most (``a { b = 1 }``);
- object elements are separated by a comma or a newline, a comma never at the start of a line;
- ``/* */`` comments are whitespace (between block labels too), ``#`` and ``//`` comments are
  newlines;
- identifiers are Unicode (a letter or ``_``, then ID_Continue characters or ``-``) and may be
  ``null``, ``true`` or ``false`` (attributes, block types and labels, function names);
  ``{ for = 1 }`` and ``[for ...`` open a ``for`` expression;
- a byte order mark may start the file, nowhere else;
- strings: only HCL's escapes (``\n \r \t \" \\ \uNNNN \UNNNNNNNN``, of a Unicode scalar value),
  no raw newline, ``$${`` and ``%%{`` alone are literal, ``~`` strip markers on interpolations as on
  directives (touching their brace), one ``else`` per ``if``; no python-hcl2 ``\"`` strings in
  expressions;
- quoted block labels are literal strings, without interpolations or directives;
- numbers have no sign (``-`` is the unary operator, and unary operators stack: ``!!a``,
  ``- -1``); a number followed by ``.`` and a digit is invalid, and so is a legacy index ``a.0.1``
  (``a.1e5`` is index 100000, as in hclsyntax);
- an attribute-only splat ends at the first ``[`` (``a.*.b[0]`` indexes the result), and cannot
  hold another (``a.*.*``); a full splat takes every traversal step after it, a splat too
  (``a[*].b[*].c`` applies ``.b[*].c`` to each element); ``a . * . b`` and ``a[ * ]`` are splats;
- a heredoc's markers are identifiers; its closing marker may be indented and followed by spaces,
  then a newline of the file (a heredoc cannot end the file); a line of its marker inside one of
  its ``${ }`` or ``%{ }`` sequences closes nothing (braces, strings and heredocs of the same marker
  nest in them to any depth); a carriage return in it must start a ``\r\n`` newline; provider
  functions have any number of ``::`` parts (``foo::upper("x")``);
- an attribute defined twice in one body is a syntax error (hclsyntax reports it while parsing).

Deviations kept: the error messages are kapsulint's, not Terraform's, and locate the token where
the grammar stopped, which may be later than the place hclsyntax names. Identifiers are checked
with Python's XID_Start and XID_Continue (Unicode 14 in Python 3.11), which differ from HCL's
ID_Start and ID_Continue tables on a few compatibility characters. Nesting deeper than
MAX_DEPTH (50,000) levels is KAP001, where each bracket, block, ``${ }``, directive and each term
chained onto an expression (an operator, ``?``, an attribute or index step) is a level: Terraform
1.11 parses 50,000 levels of each and overflows its stack near 100,000, and past the limit a
hostile file stops at the token that goes past it instead of costing a minute and a gigabyte.
Heredocs nested in heredocs stop at MAX_HEREDOC_DEPTH (500), since each is parsed again with what
it holds. The parse cache and the worker processes store trees of any depth
(:mod:`kapsulint.scan.cache`); the evaluator gives Unknown past its own bound. What
``terraform fmt`` accepts and Terraform rejects later (duplicate object keys, an attribute and a
block of one name, unknown blocks or arguments) is left to the rules, which see the parsed file.

A heredoc is one token of the grammar, a regular expression, which cannot count nesting: before
the grammar reads a text, each outermost heredoc's body is blanked (same length, newlines kept)
where :mod:`kapsulint.parsing.scan` says it ends, with hclsyntax's nesting of sequences, strings,
comments and heredocs to any depth; the token then gets its real text back.
"""

from __future__ import annotations

import re
import sys
from functools import cache
from pathlib import Path
from typing import Any

from kapsulint.cachedir import cache_dir
from kapsulint.parsing import Span, computes, lit, shared, span
from kapsulint.parsing.scan import heredoc_spans
from kapsulint.parsing.template import TemplateSyntaxError, assemble, parse_heredoc
from kapsulint.text import lazy_pattern, lf

MAX_DEPTH = 50_000
"""Levels of nesting a file may have: brackets, blocks, ``${ }``, directives and operators chained
in one expression each count one (Terraform 1.11 parses 50,000 of each; it overflows its stack at
100,000)."""
MAX_HEREDOC_DEPTH = 500
"""Heredocs nested in heredocs: each is parsed again with the text it holds, which costs time in
the square of the depth."""

_Token: Any = ()  # lark's Token class once the parser is built (lark is imported only to parse)

_BINARY_OPERATORS = {"==", "!=", "<", ">", "<=", ">=", "-", "*", "/", "%", "&&", "||", "+"}


class HclSyntaxError(Exception):
    """A file that does not parse, with a readable message and the position of the problem, and
    the summary and detail hclsyntax reports for it where kapsulint makes the same check."""

    def __init__(self, message: str, line: int, column: int, terraform: tuple[str, str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.terraform = terraform


# hclsyntax's words for the errors kapsulint's conversion finds itself
# (https://github.com/hashicorp/hcl/blob/v2.23.0/hclsyntax/parser.go)
_LEGACY_INDEX_CHAIN = ("Invalid legacy index syntax", "When using the legacy index syntax, chaining two indexes "
                       "together is not permitted. Use the proper index syntax instead, like [0][1].")
_NESTED_SPLAT = ("Nested splat expression not allowed",
                 "A splat expression (*) cannot be used inside another attribute-only splat expression.")


def grammar_and_options() -> tuple[str, dict[str, Any]]:
    """The patched grammar text and the options the parser is built with.

    Only python-hcl2's grammar file is used, patched (see the module docstring): importing the
    package would load its builder, reconstructor and rule classes, which cost every parsing
    process time and memory."""
    import importlib.util

    spec = importlib.util.find_spec("hcl2")  # finds the package without importing it
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("python-hcl2 is not installed")
    grammar = patch_grammar((Path(spec.submodule_search_locations[0]) / "hcl2.lark").read_text(encoding="utf-8"))
    options: dict[str, Any] = dict(
        parser="lalr",
        postlex=_POSTLEX,
        start=["start", "expression"],
        maybe_placeholders=False,
        transformer=_CONVERTER,
        lexer_callbacks={"BLOCK_COMMENT": _CONVERTER.collect_comment},
    )
    return grammar, options


@cache
def _parser():  # -> lark.Lark
    """The LALR parser, converting as it reduces: no parse tree is ever built (the conversion is as
    iterative as the parser itself, and the tree's memory and time are saved).

    The tables come from the package when they were shipped for this grammar and lark
    (:mod:`kapsulint.parsing.grammar_cache`), else from kapsulint's cache directory, else they
    are built."""
    import hashlib

    from kapsulint.parsing import grammar_cache
    from kapsulint.parsing.versions import installed_versions

    lark = _import_lark()

    global _Token
    _Token = lark.Token
    grammar, options = grammar_and_options()
    shipped = grammar_cache.load(lark, grammar, options)
    if shipped is not None:
        return shipped
    directory = cache_dir()
    if directory is not None:
        version = installed_versions().get("python_hcl2", "x")
        digest = hashlib.sha256(grammar.encode("utf-8")).hexdigest()[:12]
        cache_file = directory / f"grammar-hcl2-{version}-{digest}-lark-{lark.__version__}.cache"
        try:
            return lark.Lark(grammar, cache=str(cache_file), **options)
        except OSError:
            pass
    return lark.Lark(grammar, **options)


# Identifiers are Unicode (UAX #31 ID_Start, ID_Continue and ``-``). The lexer takes a letter, then
# every character that is neither whitespace, a control character nor ASCII punctuation other than
# ``_`` and ``-``; _PostLexer then checks the name with Python's identifier test (XID_Start,
# XID_Continue), so that ``a·b`` and ``a‿b`` are names and ``a²`` is an error, as in hclsyntax.
_IDENTIFIER = r"[^\W\d][^\s\x00-\x2c\x2e\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]*"


def _heredoc_body(marker: str) -> str:
    """The lines of a heredoc up to its closing line (group ``marker``), where a ``${ }`` or ``%{ }``
    that spans lines is one unit, with a heredoc of the same marker in it: hclsyntax's scanner reads
    the sequence as an expression, so a line of the marker inside it closes nothing."""
    sequence = r"(?:(?<!\$)\$|(?<!%)%)\{"
    string = r'"(?:[^"\\\n]|\\.)*"'
    braces = rf"\{{(?:[^{{}}\"]|{string})*\}}"  # one level of braces (an object) in the sequence
    inner = rf"<<-?(?P={marker})\n(?:.|\n)*?\n[ \t]*(?P={marker})[ \t]*\n"
    unit = rf"{sequence}(?:[^{{}}\"]|{string}|{braces})*?(?:\}}|{inner})"
    # Atomic: a sequence read as a unit is never read again character by character, which would
    # make a heredoc that does not close cost exponential time.
    return rf"(?:(?>{unit}|.|\n)*?\n)??[ \t]*(?P={marker})[ \t]*(?=\n)"


# (old, new) texts of python-hcl2's grammar; each old text must be found exactly once, so a
# grammar that changed under us fails loudly instead of parsing differently.
_TERMINAL_PATCHES = [
    (r"NL_OR_COMMENT: /\n[ \t]*/ | /#.*\n/ | /\/\/.*\n/ | /\/\*(.|\n)*?(\*\/)/",
     "NL_OR_COMMENT: /\\n[ \\t]*/ | /#.*\\n/ | /\\/\\/.*\\n/\n"
     "BLOCK_COMMENT: /\\/\\*(.|\\n)*?\\*\\//\n%ignore BLOCK_COMMENT\n%declare FOR_INTRO"),
    ("NAME : /[a-zA-Z_][a-zA-Z0-9_-]*/", f"NAME : /{_IDENTIFIER}/"),
    (r"ESCAPED_INTERPOLATION.2: /\$\$\{[^}]*\}/", r"ESCAPED_INTERPOLATION.2: /\$\$\{/"),
    (r"ESCAPED_DIRECTIVE.2: /%%\{[^}]*\}/", r"ESCAPED_DIRECTIVE.2: /%%\{/"),
    (r"""STRING_CHARS.1: /(?:(?!\$\$\{)(?!\$\{)(?!%%\{)(?!%\{)[^"\\]|\\.|(?:\$(?!\$?\{))|(?:%(?!%?\{)))+/""",
     r"""STRING_CHARS.1: /(?:[^"\\\n\r$%]|\$(?!\$?\{)|%(?!%?\{)|\\(?:[nrt"\\]|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}))+/"""),
    ("INT_LITERAL: NEGATIVE_DECIMAL? DECIMAL+", "INT_LITERAL: DECIMAL+"),
    ("FLOAT_LITERAL: (NEGATIVE_DECIMAL? DECIMAL+ | NEGATIVE_DECIMAL+) \".\" DECIMAL+ (EXP_MARK)?\n"
     "               | (NEGATIVE_DECIMAL? DECIMAL+ | NEGATIVE_DECIMAL+) (EXP_MARK)",
     "FLOAT_LITERAL: DECIMAL+ \".\" DECIMAL+ (EXP_MARK)? | DECIMAL+ EXP_MARK"),
    ('NEGATIVE_DECIMAL : "-" DECIMAL\n', ""),
    ('ATTR_SPLAT : ".*"', r"ATTR_SPLAT : /\.[ \t]*\*/"),
    ('FULL_SPLAT_START : "[*]"', r"FULL_SPLAT_START : /\[[ \t]*\*[ \t]*\]/"),
    (r"HEREDOC_TEMPLATE : /<<(?P<heredoc>[a-zA-Z][a-zA-Z0-9._-]*)\r?\n(?:(?:.|\n)*?\r?\n)??\s*(?P=heredoc)\r?\n/",
     f"HEREDOC_TEMPLATE : /<<(?P<heredoc>{_IDENTIFIER})\\n{_heredoc_body('heredoc')}/"),
    (r"HEREDOC_TEMPLATE_TRIM : /<<-(?P<heredoc_trim>[a-zA-Z][a-zA-Z0-9._-]*)\r?\n(?:(?:.|\n)*?\r?\n)??\s*(?P=heredoc_trim)\r?\n/",
     f"HEREDOC_TEMPLATE_TRIM : /<<-(?P<heredoc_trim>{_IDENTIFIER})\\n{_heredoc_body('heredoc_trim')}/"),
    (r"%ignore /[ \t\r]+/", r"%ignore /[ \t]+/"),
]

# Whole rules, by the text their line starts with, once every optional newline is gone from the
# grammar: newlines reach the parser only where HCL makes them significant (see _PostLexer).
_RULE_PATCHES = {
    "start :": "start : top_body\n"
               "top_body : new_line_or_comment? (_body_item new_line_or_comment)*\n"
               "_body_item : attribute | block",
    "body :": "body : (new_line_or_comment (_body_item new_line_or_comment)*)?\n"
              "oneline_body : attribute",
    "block :": "block : _attribute_name (_attribute_name | string)* LBRACE (body | oneline_body) RBRACE",
    "interpolation:": "interpolation: INTERP_START STRIP_MARKER? expression STRIP_MARKER? RBRACE",
    "!unary_op :": "!unary_op : (MINUS | NOT) unary_expr",
    "            | template_string": "",
    "template_string :": "",
    "object :": "object : LBRACE new_line_or_comment? (object_elem (_object_sep object_elem)* _object_sep?)? RBRACE\n"
                "_object_sep : COMMA new_line_or_comment? | new_line_or_comment",
    "function_call :": "function_call : (identifier | literal_value) (COLONS identifier)* LPAR arguments? RPAR",
    "short_index :": "short_index : DOT (INT_LITERAL | FLOAT_LITERAL)",
    "attr_splat :": "attr_splat : ATTR_SPLAT (get_attr | short_index)*",
    "!for_intro :": "!for_intro : FOR_INTRO identifier (COMMA identifier)? IN expression COLON",
}


def patch_grammar(text: str) -> str:
    """python-hcl2's grammar with kapsulint's corrections (see the module docstring)."""
    for old, new in _TERMINAL_PATCHES:
        if text.count(old) != 1:
            raise RuntimeError(f"python-hcl2's grammar changed: {old!r} not found once")
        text = text.replace(old, new)
    text = re.sub(r"new_line_or_comment\?[ \t]*", "", text)
    lines = text.split("\n")
    for prefix, rule in _RULE_PATCHES.items():
        found = [i for i, line in enumerate(lines) if line.startswith(prefix)]
        if len(found) != 1:
            raise RuntimeError(f"python-hcl2's grammar changed: rule {prefix!r} not found once")
        lines[found[0]] = rule
    return "\n".join(lines)


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
    ends_a_line = text.endswith("\n")
    text = _normalise(text)
    outer = _CONVERTER.comments
    comments: list[Any] = []
    _CONVERTER.comments = comments
    try:
        # A heredoc's closing marker must be followed by a newline of the file itself, not the one
        # _normalise may have added.
        body = _parse(text, "start", source_end=len(text) if ends_a_line else len(text) - 1)
    finally:
        _CONVERTER.comments = outer
    comments.sort(key=lambda comment: (comment[0], comment[1]))
    return {"body": body, "comments": comments}


def parse_expression(text: str, line_offset: int = 0, column_offset: int = 0) -> dict:
    """Parse one expression (a template's ``${...}``); spans are shifted by the offsets."""
    outer = _CONVERTER.comments
    _CONVERTER.comments = []
    try:
        node = _as_expr(_parse(text, "expression"))
    except (HclSyntaxError, TemplateSyntaxError) as error:  # located in the file, as the nodes are
        if error.line == 1:
            error.column += column_offset
        error.line += line_offset
        raise
    finally:
        _CONVERTER.comments = outer
    if line_offset or column_offset:
        _shift(node, line_offset, column_offset)
    return node


class _PostLexer:
    """The token stream between lark's lexer and the parser, in one pass.

    Newlines: HCL ignores them inside parentheses, brackets, ``${ }``, ``%{ }`` and ``for``
    expressions, and they are significant elsewhere (they end attributes and blocks and separate
    object elements): hclsyntax's ``PushIncludeNewlines``
    (https://github.com/hashicorp/hcl/blob/v2.23.0/hclsyntax/parser.go). The grammar has newlines
    only where they are significant, and this pass drops the others (after collecting their
    comments). A ``for`` that opens a bracket or a brace starts a ``for`` expression, whatever
    follows (``{ for = 1 }`` is an invalid ``for``, as in hclsyntax): it becomes ``FOR_INTRO``.

    The pass also rejects what the scanner rejects but the grammar cannot see (a number literal
    followed by ``.`` and a digit, a heredoc that ends the file without a newline) and counts
    nesting: the token that goes past MAX_DEPTH is KAP001 before the tree is built, whether it opens
    a level or chains one more operator, attribute step or directive onto an expression (an
    operator chain nests its tree as deep as brackets do; a separator, ``,`` ``=`` ``=>`` or a
    newline, ends the chain).
    """

    _IGNORING = frozenset({"LSQB", "LPAR", "INTERP_START", "DIRECTIVE_START"})
    # Tokens that nest the expression they follow one level deeper, and those that end a chain.
    _CHAINING = frozenset({"PLUS", "MINUS", "ASTERISK", "SLASH", "PERCENT", "DOUBLE_EQ", "NEQ", "LT", "GT",
                           "LEQ", "GEQ", "DOUBLE_AMP", "DOUBLE_PIPE", "NOT", "QMARK", "DOT", "ATTR_SPLAT",
                           "FULL_SPLAT_START"})
    _SEPARATORS = frozenset({"COMMA", "EQ", "FOR_OBJECT_ARROW"})
    # After one of these, ``[`` indexes an expression (``x[0][0]`` chains) rather than opening a tuple.
    _INDEXED = frozenset({"NAME", "RSQB", "RPAR", "RBRACE", "DBLQUOTE", "INT_LITERAL", "FLOAT_LITERAL", "TRUE",
                          "FALSE", "NULL", "HEREDOC_TEMPLATE", "HEREDOC_TEMPLATE_TRIM", "FULL_SPLAT_START"})
    _CLOSERS = frozenset({"RBRACE", "RSQB", "RPAR"})
    # After one of these, a brace opens a block body (``a "b" {``), never an object.
    _LABEL_ENDS = frozenset({"NAME", "DBLQUOTE", "NULL", "TRUE", "FALSE", "IN", "FOR", "IF", "FOR_EACH",
                             "ELSE", "ENDIF", "ENDFOR"})
    always_accept = ("NL_OR_COMMENT",)  # lexed in every state: this pass decides where they go

    def __init__(self) -> None:
        self.inputs: list[tuple[str, bool, int]] = []  # (text, newlines ignored at top, end of source)
        # A heredoc's sequences are parsed by a nested call, when the converter meets the heredoc:
        # the nesting of each heredoc token, by its offset, per text being parsed, and the nesting
        # the next nested text starts at.
        self.heredoc_depths: list[dict[int, int]] = []
        self.depth = 0
        self.heredocs = 0  # heredocs being converted, one in another

    def process(self, stream):
        text, ignoring, source_end = self.inputs[-1]
        collect = _CONVERTER.collect_comment
        modes = [ignoring]  # per open level: are newlines ignored?
        chains = [0]  # per open level: the tokens chained since its last separator
        chained = 0  # their sum
        directive = False  # the token follows ``%{`` (and a strip marker)
        base = self.depth
        if base > MAX_DEPTH:
            raise HclSyntaxError(f"nesting deeper than {MAX_DEPTH} levels", 1, 1)
        heredoc_depths = self.heredoc_depths[-1]
        strings: list[int] = []  # the levels at which a quoted string is open
        held: list = []  # newlines after an opening bracket, until the next token shows a ``for``
        opener = None
        previous = None
        for token in stream:
            kind = token.type
            if kind == "NL_OR_COMMENT":
                if strings and strings[-1] == len(modes):  # a newline in a quoted string, even in ( )
                    raise HclSyntaxError("invalid multi-line string: a quoted string ends on its line",
                                         token.line, token.column)
                collect(token)
                if opener is not None and not modes[-1]:
                    held.append(token)
                elif not modes[-1]:
                    chained -= chains[-1]
                    chains[-1] = 0
                    yield token
                continue
            if opener is not None:
                if token == "for" and kind in ("NAME", "FOR"):
                    token = token.update(type="FOR_INTRO")
                    kind = "FOR_INTRO"
                    modes[-1] = True
                else:
                    yield from held
                held.clear()
                opener = None
            if kind in self._IGNORING or kind == "LBRACE":
                # inside ( ), [ ], ${ } or a for expression no block can open: a brace after ``in``
                # (``[for v in {for ...} : v]``) is an object there
                in_expression = modes[-1]
                if kind == "LSQB" and previous in self._INDEXED:
                    chains[-1] += 1
                    chained += 1
                modes.append(kind != "LBRACE")
                chains.append(0)
                if base + len(modes) + chained > MAX_DEPTH + 1:
                    raise HclSyntaxError(f"nesting deeper than {MAX_DEPTH} levels", token.line, token.column)
                if kind == "LSQB" or (kind == "LBRACE" and (in_expression or previous not in self._LABEL_ENDS)):
                    opener = token
            elif kind in self._CLOSERS:
                if len(modes) > 1:
                    modes.pop()
                    chained -= chains.pop()
            elif kind in self._CHAINING or (directive and kind in ("IF", "FOR")):
                # an ``if`` or ``for`` directive nests what follows it in the string it is in
                level = -2 if directive else -1  # a directive's own ``%{`` level closes at its ``}``
                chains[level] += 1
                chained += 1
                if base + len(modes) + level + 1 + chained > MAX_DEPTH + 1:
                    raise HclSyntaxError(f"nesting deeper than {MAX_DEPTH} levels", token.line, token.column)
            elif kind in self._SEPARATORS:
                chained -= chains[-1]
                chains[-1] = 0
            elif directive and kind in ("ENDIF", "ENDFOR") and chains[-2] > 0:
                chains[-2] -= 1
                chained -= 1
            elif kind in ("INT_LITERAL", "FLOAT_LITERAL"):
                after = text[token.end_pos : token.end_pos + 2]
                if len(after) == 2 and after[0] == "." and after[1].isdigit():
                    raise HclSyntaxError("invalid number literal", token.line, token.column)
            elif kind == "NAME":
                _check_identifier(str(token), token.line, token.column)
            elif kind == "DBLQUOTE":
                if strings and strings[-1] == len(modes):
                    strings.pop()
                else:
                    strings.append(len(modes))
            elif kind in ("HEREDOC_TEMPLATE", "HEREDOC_TEMPLATE_TRIM"):
                token = token.update(value=text[token.start_pos : token.end_pos])  # unmasked
                _check_heredoc(token, source_end)
                heredoc_depths[token.start_pos] = base + len(modes) + chained
            directive = kind == "DIRECTIVE_START" or (directive and kind == "STRIP_MARKER")
            previous = kind
            yield token
        yield from held


_POSTLEX = _PostLexer()


def _check_identifier(name: str, line: int, column: int) -> None:
    """A name the lexer took must be an identifier: its first character ID_Start (or ``_``), the
    others ID_Continue or ``-``."""
    if name.replace("-", "_").isidentifier():
        return
    bad = next(i for i in range(1, len(name) + 1) if not name[:i].replace("-", "_").isidentifier()) - 1
    raise HclSyntaxError(f"invalid character {name[bad]!r} in an identifier", line, column + bad)


def _check_heredoc(token, source_end: int) -> None:
    """What the heredoc terminal cannot say: its marker is an identifier, it holds no carriage
    return that does not start a newline (the file's ``\\r\\n`` are newlines by now), and a newline of
    the file follows its closing marker."""
    text = str(token)
    start = 3 if text.startswith("<<-") else 2
    _check_identifier(text[start : text.index("\n")], token.line, token.column + start)
    if "\r" in text:
        before = text[: text.index("\r")]
        line = token.line + before.count("\n")
        column = len(before) - before.rfind("\n") if "\n" in before else token.column + len(before)
        raise HclSyntaxError("invalid character: a carriage return without a newline", line, column)
    if token.end_pos >= source_end:
        raise HclSyntaxError("unterminated heredoc: a newline must follow its closing marker",
                             token.end_line, token.end_column)


def _normalise(text: str) -> str:
    # A file's byte order mark is gone (kapsulint.parsing.sources.decode drops it); another is an invalid
    # character, as in hclsyntax.
    text = lf(text)
    # The grammar needs a newline after the last attribute.
    if not text.endswith("\n"):
        text += "\n"
    return text


def _parse(text: str, start: str, source_end: int | None = None):
    import lark

    parser = _parser()
    outermost = not _POSTLEX.inputs
    limit = sys.getrecursionlimit()
    if outermost:
        _CONVERTER.attr_splats.clear()
        _CONVERTER.full_splats.clear()
        _POSTLEX.depth = 0
        _POSTLEX.heredocs = 0
        # Room for heredocs in heredocs, each a nested parse of a few frames (the rest is iterative).
        sys.setrecursionlimit(limit + 20 * MAX_HEREDOC_DEPTH)
    _POSTLEX.inputs.append((text, start == "expression", len(text) + 1 if source_end is None else source_end))
    _POSTLEX.heredoc_depths.append({})
    try:
        return parser.parse(_mask_heredocs(text, start), start=start)
    except lark.exceptions.UnexpectedInput as error:
        raise _syntax_error(error, text) from None
    except RecursionError:
        raise HclSyntaxError("nesting too deep", 1, 1) from None
    finally:
        _POSTLEX.inputs.pop()
        _POSTLEX.heredoc_depths.pop()
        if outermost:
            sys.setrecursionlimit(limit)


def _mask_heredocs(text: str, start: str) -> str:
    """``text`` with the body of each outermost heredoc blanked (spaces, its newlines kept), so that
    the grammar's heredoc token, one regular expression, ends at the closing line
    :func:`~kapsulint.parsing.scan.heredoc_spans` finds at any nesting depth. Offsets, lines and
    columns are unchanged; :class:`_PostLexer` gives the token its real text back."""
    if "<<" not in text:
        return text
    spans = heredoc_spans(text)
    if not spans:
        return text
    pieces = []
    previous = 0
    for _, body, close in spans:
        pieces.append(text[previous:body])
        pieces.append(_BLANK.sub(" ", text[body:close]))
        previous = close
    pieces.append(text[previous:])
    return "".join(pieces)


_BLANK = lazy_pattern(r"[^\n]")


def _syntax_error(error, text: str) -> HclSyntaxError:
    import lark

    line: Any = getattr(error, "line", None)  # lark's errors are not typed
    column: Any = getattr(error, "column", None)
    if isinstance(error, lark.exceptions.UnexpectedEOF) or line in (None, -1):
        line, column = _end_of(text)
        expected = _readable_expected(getattr(error, "expected", ()))
        return HclSyntaxError(f"unexpected end of input{expected}", line, column)
    if isinstance(error, lark.exceptions.UnexpectedCharacters):
        position: Any = error.pos_in_stream
        char = text[position] if position < len(text) else ""
        shown = repr(char) if char.strip() else "whitespace"
        message = f"unexpected character {shown}"
        if char in "{}":
            message = f"unexpected `{char}`"
        elif char == "\\":
            message = "invalid escape sequence: HCL has \\n \\r \\t \\\" \\\\ \\uNNNN and \\UNNNNNNNN"
        elif text.startswith("<<", position):
            message = "invalid heredoc: `<<ID` or `<<-ID`, then a newline, and `ID` alone on a closing line"
        elif text.startswith("/*", position):
            message = "unterminated comment: `/*` without `*/`"
        return HclSyntaxError(message, line, column)
    token = getattr(error, "token", None)
    expected = _readable_expected(getattr(error, "expected", ()) or getattr(error, "accepts", ()))
    if token is not None and token.type == "$END":
        line, column = _end_of(text)
        return HclSyntaxError(f"unexpected end of input{expected}", line, column)
    if token is not None and str(token).lstrip().startswith("<<"):
        return HclSyntaxError("invalid heredoc: `<<ID` or `<<-ID`, then a newline, and `ID` alone on a closing "
                              "line", line, column)
    return HclSyntaxError(f"unexpected {_readable_token(token)}{expected}", line, column)


def _readable_token(token) -> str:
    text = str(token) if token is not None else ""
    if token is None or token.type == "NL_OR_COMMENT":
        return "comment" if text.lstrip().startswith(("#", "//")) else "newline"
    if token.type in ("HEREDOC_TEMPLATE", "HEREDOC_TEMPLATE_TRIM"):
        return "heredoc"
    text = text.strip()
    if token.type == "STRING_CHARS":  # what the lexer fell back on matches up to a quote
        word = re.match(r"\S*", text)
        text = (word.group(0) if word is not None else "") or text[:1]
    text = text.splitlines()[0] if text else text
    return f"`{text[:30]}`" if text else "whitespace"


_TOKEN_NAMES = {
    "RBRACE": "}", "LBRACE": "{", "RSQB": "]", "LSQB": "[", "RPAR": ")", "LPAR": "(",
    "EQ": "=", "COLON": ":", "COMMA": ",", "DBLQUOTE": '"', "QMARK": "?", "DOT": ".",
    "NL_OR_COMMENT": "newline", "NAME": "a name", "INTERP_START": "${", "DIRECTIVE_START": "%{",
}


# Terminals that start an expression: when the parser would take most of them, it wants one.
_EXPRESSION_STARTS = frozenset({"DBLQUOTE", "INT_LITERAL", "FLOAT_LITERAL", "NAME", "LSQB", "LPAR", "MINUS", "NOT"})


def _readable_expected(expected) -> str:
    expected = set(expected)
    if len(expected & _EXPRESSION_STARTS) >= 4:
        others = sorted({_TOKEN_NAMES[n] for n in expected - _EXPRESSION_STARTS - {"LBRACE"} if n in _TOKEN_NAMES})
        return ": expected an expression" + "".join(f" or `{n}`" for n in others if n in "}])")
    if "NL_OR_COMMENT" in expected:  # the parser is between items: other lookaheads are LALR noise
        return ": expected an argument or a block" if "NAME" in expected else ": expected a newline"
    names = sorted({_TOKEN_NAMES[name] for name in expected if name in _TOKEN_NAMES})
    if not names:
        return ""
    if len(names) > 4:
        names = [n for n in names if n in "}])\"="] or names[:4]
    return ": expected " + " or ".join(f"`{n}`" for n in names)


def _end_of(text: str) -> tuple[int, int]:
    """The position of the last character of the file, where KAP001 reports an end of input."""
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
            if isinstance(sp, tuple) and len(sp) == 4:
                item["p"] = (sp[0] + lines, sp[1] + columns if sp[0] == 1 else sp[1],
                             sp[2] + lines, sp[3] + columns if sp[2] == 1 else sp[3])
            heredoc = item.get("heredoc")
            if isinstance(heredoc, dict):  # the line of a heredoc's first line of text
                heredoc["line"] += lines
            stack.extend(v for k, v in item.items() if k not in ("p", "heredoc"))
        elif isinstance(item, list):
            stack.extend(item)


def _tok_span(token) -> Span:
    return span(token.line, token.column, token.end_line, token.end_column)


def _meta_span(tree) -> Span:
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


def _position(child) -> Span | None:
    if isinstance(child, _Token):
        return (child.line, child.column, child.end_line, child.end_column)
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
                return (first[0], first[1], last[2], last[3])
        return None
    if isinstance(child, tuple):
        if len(child) >= 2 and isinstance(child[1], tuple) and len(child[1]) == 4:
            return child[1]
        found = [p for p in (_position(c) for c in child) if p]
        return (found[0][0], found[0][1], found[-1][2], found[-1][3]) if found else None
    if isinstance(child, list) and child:
        first, last = _position(child[0]), _position(child[-1])
        if first and last:
            return (first[0], first[1], last[2], last[3])
    return None


_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}
_ESCAPE_RE = lazy_pattern(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)", re.S)


def unescape(chars: str) -> str:
    """HCL's string escapes, and the ``$${`` / ``%%{`` literal forms."""

    def replace(match: re.Match) -> str:
        code = match.group(1)
        if code[0] in "uU" and len(code) > 1:
            point = int(code[1:], 16)
            if point > 0x10FFFF or 0xD800 <= point <= 0xDFFF:
                raise ValueError(f"invalid escape sequence `\\{code}`: not a Unicode character")
            return chr(point)
        return _ESCAPES.get(code, "\\" + code)

    text = _ESCAPE_RE.sub(replace, chars) if "\\" in chars else chars
    return text.replace("$${", "${").replace("%%{", "%{")


class _Reduction:
    """What a handler sees of one reduced rule: its name and its (already converted) children."""

    __slots__ = ("children", "data")

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
        # ids of the parse under way's splats, top-level nodes and nested ``["splat", ops]`` steps:
        # the attribute-only ones (``.*``), and the full ones (``[*]``), which take every later step
        self.attr_splats: set[int] = set()
        self.full_splats: set[int] = set()

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
        """A body; an attribute defined twice in it is a syntax error, as in hclsyntax's parser."""
        attrs, blocks = [], []
        names: dict[str, dict] = {}
        for child in children:
            if isinstance(child, dict):
                if child["t"] == "attribute":
                    first = names.setdefault(child["name"], child)
                    if first is not child:
                        line, column = child["p"][0], child["p"][1]
                        raise HclSyntaxError(f"attribute `{child['name']}` redefined: it is already defined at "
                                             f"line {first['p'][0]}", line, column)
                    attrs.append(child)
                elif child["t"] == "block":
                    blocks.append(child)
        return {"attrs": attrs, "blocks": blocks}

    _top_body = _body
    _oneline_body = _body

    def _new_line_or_comment(self, tree, children):
        return None  # the post-lexer collected its comments

    def collect_comment(self, token) -> None:
        """Record the comments of a newline or comment token (called by the lexer and post-lexer)."""
        value = str(token)
        if "#" not in value and "/" not in value:
            return
        for match in re.finditer(r"#[^\n]*|//[^\n]*|/\*.*?\*/", value, re.S):
            before = value[: match.start()]
            line = token.line + before.count("\n")
            column = (len(before) - before.rfind("\n")) if "\n" in before else token.column + len(before)
            self.comments.append([line, column, match.group(0).rstrip("\r")])

    def _attribute(self, tree, children):
        name, name_span = children[0][:2]
        expr = children[-1]
        return {"t": "attribute", "name": name, "p": name_span, "expr": expr, "span": _meta_span(tree),
                "c": computes(expr)}

    def _block(self, tree, children):
        labels, label_spans = [], []
        block_type = None
        type_span = None
        open_brace = None
        body: dict[str, list[Any]] = {"attrs": [], "blocks": []}
        for child in children:
            if isinstance(child, _Token):
                if child.type == "LBRACE" and open_brace is None:
                    open_brace = child
                continue
            if isinstance(child, tuple):  # a bare name
                if block_type is None:
                    block_type, type_span = child[:2]
                else:
                    labels.append(child[0])
                    label_spans.append(child[1])
            elif isinstance(child, dict) and child.get("t") == "tmpl":
                raise HclSyntaxError("invalid block label: a quoted label is a literal string, without "
                                     "`${` interpolations or `%{` directives", child["p"][0], child["p"][1])
            elif isinstance(child, dict) and child.get("t") == "lit":
                labels.append(shared(str(child["v"])))
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
        return (shared(str(token)), _tok_span(token))

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
        """A literal with a fraction or an exponent keeps its text in ``num``: Terraform numbers are
        arbitrary-precision, parsed from the decimal text, which a float cannot always hold."""
        token = children[0]
        text = str(token)
        value = float(text)
        node = lit(int(value) if value.is_integer() and "e" not in text.lower() else value, _tok_span(token))
        node["num"] = text
        return node

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
            try:
                return unescape(str(child))
            except ValueError as error:
                raise HclSyntaxError(str(error), child.line, child.column) from None
        return child

    def _interpolation(self, tree, children):
        expr = _as_expr(next(c for c in children if not _is_token(c)))
        strip = _strips(children)
        return {"t": "_strip", "strip": strip, "e": expr} if any(strip) else expr

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
        body = text[first_newline + 1 : text.rfind("\n") + 1]  # the lines between the markers
        if _POSTLEX.heredocs >= MAX_HEREDOC_DEPTH:
            raise HclSyntaxError(f"heredocs nested deeper than {MAX_HEREDOC_DEPTH} levels", token.line, token.column)
        outer_depth = _POSTLEX.depth
        _POSTLEX.depth = _POSTLEX.heredoc_depths[-1].get(token.start_pos, outer_depth)
        _POSTLEX.heredocs += 1
        try:
            node, indent = parse_heredoc(body, token.line + 1, trim, parse_expression)
        finally:
            _POSTLEX.depth = outer_depth
            _POSTLEX.heredocs -= 1
        sp = _tok_span(token)
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
        if operator == "-" and operand["t"] == "lit" and isinstance(operand["v"], (int, float)) \
                and not isinstance(operand["v"], bool):
            node = lit(-operand["v"], _meta_span(tree))
            if "num" in operand:
                text = operand["num"]
                node["num"] = text[1:] if text.startswith("-") else "-" + text
            elif operand["v"] == 0:
                node["num"] = "-0"  # Terraform's numbers have a negative zero: tostring(-0) is "-0"
            return node
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
        return {"t": "call", "name": shared("::".join(names)), "args": args, "expand": expand, "p": _meta_span(tree)}

    def _arguments(self, tree, children):
        items = [_as_expr(c) for c in children if not _is_token(c) and c is not None]
        expand = any(_is_token(c) and c.type == "ELLIPSIS" for c in children)
        return {"t": "_args", "items": items, "expand": expand}

    # Index, attribute and splat steps come back as ``_step`` nodes carrying their own span, so the
    # expression that applies them spans its brackets and names.

    def _index_expr_term(self, tree, children):
        obj, step = _as_expr(children[0]), children[1]
        if id(obj) in self.full_splats:
            return self._into_splat(obj, ["index", step["key"]], tree)
        return {"t": "index", "obj": obj, "key": step["key"], "p": _meta_span(tree)}

    def _braces_index(self, tree, children):
        key = _as_expr(next(c for c in children if not _is_token(c) and c is not None))
        return {"t": "_step", "kind": "index", "key": key, "p": _meta_span(tree)}

    def _short_index(self, tree, children):
        token = children[1]
        text = str(token)
        if "." in text:
            raise HclSyntaxError("invalid legacy index: `.N` takes a whole number (write `[N]` for other keys)",
                                 token.line, token.column, _LEGACY_INDEX_CHAIN)
        key = int(text) if text.isdigit() else int(float(text))
        return {"t": "_step", "kind": "index", "key": lit(key, _tok_span(token)), "p": _meta_span(tree)}

    def _get_attr_expr_term(self, tree, children):
        obj, step = _as_expr(children[0]), children[1]
        if id(obj) in self.full_splats:
            return self._into_splat(obj, ["attr", step["name"]], tree)
        return {"t": "attr", "obj": obj, "name": step["name"], "p": _meta_span(tree)}

    def _get_attr(self, tree, children):
        return {"t": "_step", "kind": "attr", "name": children[1][0], "p": _meta_span(tree)}

    # hclsyntax parses every traversal step after ``[*]``, a splat too, into that splat's Each
    # (``a[*].b[*].c`` is ``a[*]`` of ``.b[*].c``), while ``.*`` takes only the attribute and
    # ``.N`` steps that follow it (``a.*.b[*]`` is ``[*]`` of ``a.*.b``): parseExpressionTraversals
    # in https://github.com/hashicorp/hcl/blob/v2.23.0/hclsyntax/parser.go. A splat that follows
    # a full one is a ``["splat", ops]`` step of it, applied to each element as a splat of its own.

    def _attr_splat_expr_term(self, tree, children):
        obj, ops = _as_expr(children[0]), children[1]["ops"]
        if id(obj) in self.full_splats:
            last = self._open_steps(obj)[-1:]
            if last and id(last[0]) in self.attr_splats:
                self._nested_attr_splat(children)
            step = ["splat", ops]
            self.attr_splats.add(id(step))
            return self._into_splat(obj, step, tree)
        if id(obj) in self.attr_splats:
            self._nested_attr_splat(children)
        node = {"t": "splat", "obj": obj, "ops": ops, "p": _meta_span(tree)}
        self.attr_splats.add(id(node))
        return node

    @staticmethod
    def _nested_attr_splat(children) -> None:
        line, column = children[1]["p"][:2]
        raise HclSyntaxError("nested splat expression: `.*` cannot follow an attribute-only splat "
                             "(write `[*]`)", line, column, _NESTED_SPLAT)

    def _full_splat_expr_term(self, tree, children):
        obj, ops = _as_expr(children[0]), children[1]["ops"]
        if id(obj) in self.full_splats:
            step = ["splat", ops]
            self.full_splats.add(id(step))
            return self._into_splat(obj, step, tree)
        node = {"t": "splat", "obj": obj, "ops": ops, "p": _meta_span(tree)}
        self.full_splats.add(id(node))
        return node

    def _open_steps(self, splat: dict) -> list:
        """The steps of the innermost full splat that ``splat`` still takes steps into."""
        steps = splat["ops"]
        while steps and id(steps[-1]) in self.full_splats:
            steps = steps[-1][1]
        return steps

    def _into_splat(self, splat: dict, step: list, tree) -> dict:
        self._open_steps(splat).append(step)
        splat["p"] = _meta_span(tree)
        return splat

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
    """The ``~`` markers of a ``${ }`` or ``%{ }`` sequence: [after the opener, before the ``}``].

    A marker belongs to the opener or the closer only when it touches it (``${~``, ``~}``), as in
    hclsyntax's scanner: elsewhere ``~`` is an unknown operator."""
    last = len(children) - 1
    strips = [False, False]
    for index, child in enumerate(children):
        if not (_is_token(child) and child.type == "STRIP_MARKER"):
            continue
        if index == 1 and children[0].end_pos == child.start_pos:
            strips[0] = True
        elif index == last - 1 and child.end_pos == children[last].start_pos:
            strips[1] = True
        else:
            raise HclSyntaxError("unsupported operator `~`: a strip marker must touch `${`, `%{` or `}`",
                                 child.line, child.column)
    return strips


def _plain_text(node: dict) -> str:
    return "".join(p for p in node["parts"] if isinstance(p, str))


def _template_node(parts: list, sp: Span) -> dict:
    if all(isinstance(p, str) for p in parts):
        return lit("".join(parts), sp)
    if len(parts) == 1 and isinstance(parts[0], dict) and parts[0]["t"] not in ("tif", "tfor"):
        # "${expr}" alone keeps the expression's own type, as in Terraform.
        return {"t": "tmpl", "parts": parts, "p": sp, "single": True}
    return {"t": "tmpl", "parts": parts, "p": sp}


def _assemble_directives(flat: list) -> list:
    return assemble([_as_expr(p) if isinstance(p, tuple) else p for p in flat])


_CONVERTER = _Converter()
