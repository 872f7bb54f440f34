"""go-yaml's rules for tabs and its words for errors, on ruamel.yaml's scanner.

Terraform's ``yamldecode`` reads YAML with the copy of go-yaml (itself a port of libyaml) that
go-cty-yaml 1.1.0 carries (https://github.com/zclconf/go-cty-yaml/blob/v1.1.0/scannerc.go).
ruamel.yaml, a descendant of the same code, refuses every tab outside flow collections and
quoted scalars; go-yaml takes a tab as separation wherever a simple key cannot start (after a
key's ``:``, a scalar, an anchor, a tag or ``---``, before a comment, at a line's end) and inside
a plain scalar, and refuses it only as indentation: at the start of a line, after ``-`` or
``?``, in the leading blanks of a plain scalar's continuation line or of a block scalar.

go-cty-yaml places an error as ``on line L, column C:`` only when its line is not the first
(it tests the 0-based line): a scanner error is placed at the start of the line after the one
counted (``line + 1``, column 1), a parser error and an error about an event at their 0-based
line as it is (https://github.com/zclconf/go-cty-yaml/blob/v1.1.0/error.go). The end of the
stream is on the line after the last one unless the text ends with a newline, as go-yaml
forces one there. ruamel.yaml's messages are translated to go-yaml's where they name the same
problem; the others keep ruamel.yaml's words.

Nothing here imports ruamel.yaml: :func:`go_tabs_scanner` is given its scanner class.
"""

from __future__ import annotations

from typing import Any

_LINE_BREAKS = "\r\n\x85\u2028\u2029"
_END = "\0" + _LINE_BREAKS

# (context, the start of ruamel.yaml's problem) -> go-yaml's problem; an empty context matches any
_PROBLEMS = [
    ("", "found character ", "found character that cannot start any token"),
    ("", "mapping values are not allowed here", "mapping values are not allowed in this context"),
    ("", "mapping keys are not allowed here", "mapping keys are not allowed in this context"),
    ("", "sequence entries are not allowed here", "block sequence entries are not allowed in this context"),
    ("", "found unexpected document separator", "found unexpected document indicator"),
    ("", "found unknown escape character", "found unknown escape character"),
    ("", "expected a comment or a line break", "did not find expected comment or line break"),
    ("", "expected alphabetic or numeric character", "did not find expected alphabetic or numeric character"),
    ("", "expected indentation indicator in the range 1-9", "found an indentation indicator equal to 0"),
    ("while parsing a block collection", "expected <block end>", "did not find expected '-' indicator"),
    ("while parsing a block mapping", "expected <block end>", "did not find expected key"),
    ("while parsing a flow sequence", "expected ',' or ']'", "did not find expected ',' or ']'"),
    ("while parsing a flow mapping", "expected ',' or '}'", "did not find expected ',' or '}'"),
    ("", "expected the node content", "did not find expected node content"),
    ("", "expected '<document start>'", "did not find expected <document start>"),
    ("", "found undefined tag handle", "found undefined tag handle"),
    ("", "found duplicate YAML directive", "found duplicate %YAML directive"),
]


