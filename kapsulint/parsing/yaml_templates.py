"""Template expressions in YAML text: where a template engine writes into a values file.

Values files are often templates, or hold strings a chart renders: helmfile renders
``values.yaml.gotmpl`` with Go's text/template (https://pkg.go.dev/text/template), a chart passes
some values through Helm's ``tpl`` (https://helm.sh/docs/howto/charts_tips_and_tricks/#using-the-tpl-function),
``templatefile()`` renders ``${...}`` and ``%{...}`` (https://developer.hashicorp.com/terraform/language/expressions/strings#string-templates),
and Ansible renders ``.j2`` files with Jinja (https://jinja.palletsprojects.com/en/stable/templates/).

This module finds those expressions (an "action": Go's ``{{ }}``, Terraform's ``${ }`` and
``%{ }``, or Jinja's ``{{ }}``, ``{% %}`` and ``{# #}``) and gives the text YAML reads instead:
each action replaced by a placeholder of its own length, so that every other character keeps its
line and column. A placeholder is a run of one private-use character, which YAML reads as a
plain scalar (``key: {{ .x }}`` would otherwise be a flow mapping); on the lines after the first
of an action spanning lines it is spaces. An action that writes nothing (a comment, Jinja's
``{% set x = 1 %}``) standing alone on its lines becomes spaces, as if it were not there.
"""

from __future__ import annotations

from typing import NamedTuple

from kapsulint.parsing.scan import sequence_end
from kapsulint.text import lazy_pattern

PLACEHOLDER = "\ue000"

# Roles: what an action does to the text around it.
OUTPUT = "output"  # writes text where it stands
SILENT = "silent"  # writes nothing (a comment, an assignment)
OPEN = "open"  # starts a control structure (if, range, for, ...), closed by a CLOSE
MIDDLE = "middle"  # inside one (else, elif, break)
CLOSE = "close"  # ends one (end, endif, endfor)

GO, JINJA, TERRAFORM = "go", "jinja", "terraform"

_GO_OPENERS = lazy_pattern(r"\{\{|\$\$?\{|%%?\{")
_JINJA_OPENERS = lazy_pattern(r"\{[{%#]")
_WORD = lazy_pattern(r"[A-Za-z_][A-Za-z0-9_]*")

_GO_ROLES = {"if": OPEN, "range": OPEN, "with": OPEN, "define": OPEN, "block": OPEN,
             "else": MIDDLE, "break": MIDDLE, "continue": MIDDLE, "end": CLOSE}
_JINJA_OPENING = {"if", "for", "macro", "call", "filter", "block", "with", "autoescape", "raw", "trans"}
_JINJA_MIDDLE = {"elif", "else", "pluralize", "break", "continue"}
_JINJA_SILENT = {"import", "from", "do", "extends"}
_TERRAFORM_ROLES = {"if": OPEN, "for": OPEN, "else": MIDDLE, "endif": CLOSE, "endfor": CLOSE}


class Action(NamedTuple):
    start: int  # offset of the opening delimiter
    end: int  # offset after the closing delimiter
    role: str
    syntax: str  # GO, JINJA or TERRAFORM


def dialect_of(path: str | None) -> str:
    """The template syntax a file's name announces: Jinja for ``.j2``, ``.jinja`` and ``.jinja2``
    files, else Go's (with Terraform's, which ``templatefile()`` renders)."""
    if path is not None and path.lower().endswith((".j2", ".jinja", ".jinja2")):
        return JINJA
    return GO


def may_hold_actions(text: str, dialect: str) -> bool:
    """A quick test: False when ``text`` certainly holds no action."""
    if dialect == JINJA:
        return "{{" in text or "{%" in text or "{#" in text
    return "{{" in text or "${" in text or "%{" in text


def find_actions(text: str, dialect: str) -> list[Action]:
    """Every action of ``text``, in order. An opener that never closes is text, as it is to a
    YAML reader."""
    actions: list[Action] = []
    openers = _JINJA_OPENERS if dialect == JINJA else _GO_OPENERS
    index = 0
    while True:
        found = openers.search(text, index)
        if found is None:
            return actions
        start, opener = found.start(), found.group()
        if opener in ("$${", "%%{"):  # Terraform's escapes: literal text
            index = found.end()
            continue
        if dialect == JINJA:
            action = _jinja_action(text, start)
        elif opener == "{{":
            action = _go_action(text, start)
        else:
            action = _terraform_action(text, start)
        if action is None:
            index = start + 1
            continue
        actions.append(action)
        index = action.end


def _go_action(text: str, start: int) -> Action | None:
    """A Go template action from ``{{`` at ``start`` (text/template's lexer: a ``-`` followed by a
    space trims, a comment ``/* */`` follows the delimiter at once, ``}}`` in a string closes
    nothing)."""
    body = start + 2
    if text.startswith("-", body) and body + 1 < len(text) and text[body + 1] in " \t\r\n":
        body += 1
    inner = body
    while inner < len(text) and text[inner] in " \t\r\n":
        inner += 1
    if text.startswith("/*", inner):
        close = text.find("*/", inner + 2)
        if close < 0:
            return None
        end = text.find("}}", close + 2)
        if end < 0 or text[close + 2:end].strip(" \t\r\n-"):
            return None
        return Action(start, end + 2, SILENT, GO)
    end = _close_outside_strings(text, body, "}}", "\"'`")
    if end < 0:
        return None
    word = _WORD.match(text, inner)
    keyword = word.group() if word else ""
    return Action(start, end + 2, _GO_ROLES.get(keyword, OUTPUT), GO)


