"""YAML syntax errors in a user's words, with the parser's own text kept after them.

ruamel.yaml reports the token it met (``expected <block end>, but found '<block mapping
start>'``); a user wants what to change. Each known problem is said as the mistake that usually
causes it, in the terms of the YAML 1.2 specification (https://yaml.org/spec/1.2.2/): indentation,
plain and quoted scalars, flow collections, anchors and aliases.
"""

from __future__ import annotations

import re

_INDENTATION = "a line whose indentation matches no key above it (keys of one mapping start in one column)"

# (a pattern of the parser's text, the mistake in a user's words), first match wins
_WORDS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(pattern), words) for pattern, words in (
    (r"^expected <block end>, but found '<block mapping start>'", _INDENTATION),
    (r"^expected <block end>, but found '(?:<block sequence start>|-)'",
     "a list item (`-`) indented differently from the items or keys around it"),
    (r"^expected <block end>, but found '<scalar>'", "a value on a line whose indentation matches no key above it"),
    (r"^mapping values are not allowed here",
     "a `key:` where YAML allows none: a line indented deeper than the keys of its mapping, or a colon "
     "and a space inside an unquoted value (quote the value)"),
    (r"^found character '\\t' that cannot start any token", "a tab: YAML indents with spaces only"),
    (r"^found character '([@`])' that cannot start any token",
     "a value that starts with a character YAML reserves (`@` or a backquote): quote the value"),
    (r"^could not find expected ':'", "a key without its colon, or a value over several lines that needs quotes"),
    (r"^did not find expected key", "a line that is not a key where the mapping expects one (check its indentation)"),
    (r"^found undefined alias", "an alias (`*name`) that no anchor (`&name`) defines before it"),
    (r"^found unexpected end of stream", "a quoted value whose closing quote is missing"),
    (r"^expected ',' or '\]'", "a flow list `[...]` that is not closed, or items without a comma between them"),
    (r"^expected ',' or '\}'", "a flow mapping `{...}` that is not closed, or entries without a comma between them"),
    (r"^found unknown escape character",
     "an escape that double-quoted YAML strings do not have: write `\\\\` for a backslash, or use single quotes"),
))


def in_words(problem: str, line: int, column: int) -> str:
    """``invalid YAML at line L, column C: <the mistake> (YAML parser: <its text>)``; a problem
    that is not one of the parser's known ones (a NUL byte, invalid UTF-8, a values file that is
    not a mapping) is already in a user's words and is returned as it is."""
    for pattern, words in _WORDS:
        if pattern.search(problem):
            return f"invalid YAML at line {line}, column {column}: {words} (YAML parser: {problem})"
    return problem
