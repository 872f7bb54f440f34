"""Where heredocs and template sequences end, with hclsyntax's nesting, to any depth.

hclsyntax's scanner (https://github.com/hashicorp/hcl/blob/v2.23.0/hclsyntax/scan_tokens.rl) keeps a
stack of modes: inside a heredoc, a ``${`` or ``%{`` sequence is an expression that may hold
strings, braces, comments and heredocs of its own (of the same marker too), and only a line of the
heredoc's marker read in the heredoc's own template text closes it. A regular expression cannot
count that nesting, so the grammar's heredoc token is helped by :func:`heredoc_spans`, and the
template parser finds the end of a sequence with :func:`sequence_end`. Both are one loop over an
explicit stack: no recursion, whatever the depth.
"""

from __future__ import annotations

from kapsulint.text import lazy_pattern

_IDENTIFIER = r"[^\W\d][^\s\x00-\x2c\x2e\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]*"  # as the grammar's NAME
_HEREDOC_OPENER = lazy_pattern(rf"<<-?({_IDENTIFIER})\n")

# Modes on the stack: an expression (a file, a ``{ }`` or a template sequence), a quoted string,
# a heredoc's template text (with its marker).
_EXPRESSION, _BRACE, _SEQUENCE, _STRING, _HEREDOC = range(5)
# The characters that may change the mode, per mode: everything else is skipped in one search.
_HEREDOC_NEXT = lazy_pattern(r"[\n$%]")
_STRING_NEXT = lazy_pattern(r'[\\"\n$%]')
_EXPRESSION_NEXT = lazy_pattern(r'["#/<{}]')


def heredoc_spans(text: str, start: int = 0) -> list[tuple[int, int, int]]:
    """Each outermost heredoc of ``text`` (an expression or a file from ``start``) that closes:
    (offset of ``<<``, offset of its body's first line, offset of its closing line)."""
    spans: list[tuple[int, int, int]] = []
    _scan(text, start, _EXPRESSION, spans)
    return spans


def sequence_end(text: str, start: int) -> int:
    """The offset of the ``}`` that closes a template sequence whose expression starts at
    ``start`` (just after ``${`` or ``%{``), or -1."""
    return _scan(text, start, _SEQUENCE, None)


def _scan(text: str, index: int, mode: int, spans: list | None) -> int:
    """Scan from ``index`` in ``mode``; return the offset where that mode's level closes (-1 if it
    never does), recording outermost heredocs in ``spans`` when given."""
    stack: list[tuple[int, str, int, int]] = [(mode, "", 0, 0)]  # (mode, marker, opener, body start)
    length = len(text)
    line_start = False  # at the start of a line of the innermost heredoc's text
    while index < length:
        kind, marker = stack[-1][0], stack[-1][1]
        if not line_start:
            found = (_HEREDOC_NEXT if kind == _HEREDOC else _STRING_NEXT if kind == _STRING
                     else _EXPRESSION_NEXT).search(text, index)
            if found is None:
                break
            index = found.start()
        char = text[index]
        if kind == _HEREDOC:
            if line_start:
                line_start = False
                close = _closing_line(text, index, marker)
                if close >= 0:
                    _, _, opener, body = stack.pop()
                    if spans is not None and not any(level[0] == _HEREDOC for level in stack):
                        spans.append((opener, body, index))
                    index = close
                    continue
            if char == "\n":
                line_start = True
            elif text.startswith(("$${", "%%{"), index):
                index += 3
                continue
            elif text.startswith(("${", "%{"), index):
                stack.append((_SEQUENCE, "", 0, 0))
                index += 2
                continue
            index += 1
        elif kind == _STRING:
            if char == "\\":
                index += 2
                continue
            if char in '"\n':
                stack.pop()
            elif text.startswith(("$${", "%%{"), index):
                index += 3
                continue
            elif text.startswith(("${", "%{"), index):
                stack.append((_SEQUENCE, "", 0, 0))
                index += 2
                continue
            index += 1
        else:
            if char == '"':
                stack.append((_STRING, "", 0, 0))
            elif char == "#" or text.startswith("//", index):
                end = text.find("\n", index)
                index = length if end < 0 else end
                continue
            elif text.startswith("/*", index):
                end = text.find("*/", index + 2)
                index = length if end < 0 else end + 2
                continue
            elif char == "<" and (heredoc := _HEREDOC_OPENER.match(text, index)) is not None:
                stack.append((_HEREDOC, heredoc.group(1), index, heredoc.end()))
                index = heredoc.end()
                line_start = True
                continue
            elif char == "{":
                stack.append((_BRACE, "", 0, 0))
            elif char == "}":
                if kind == _EXPRESSION:  # a stray brace: the parser reports it
                    index += 1
                    continue
                stack.pop()
                if not stack:
                    return index
                line_start = False
            index += 1
    return -1


def _closing_line(text: str, index: int, marker: str) -> int:
    """The offset after a closing line of ``marker`` starting at ``index`` (its marker, alone but
    for spaces and tabs, then a newline), or -1."""
    position = index
    while position < len(text) and text[position] in " \t":
        position += 1
    if not text.startswith(marker, position):
        return -1
    position += len(marker)
    while position < len(text) and text[position] in " \t":
        position += 1
    return position if position < len(text) and text[position] == "\n" else -1