def _jinja_action(text: str, start: int) -> Action | None:
    kind = text[start + 1]
    if kind == "#":
        end = text.find("#}", start + 2)
        return Action(start, end + 2, SILENT, JINJA) if end >= 0 else None
    closer = "}}" if kind == "{" else "%}"
    end = _close_outside_strings(text, start + 2, closer, "\"'")
    if end < 0:
        return None
    if kind == "{":
        return Action(start, end + 2, OUTPUT, JINJA)
    statement = text[start + 2:end].strip(" \t\r\n-+")
    word = _WORD.match(statement)
    keyword = word.group() if word else ""
    if keyword in _JINJA_OPENING or (keyword == "set" and "=" not in statement):
        role = OPEN
    elif keyword in _JINJA_MIDDLE:
        role = MIDDLE
    elif keyword.startswith("end"):
        role = CLOSE
    elif keyword in _JINJA_SILENT or keyword == "set":
        role = SILENT
    else:
        role = OUTPUT  # include, and whatever else writes
    return Action(start, end + 2, role, JINJA)


def _terraform_action(text: str, start: int) -> Action | None:
    close = sequence_end(text, start + 2)
    if close < 0:
        return None
    if text[start] == "$":
        return Action(start, close + 1, OUTPUT, TERRAFORM)
    word = _WORD.match(text[start + 2:close].strip(" \t\r\n~"))
    keyword = word.group() if word else ""
    return Action(start, close + 1, _TERRAFORM_ROLES.get(keyword, OUTPUT), TERRAFORM)


def _close_outside_strings(text: str, index: int, closer: str, quotes: str) -> int:
    """The offset of the first ``closer`` from ``index`` outside the action's string literals, or
    -1. A quoted string ends at its quote (a backslash escapes, but not in Go's raw `` ` ``
    strings) or, but for raw strings, at the end of its line. When that would carry the action
    past its line while a ``closer`` ends the line's text, the line's wins: a string of a YAML
    double-quoted value holds its quotes escaped (``"{{ template \"name\" . }}"``), which the
    template sees unescaped once YAML has read the value."""
    end = _close_scanning_strings(text, index, closer, quotes)
    line_end = text.find("\n", index)
    if line_end >= 0 and (end < 0 or end > line_end):
        plain = text.find(closer, index, line_end)
        if plain >= 0:
            return plain
    return end


def _close_scanning_strings(text: str, index: int, closer: str, quotes: str) -> int:
    length = len(text)
    while index < length:
        char = text[index]
        if text.startswith(closer, index):
            return index
        if char in quotes:
            index += 1
            while index < length and text[index] != char:
                if text[index] == "\n" and char != "`":
                    break
                index += 2 if text[index] == "\\" and char != "`" else 1
        index += 1
    return -1


def substitute(text: str, actions: list[Action]) -> str:
    """``text`` as YAML reads it: each action a placeholder of its length (spaces on its lines
    after the first), a silent action alone on its lines only spaces."""
    pieces: list[str] = []
    index = 0
    for action in actions:
        pieces.append(text[index:action.start])
        region = text[action.start:action.end]
        lines = region.split("\n")
        if action.role == SILENT and standalone(text, action):
            pieces.append("\n".join(" " * len(line) for line in lines))
        else:
            pieces.append("\n".join([PLACEHOLDER * len(lines[0])] + [" " * len(line) for line in lines[1:]]))
        index = action.end
    pieces.append(text[index:])
    return "".join(pieces)


def standalone(text: str, action: Action) -> bool:
    """Whether nothing but blanks stands beside ``action`` on its first and last lines (and, after
    it, a YAML comment)."""
    line_start = text.rfind("\n", 0, action.start) + 1
    line_end = text.find("\n", action.end)
    line_end = len(text) if line_end < 0 else line_end
    after = text[action.end:line_end]
    rest = after.lstrip(" \t")
    return (not text[line_start:action.start].strip(" \t")
            and (not rest.strip(" \t\r") or (rest.startswith("#") and rest != after)))


def leads_line(substituted: str, action: Action) -> bool:
    """Whether only blanks and other actions stand before ``action`` on its line (read in the
    substituted text, where an action before it is a placeholder or blanks)."""
    line_start = substituted.rfind("\n", 0, action.start) + 1
    return not substituted[line_start:action.start].strip(" \t" + PLACEHOLDER)


def shown(text: str, action: Action, limit: int = 40) -> str:
    """An action's text for a message: its first line, cut to ``limit`` characters."""
    region = text[action.start:action.end]
    first = region.split("\n", 1)[0]
    if first != region or len(first) > limit:
        first = first[:limit - 4].rstrip() + " ..."
        closer = region[-2:] if action.syntax != TERRAFORM else region[-1:]
        return first + " " + closer
    return first
