"""Edits that fix a finding, computed from the positions the model keeps, on the file as written.

An edit replaces a region of the original text and nothing else: comments, blank lines, quoting
and alignment elsewhere stay as the author wrote them. Inserting or removing an attribute
re-aligns the ``=`` signs (and trailing comments) of its run of single-line attributes the way
``terraform fmt`` does, so a file that passed ``terraform fmt -check`` still passes it; see
hclwrite's ``formatCells`` (https://github.com/hashicorp/hcl/blob/v2.23.0/hclwrite/format.go).

Every builder returns None (the fix is refused) when a position is unknown, when the file is JSON
syntax, or when the text on disk is not what the parser saw.
"""

from __future__ import annotations

from typing import NamedTuple

from kapsulint.findings import Edit, Loc
from kapsulint.model.modules import Attribute, Block
from kapsulint.model.project import Project
from kapsulint.text import lazy_pattern

INDENT = "  "  # terraform fmt indents each nesting level by two spaces

_HEREDOC = lazy_pattern(r"<<-?([A-Za-z_][\w-]*)")


class _Line(NamedTuple):
    """What ``terraform fmt`` sees in a line: where its assign and trailing comment cells start."""

    equals: int | None  # index of the ``=`` of a single-line attribute
    comment: int | None  # index of a trailing comment (one after some code)

    @property
    def cells(self) -> bool:
        return self.equals is not None or self.comment is not None


def _skip_string(line: str, index: int) -> int:
    """The index after the quoted string opening at ``index`` (interpolations may nest quotes)."""
    j = index + 1
    while j < len(line):
        if line[j] == "\\":
            j += 2
        elif line[j] == '"':
            return j + 1
        elif line.startswith(("$${", "%%{"), j):
            j += 3
        elif line.startswith(("${", "%{"), j):
            j = _skip_template(line, j + 2)
        else:
            j += 1
    return len(line)


def _skip_template(line: str, j: int) -> int:
    depth = 1
    while j < len(line):
        char = line[j]
        if char == '"':
            j = _skip_string(line, j)
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return len(line)


def _tokens(line: str, start: int) -> tuple[list[tuple[str, int]], str | None, bool]:
    """(kind, index) of each token from ``start``, the heredoc marker opened, an unclosed ``/*``."""
    tokens: list[tuple[str, int]] = []
    i = start
    while i < len(line):
        char = line[i]
        if char in " \t\r":
            i += 1
        elif char == "#" or line.startswith("//", i):
            tokens.append(("comment", i))
            break
        elif line.startswith("/*", i):
            end = line.find("*/", i + 2)
            tokens.append(("comment", i))
            if end < 0:
                return tokens, None, True
            i = end + 2
        elif char == '"':
            tokens.append(("other", i))
            i = _skip_string(line, i)
        elif line.startswith("<<", i) and _HEREDOC.match(line, i):
            tokens.append(("heredoc", i))
            return tokens, _HEREDOC.match(line, i).group(1), False  # type: ignore[union-attr]
        elif char in "{[(":
            tokens.append(("open", i))
            i += 1
        elif char in "}])":
            tokens.append(("close", i))
            i += 1
        elif line.startswith(("==", "=>", "!=", "<=", ">="), i):
            tokens.append(("other", i))
            i += 2
        elif char == "=":
            tokens.append(("equals", i))
            i += 1
        else:
            j = i + 1
            if char.isalnum() or char in "_-.":
                while j < len(line) and (line[j].isalnum() or line[j] in "_-."):
                    j += 1
            tokens.append(("other", i))
            i = j
    return tokens, None, False


State = tuple  # (the heredoc marker awaited or None, inside a /* comment): where a line starts
START: State = (None, False)


def scan_lines(lines: list[str], state: State = START) -> list[_Line]:
    """Each line's cells as hclwrite's ``linesForFormat`` splits them, the first line starting in
    ``state``."""
    return _scan(lines, state)[0]