def go_tabs_scanner(base: Any, scanner_error: type[Exception]) -> type:
    """ruamel.yaml's scanner class ``base`` with go-yaml's handling of tabs."""

    class GoTabsScanner(base):
        allow_simple_key: bool  # set by the base scanner

        def scan_to_next_token(self) -> None:
            """Blanks, comments and line breaks up to the next token; a tab is a blank only where
            a simple key cannot start or inside a flow collection (yaml_parser_scan_to_next_token)."""
            peek, forward = self.reader.peek, self.reader.forward
            if self.reader.index == 0 and peek() == "\ufeff":
                forward()
            while True:
                while peek() == " " or (peek() == "\t" and (self.flow_level or not self.allow_simple_key)):
                    forward()
                if peek() == "#":
                    while peek() not in _END:
                        forward()
                if not self.scan_line_break():
                    return
                if not self.flow_level:
                    self.allow_simple_key = True

        def scan_plain_spaces(self, indent: int, start_mark: Any) -> list[str] | None:
            """The blanks and line breaks between two words of a plain scalar, as
            yaml_parser_scan_plain folds them; a tab in a continuation line's indentation is an
            error."""
            peek, forward = self.reader.peek, self.reader.forward
            length = 0
            while peek(length) in " \t":
                length += 1
            whitespaces = self.reader.prefix(length)
            forward(length)
            if peek() not in _LINE_BREAKS:
                return [whitespaces] if whitespaces else []
            line_break = self.scan_line_break()
            self.allow_simple_key = True
            if self._document_indicator():
                return None
            breaks: list[str] = []
            while peek() in " \t" + _LINE_BREAKS:
                if peek() == " ":
                    forward()
                elif peek() == "\t":
                    if self.reader.column < indent:
                        raise scanner_error("while scanning a plain scalar", start_mark,
                                            "found a tab character that violates indentation", self.reader.get_mark())
                    forward()
                else:
                    breaks.append(self.scan_line_break())
                    if self._document_indicator():
                        return None
            chunks = [line_break] if line_break != "\n" else [] if breaks else [" "]
            return chunks + breaks

        def scan_tag(self) -> Any:
            """A tag, which go-yaml ends at any blank: a tab after it separates it as a space does
            (ruamel.yaml wants a space), so the tab is read as a space for the tag's own check."""
            reader = self.reader
            end = reader.pointer
            while reader.buffer[end] not in " \t" + _END:
                end += 1
            if reader.buffer[end] != "\t":
                return super().scan_tag()
            buffer = reader.buffer
            reader.buffer = buffer[:end] + " " + buffer[end + 1:]
            try:
                return super().scan_tag()
            finally:
                reader.buffer = buffer

        def _document_indicator(self) -> bool:
            prefix = self.reader.prefix(3)
            return prefix in ("---", "...") and self.reader.peek(3) in _END + " \t"

        def scan_block_scalar_indentation(self) -> Any:
            chunks, max_indent, end_mark = super().scan_block_scalar_indentation()
            self._tab_in_block_indentation()
            return chunks, max_indent, end_mark

        def scan_block_scalar_breaks(self, indent: int) -> Any:
            chunks, end_mark = super().scan_block_scalar_breaks(indent)
            if self.reader.column < indent:
                self._tab_in_block_indentation()
            return chunks, end_mark

        def _tab_in_block_indentation(self) -> None:
            """yaml_parser_scan_block_scalar_breaks: a tab where the indentation is still read."""
            if self.reader.peek() == "\t":
                raise scanner_error("while scanning a block scalar", None,
                                    "found a tab character where an indentation space is expected",
                                    self.reader.get_mark())

    return GoTabsScanner


def go_mark(mark: Any, length: int) -> tuple[int, int]:
    """A ruamel.yaml mark as go-yaml's (0-based line and column): the end of a text of
    ``length`` that does not end with a line break is at the start of the next line (a negative
    ``length``: the mark is not the stream's end token's)."""
    if mark is None:
        return 0, 0
    if length >= 0 and getattr(mark, "index", 0) >= length and mark.column:
        return mark.line + 1, 0
    return mark.line, mark.column


def go_yaml_message(error: Exception, length: int) -> str:
    """A ruamel.yaml scanner or parser error as go-cty-yaml reports go-yaml's (``parserError``)."""
    problem = getattr(error, "problem", None) or str(error)
    context = getattr(error, "context", None) or ""
    for wanted_context, start, words in _PROBLEMS:
        if problem.startswith(start) and (not wanted_context or context == wanted_context):
            problem = words
            break
    scanner = type(error).__name__ == "ScannerError"
    # only the stream's end token is on a line of its own, not a scanner error at the end
    line, column = go_mark(getattr(error, "problem_mark", None), -1 if scanner else length)
    if line:
        if scanner:  # go-yaml has not counted the line yet
            return f"on line {line + 1}, column 1: {problem}"
        return f"on line {line}, column {column + 1}: {problem}"
    line, column = go_mark(getattr(error, "context_mark", None), -1 if scanner else length)
    return f"on line {line}, column {column + 1}: {problem}" if line else problem
