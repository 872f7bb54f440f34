"""Findings, fixes and rule documentation in the shapes of the Language Server Protocol.

kapsulint counts 1-based lines and code-point columns (end exclusive); the protocol counts 0-based
lines and characters in the position encoding agreed with the client (UTF-16 unless the client
offers another), so every column is converted on the text of its line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from lsprotocol import types

from kapsulint.findings import Edit, Finding, Fix, Loc, Severity
from kapsulint.lint.registry import Rule, SelectionError, by_id, matching
from kapsulint.text import decoded

SOURCE = "kapsulint"
FIX_ALL = "source.fixAll.kapsulint"
UNUSED_SUPPRESSION = "KAP003"  # a suppression comment that matches no finding: tagged unnecessary
SEVERITIES = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.NOTE: types.DiagnosticSeverity.Information,
}
REASON_PLACEHOLDER = "<why this finding is accepted here>"
_DIRECTIVE = re.compile(r"kapsulint:\s*ignore(?:-file)?\s*\[(?P<selectors>[^\]]*)\]")

Units = Callable[[str], int]  # the client's code units in a string (UTF-16 by default)


def position(lines: Sequence[str], line: int, column: int, units: Units) -> types.Position:
    """The protocol's position of kapsulint's (``line``, ``column``) on ``lines`` (a column past the
    end of its line counts one unit per missing character)."""
    text = lines[line - 1].rstrip("\r\n") if 0 < line <= len(lines) else ""
    before = text[:max(column - 1, 0)]
    return types.Position(max(line - 1, 0), units(before) + max(column - 1 - len(text), 0))


def loc_range(loc: Loc | Edit, lines: Sequence[str], units: Units) -> types.Range:
    return types.Range(position(lines, loc.line, loc.column, units), position(lines, loc.end_line, loc.end_column, units))


def code_points(lines: Sequence[str], pos: types.Position, units: Units) -> tuple[int, int]:
    """kapsulint's (line, column) of a protocol position on ``lines``."""
    line = pos.line + 1
    text = lines[pos.line].rstrip("\r\n") if pos.line < len(lines) else ""
    count = 0
    for index, char in enumerate(text):
        if count >= pos.character:
            return line, index + 1
        count += units(char)
    return line, len(text) + 1 + max(pos.character - count, 0)


def diagnostic(finding: Finding, lines: Sequence[str], units: Units, rules: dict[str, Rule],
               related_place: Callable[[Loc], types.Location | None]) -> types.Diagnostic:
    rule = rules.get(finding.rule)
    message = finding.message
    if finding.instances:
        message += f" (instances: {', '.join(finding.instances)})"
    if finding.fix:
        message += f"\nfix: {finding.fix}"
    related = []
    for item in finding.related:
        place = related_place(item.loc)
        if place is not None:
            related.append(types.DiagnosticRelatedInformation(place, item.message))
    return types.Diagnostic(
        range=loc_range(finding.loc, lines, units),
        message=message,
        severity=SEVERITIES[finding.severity],
        code=finding.rule,
        code_description=types.CodeDescription(href=rule.help_uri()) if rule is not None else None,
        source=SOURCE,
        related_information=related or None,
        tags=[types.DiagnosticTag.Unnecessary] if finding.rule == UNUSED_SUPPRESSION else None,
    )


def overlaps(loc: Loc, line: int, column: int, end_line: int, end_column: int) -> bool:
    """Whether a finding's region meets the (line, column)-(end_line, end_column) range (a cursor
    when it is empty: on the region, its end included)."""
    start, end = (loc.line, loc.column), (loc.end_line, loc.end_column)
    if (line, column) == (end_line, end_column):
        return start <= (line, column) <= end
    return start < (end_line, end_column) and (line, column) < end