def scanned(project: Project, lines: list[str]) -> tuple[list[_Line], list[State]]:
    """A whole file's scan with the state at the start of each line (and after the last), kept by
    the run's reads while the same list of lines is in use: every edit of a file reads one scan,
    so fixing thousands of blocks of one file stays linear."""
    scans = project.reads.scans
    entry = scans.get(id(lines))
    if entry is None or entry[0] is not lines:
        if len(scans) > 64:
            scans.clear()
        entry = (lines, *_scan(lines, START))
        scans[id(lines)] = entry
    return entry[1], entry[2]


def state_after(lines: list[str], state: State) -> State:
    """Where the line after ``lines`` starts, when the first starts in ``state``."""
    return _scan(lines, state)[1][-1]


def _scan(lines: list[str], state: State) -> tuple[list[_Line], list[State]]:
    infos: list[_Line] = []
    states: list[State] = []
    heredoc, in_comment = state
    for line in lines:
        states.append((heredoc, in_comment))
        if heredoc is not None:
            if line.strip() == heredoc:
                heredoc = None
            infos.append(_Line(None, None))
            continue
        start = 0
        if in_comment:
            end = line.find("*/")
            if end < 0:
                infos.append(_Line(None, None))
                continue
            in_comment, start = False, end + 2
        tokens, heredoc, in_comment = _tokens(line, start)
        if start:
            tokens.insert(0, ("comment", 0))
        comment = tokens[-1][1] if len(tokens) > 1 and tokens[-1][0] == "comment" else None
        code = tokens[:-1] if comment is not None else tokens
        equals = None
        for position, (kind, index) in enumerate(code):
            if kind == "equals" and position > 0:
                balance = 0
                for later, _ in code[position:]:
                    if later == "heredoc":
                        break
                    balance += (later == "open") - (later == "close")
                if balance == 0:
                    equals = index
                break
        infos.append(_Line(equals, comment))
    states.append((heredoc, in_comment))
    return infos, states


def _pad(line: str, at: int, width: int) -> str:
    """``line`` with the spaces before index ``at`` set so that the cell starts at column ``width``."""
    head = line[:at].rstrip()
    return head + " " * max(1, width - len(head)) + line[at:]


def _aligned(lines: list[str], state: State) -> list[str]:
    """``lines`` aligned as ``formatCells`` aligns chains of assign and comment cells, the first
    line starting in ``state``."""
    out = list(lines)
    last = len(out)
    for kind in ("equals", "comment"):
        infos = scan_lines(out, state)
        index = 0
        while index < last:
            if getattr(infos[index], kind) is None:
                index += 1
                continue
            end = index
            while end < last and getattr(infos[end], kind) is not None:
                end += 1
            chain = range(index, end)
            width = max(len(out[i][: getattr(infos[i], kind)].rstrip()) for i in chain) + 1
            for i in chain:
                out[i] = _pad(out[i], getattr(infos[i], kind), width)
            index = end
    return out


def _replace_lines(project: Project, path: str, lines: list[str], start: int, end: int,
                   replacement: list[str]) -> Edit:
    """An edit replacing lines ``start..end-1`` (0-based) by ``replacement``, re-aligning around them."""
    infos, states = scanned(project, lines)
    first, old_last = start, end
    while first > 0 and infos[first - 1].cells:
        first -= 1
    if state_after(replacement, states[start]) == states[end]:  # the lines after the replacement read as before: only a window moves
        while old_last < len(lines) and infos[old_last].cells:
            old_last += 1
        aligned = _aligned(lines[first:start] + replacement + lines[end:old_last], states[first])
    else:  # the replacement opens or closes a heredoc or a comment: the whole rest is read anew
        new = lines[:start] + replacement + lines[end:]
        new_infos = scan_lines(new)
        last = start + len(replacement)
        while last < len(new) and new_infos[last].cells:
            last += 1
        aligned = _aligned(new[first:last], states[first])
        old_last = last - (len(replacement) - (end - start))
    if old_last < len(lines):
        return Edit(path, first + 1, 1, old_last + 1, 1, "".join(line + "\n" for line in aligned))
    # the region runs to the end of a file without a final newline
    tail = len(lines[-1]) + 1
    if first == len(lines):
        return Edit(path, len(lines), tail, len(lines), tail, "".join("\n" + line for line in aligned))
    return Edit(path, first + 1, 1, len(lines), tail, "\n".join(aligned))


def _native(path: str) -> bool:
    return not path.endswith(".json")


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _own_lines(lines: list[str], loc: Loc) -> bool:
    """Nothing but blanks before ``loc`` on its first line, and blanks or a comment after it."""
    if loc.end_line > len(lines) or lines[loc.line - 1][: loc.column - 1].strip():
        return False
    rest = lines[loc.end_line - 1][loc.end_column - 1:].strip()
    return not rest or rest.startswith(("#", "//"))


def _body(project: Project, block: Block) -> tuple[list[str], Loc] | None:
    """The file's lines and the block's body span, when the text on disk has the braces there."""
    body = block.body_span
    if body is None or not _native(block.path):
        return None
    lines = project.source_lines(block.path)
    if lines is None or body.end_line > len(lines):
        return None
    if lines[body.line - 1][body.column - 2: body.column - 1] != "{":
        return None
    if lines[body.end_line - 1][body.end_column - 1: body.end_column] != "}":
        return None
    return lines, body


def replace_value(project: Project, attribute: Attribute, text: str) -> Edit | None:
    """Replace the attribute's expression by ``text`` (HCL, as it should be written)."""
    loc = attribute.value_loc
    if not _native(attribute.path) or attribute.span is None:
        return None
    lines = project.source_lines(attribute.path)
    if lines is None or loc.end_line > len(lines) or loc.line < 1:
        return None
    indent = _indent(lines[attribute.span.line - 1])
    return Edit(attribute.path, loc.line, loc.column, loc.end_line, loc.end_column,
                text.replace("\n", "\n" + indent))


def remove_attribute(project: Project, attribute: Attribute) -> Edit | None:
    """Remove the attribute's whole lines (with a comment that ends its last line)."""
    span = attribute.span
    if span is None or not _native(attribute.path):
        return None
    lines = project.source_lines(attribute.path)
    if lines is None or not _own_lines(lines, span):
        return None
    return _replace_lines(project, attribute.path, lines, span.line - 1, span.end_line, [])


def set_attribute(project: Project, block: Block, name: str, value_text: str) -> tuple[Edit, ...] | None:
    """Insert ``name = value_text`` in the block's body, after its last attribute before any nested
    block, aligned as ``terraform fmt`` aligns the run it joins. None when the block already sets
    ``name`` (replace its value instead)."""
    found = _body(project, block)
    if found is None or block.attr(name) is not None:
        return None
    lines, body = found
    header_indent = _indent(lines[block.loc.line - 1])
    if body.line == body.end_line:  # `{}` on one line: open it
        if lines[body.line - 1][body.column - 1: body.end_column - 1].strip():
            return None
        content = f"\n{header_indent}{INDENT}{name} = {value_text}\n{header_indent}"
        return (Edit(block.path, body.line, body.column, body.end_line, body.end_column, content),)
    if lines[body.end_line - 1][: body.end_column - 1].strip():
        return None  # the closing brace shares its line with code
    nested = [b.span.line for b in block.blocks if b.path == block.path]
    before = [a.span for a in block.attrs.values()
              if a.path == block.path and a.span is not None and (not nested or a.span.line < min(nested))]
    if before:
        last = max(before, key=lambda span: span.end_line)
        if not _own_lines(lines, last):
            return None
        at, indent = last.end_line, _indent(lines[last.line - 1])
    elif body.line + 1 < body.end_line and lines[body.line - 1][body.column - 1:].strip() == "":
        at, indent = body.line, header_indent + INDENT
    else:
        at, indent = body.end_line - 1, header_indent + INDENT
    new = (f"{indent}{name} = " + value_text.replace("\n", "\n" + indent)).split("\n")
    return (_replace_lines(project, block.path, lines, at, at, new),)