def fixed_texts(fix: Fix, text_of: Callable[[str], str | None], kinds: dict[str, str]) -> dict[str, tuple[str, str]] | None:
    """Each file's text before and after the fix's edits, applied as ``--fix`` applies them (line
    ends and a BOM kept); None when a file cannot be read or its fixed text would not parse
    (``--fix`` refuses such a fix too)."""
    from kapsulint.lint.fixes import FileText, apply_edits
    from kapsulint.parsing.sources import parse_content

    by_file: dict[str, list[Edit]] = {}
    for edit in fix.edits:
        by_file.setdefault(edit.path, []).append(edit)
    texts = {}
    for path, edits in by_file.items():
        before = text_of(path)
        if before is None:
            return None
        try:
            current = FileText(path, before.encode("utf-8"))
        except ValueError:  # mixed line ends: --fix refuses the file too
            return None
        after_bytes = current.encoded(apply_edits(current.text, edits))
        parsed = parse_content(path, kinds.get(path, "config"), after_bytes)
        if parsed.get("internal") or parsed["error"] is not None:
            return None
        texts[path] = (before, decoded(after_bytes))
    return texts


def minimal_edit(before: str, after: str, units: Units) -> types.TextEdit:
    """One edit that turns ``before`` into ``after``: the region between their common start and
    common end, so the client's result is exactly ``after`` whatever order it applies edits in."""
    start = 0
    limit = min(len(before), len(after))
    while start < limit and before[start] == after[start]:
        start += 1
    end = 0
    while end < limit - start and before[len(before) - 1 - end] == after[len(after) - 1 - end]:
        end += 1
    return types.TextEdit(types.Range(_offset_position(before, start, units),
                                      _offset_position(before, len(before) - end, units)),
                          after[start:len(after) - end])


def _offset_position(text: str, offset: int, units: Units) -> types.Position:
    line = text.count("\n", 0, offset)
    line_start = text.rfind("\n", 0, offset) + 1
    return types.Position(line, units(text[line_start:offset]))


def suppression_text(finding: Finding, text: str) -> str | None:
    """``text`` with a suppression comment for the finding on its own line above the finding's
    line, indented as that line; None for a file without comments (JSON)."""
    if finding.loc.path.endswith(".json"):
        return None
    lines = text.split("\n")
    index = finding.loc.line - 1
    if not 0 <= index < len(lines):
        return None
    line = lines[index]
    indent = line[:len(line) - len(line.lstrip(" \t"))]
    comment = f"{indent}# kapsulint: ignore[{finding.rule}] {REASON_PLACEHOLDER}" + ("\r" if line.endswith("\r") else "")
    return "\n".join([*lines[:index], comment, *lines[index:]])


def suppression_covers(finding: Finding, path: str, kind: str, text: str) -> bool:
    """Whether ``text``, parsed as the file, holds a suppression that covers the finding."""
    from kapsulint.lint.suppressions import parse_suppressions
    from kapsulint.parsing.sources import parse_content, source_from

    parsed = parse_content(path, kind, text.encode("utf-8"))
    if parsed.get("internal") or parsed["error"] is not None:
        return False
    moved = Finding(finding.loc.shifted(1), finding.message, rule=finding.rule)
    return any(s.covers(moved) and s.problem is None for s in parse_suppressions(source_from(path, kind, parsed)))


def rules_in_directive(comments: Iterable[dict], line: int, column: int) -> list[Rule]:
    """The rules named by the selector under (line, column) in a suppression comment, if any."""
    rules = by_id()
    for comment in comments:
        if comment["line"] != line:
            continue
        body = comment["text"]
        offset = column - comment["column"]
        if not 0 <= offset <= len(body):
            continue
        match = _DIRECTIVE.search(body)
        if match is None:
            continue
        at = match.start("selectors")
        for part in match.group("selectors").split(","):
            stripped = part.strip()
            begin = at + len(part) - len(part.lstrip())
            if stripped and begin <= offset <= begin + len(stripped):
                try:
                    return [rules[r.id] for r in matching(stripped)]
                except SelectionError:
                    return []
            at += len(part) + 1
    return []


def hover_text(rules: list[Rule]) -> str:
    """The rules' documentation as ``--explain`` shows it; several rules (a prefix) as a list."""
    if len(rules) == 1:
        return rules[0].explanation
    return "\n".join(f"- **{rule.id}** `{rule.name}`: {rule.summary}" for rule in rules)