def insert_after(project: Project, path: str, span: Loc, name: str, value_text: str) -> Edit | None:
    """Insert ``name = value_text`` on a new line after the attribute or object item at ``span``
    (an item of ``set = [{ ... }]``, say), indented as it is and aligned as ``terraform fmt``
    aligns the run it joins; None when ``span`` shares its lines with other code."""
    if not _native(path):
        return None
    lines = project.source_lines(path)
    if lines is None or not _own_lines(lines, span):
        return None
    new = [f"{_indent(lines[span.line - 1])}{name} = {value_text}"]
    return _replace_lines(project, path, lines, span.end_line, span.end_line, new)


def replace_key(project: Project, loc: Loc, text: str) -> Edit | None:
    """Replace the object key or attribute name written at ``loc`` (one line) by ``text``: in HCL
    the ``=`` signs of its run are re-aligned as ``terraform fmt`` aligns them; in a values file
    only the key's text changes."""
    if loc.line != loc.end_line or loc.path.endswith(".json"):
        return None
    lines = project.source_lines(loc.path)
    if lines is None or loc.line > len(lines) or loc.end_column - 1 > len(lines[loc.line - 1]):
        return None
    if loc.path.endswith((".yaml", ".yml")):
        return Edit(loc.path, loc.line, loc.column, loc.end_line, loc.end_column, text)
    line = lines[loc.line - 1]
    new = line[: loc.column - 1] + text + line[loc.end_column - 1:]
    return _replace_lines(project, loc.path, lines, loc.line - 1, loc.line, [new])


def insert_block(project: Project, block: Block, text: str) -> Edit | None:
    """Insert the nested block ``text`` (written at indentation zero) at the end of the body."""
    found = _body(project, block)
    if found is None:
        return None
    lines, body = found
    header_indent = _indent(lines[block.loc.line - 1])
    indent = header_indent + INDENT
    nested = [indent + line if line else "" for line in text.rstrip("\n").split("\n")]
    if body.line == body.end_line:
        if lines[body.line - 1][body.column - 1: body.end_column - 1].strip():
            return None
        content = "\n" + "\n".join(nested) + "\n" + header_indent
        return Edit(block.path, body.line, body.column, body.end_line, body.end_column, content)
    if lines[body.end_line - 1][: body.end_column - 1].strip():
        return None
    previous = lines[body.end_line - 2]
    gap = [] if body.end_line - 1 == body.line or not previous.strip() else [""]
    content = "".join(line + "\n" for line in gap + nested)
    return Edit(block.path, body.end_line, 1, body.end_line, 1, content)


def remove_text(project: Project, loc: Loc) -> Edit | None:
    """Remove a one-line region (a comment, say); its whole line when nothing else is left on it,
    else with the blanks before it when it ended the line."""
    lines = project.source_lines(loc.path)
    if lines is None or loc.line != loc.end_line or loc.line > len(lines):
        return None
    line = lines[loc.line - 1]
    before, after = line[: loc.column - 1], line[loc.end_column - 1:]
    if not before.strip() and not after.strip():
        if loc.line == len(lines):
            return None
        return Edit(loc.path, loc.line, 1, loc.line + 1, 1, "")
    if not after.strip():
        return Edit(loc.path, loc.line, len(before.rstrip()) + 1, loc.line, len(line) + 1, "")
    return Edit(loc.path, loc.line, loc.column, loc.end_line, loc.end_column, "")


def replace_yaml_text(project: Project, loc: Loc | None, text: str) -> Edit | None:
    """Replace a scalar of a values file, by its value's location, with ``text`` (YAML)."""
    if loc is None or not loc.path.endswith((".yaml", ".yml")) or loc.line != loc.end_line:
        return None
    lines = project.source_lines(loc.path)
    if lines is None or loc.line > len(lines) or loc.end_column - 1 > len(lines[loc.line - 1]):
        return None
    return Edit(loc.path, loc.line, loc.column, loc.end_line, loc.end_column, text)
