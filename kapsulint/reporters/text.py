"""The default report: ``path:line:col``, id and name, message, the source line with a marker."""

from __future__ import annotations

import os
from collections import Counter

from kapsulint.findings import Finding, masked_column
from kapsulint.reporters import ReportContext, printable

_COLORS = {"error": "\033[31m", "warning": "\033[33m", "note": "\033[36m", "bold": "\033[1m", "dim": "\033[2m"}
_RESET = "\033[0m"


def _paint(text: str, style: str, enabled: bool) -> str:
    return f"{_COLORS[style]}{text}{_RESET}" if enabled else text


def _source_line(path: str, line: int, cache: dict[str, list[str] | None], context: ReportContext) -> str | None:
    """Line ``line`` of the file at ``path``, read inside the repository only (a finding at a link
    that leads out of it, KAP014, shows no source), never from a file the context keeps unshown."""
    if path in context.unshown:
        return None
    if path not in cache:
        text = context.boundary.read_text(path)
        cache[path] = text.splitlines() if text is not None else None
    lines = cache[path]
    if lines is None or not 1 <= line <= len(lines):
        return None
    return lines[line - 1]


def applicable(finding: Finding, unsafe: bool) -> bool:
    """``--fix`` (with ``--unsafe-fixes`` when ``unsafe``) would fix it: marked ``[*]``, as Ruff does."""
    fix = finding.autofix
    return fix is not None and (fix.applicability == "safe" or unsafe)


def fixes_summary(findings: list[Finding], unsafe: bool) -> str:
    """``[*] 2 fixable with `kapsulint --fix` (1 more with `--unsafe-fixes`).``, or nothing."""
    fixable = sum(applicable(f, unsafe) for f in findings)
    hidden = sum(f.autofix is not None and not applicable(f, unsafe) for f in findings)
    if not fixable and not hidden:
        return ""
    option = "`kapsulint --fix --unsafe-fixes`" if unsafe else "`kapsulint --fix`"
    if not fixable:
        return f"No fixes available with `kapsulint --fix` ({hidden} with `--unsafe-fixes`)."
    text = f"[*] {fixable} fixable with {option}"
    if hidden:
        text += f" ({hidden} more with `--unsafe-fixes`)"
    return text + "."


def render(findings: list[Finding], context: ReportContext) -> str:
    color = context.color
    out: list[str] = []
    cache: dict[str, list[str] | None] = {}
    documented = {rule.id: rule for rule in context.rules}
    for finding in findings:
        try:
            shown_path = os.path.relpath(finding.loc.path, context.cwd)
        except ValueError:
            shown_path = finding.loc.path
        where = _paint(f"{printable(shown_path)}:{finding.loc.line}:{finding.loc.column}:", "bold", color)
        rule = _paint(f"{finding.rule} {finding.name} ({finding.severity.value})", finding.severity.value, color)
        mark = "[*] " if applicable(finding, context.unsafe_fixes) else ""
        out.append(f"{where} {rule} {mark}{printable(finding.message)}")
        source = _source_line(finding.loc.path, finding.loc.line, cache, context)
        if source is not None and finding.secret:
            start, end = finding.loc.column - 1, finding.loc.end_column - 1
            source = source[:start] + "*" * max(0, min(end, len(source)) - start) + source[end:]
        column, end_column = finding.loc.column, finding.loc.end_column
        if source is not None and context.sensitive:
            source, spans = context.sensitive.line(finding.loc.path, finding.loc.line, source)
            column, end_column = masked_column(spans, column), masked_column(spans, end_column, end=True)
        if source is not None:
            gutter = f"{finding.loc.line:>5} | "
            source = source.replace("\t", " ")
            out.append(gutter + printable(source))
            width = max(1, end_column - column) if finding.loc.end_line == finding.loc.line else 1
            width = min(width, max(1, len(source) - column + 1))
            # Where the escapes of what comes before the column, and of the marked text, put them.
            start = len(printable(source[:column - 1]))
            width = max(1, len(printable(source[column - 1:column - 1 + width])))
            marker = " " * start + "^" * width
            out.append(" " * (len(gutter) - 2) + "| " + _paint(marker, finding.severity.value, color))
        for related in finding.related:
            try:
                related_path = os.path.relpath(related.loc.path, context.cwd)
            except ValueError:
                related_path = related.loc.path
            out.append(f"      = {printable(related_path)}:{related.loc.line}:{related.loc.column}: "
                       f"{printable(related.message)}")
        if finding.instances:
            out.append("      = instances: " + printable(", ".join(finding.instances)))
        if finding.fix:
            out.append(_paint(f"      = fix: {printable(finding.fix)}", "dim", color))
        if finding.rule in documented:
            out.append(_paint(f"      = docs: {documented[finding.rule].help_uri(context.version)}", "dim", color))
        out.append("")
    if context.quiet:
        return "\n".join(out) + ("\n" if out else "")
    return "\n".join(out + summary(findings, context)) + "\n"


def summary(findings: list[Finding], context: ReportContext) -> list[str]:
    """The lines after the findings: counts by severity, what --fix would fix, how to read a rule's
    documentation, and the places kapsulint could not judge."""
    color = context.color
    out: list[str] = []
    rules = {rule.id: rule for rule in context.rules}
    blind = [f for f in findings if f.rule in rules and rules[f.rule].blind_spot]
    blind_ids = {id(f) for f in blind}
    judged = [f for f in findings if id(f) not in blind_ids]
    counts = Counter(f.severity.value for f in judged)
    if judged:
        parts = [f"{counts[level]} {level}{'s' if counts[level] != 1 else ''}" for level in ("error", "warning", "note") if counts[level]]
        out.append(_paint(f"Found {len(judged)} finding{'s' if len(judged) != 1 else ''} ({', '.join(parts)}).", "bold", color))
        fixes = fixes_summary(findings, context.unsafe_fixes)
        if fixes:
            out.append(fixes)
    if findings:
        first = min(f.rule for f in findings)
        out.append(f"Run `kapsulint --explain ID` for a rule's documentation, as in `kapsulint --explain {first}`.")
    if blind:
        line = could_not_judge(blind, rules)
        out.append(_paint(line if judged else f"No findings. {line}", "bold", color))
    elif not judged:
        out.append("No findings.")
    for count, why in context.hidden:
        out.append(f"{count} finding{'s' if count != 1 else ''} {why} not reported.")
    return out


def blind_spot_kinds(findings: list[Finding], rules: dict) -> list[tuple[int, str]]:
    """(count, words) per kind of blind spot, most frequent first, then in report order: the
    finding's own words, else its rule's ``COUNTED_AS``, else the rule's id and name."""
    counted: dict[tuple[str, str], int] = {}
    for finding in findings:
        rule = rules.get(finding.rule)
        words = finding.counted_as or (rule.counted_as if rule is not None else None)
        if words is None:
            words = (f"{finding.rule} {finding.name}",) * 2
        counted[words] = counted.get(words, 0) + 1
    ordered = sorted(counted.items(), key=lambda item: -item[1])  # stable: report order among equals
    return [(count, words[0] if count == 1 else words[1]) for words, count in ordered]


def could_not_judge(findings: list[Finding], rules: dict) -> str:
    """``kapsulint could not judge 3 places: 2 module calls not read, 1 chart version older than
    its facts.``"""
    total = len(findings)
    kinds = ", ".join(f"{count} {words}" for count, words in blind_spot_kinds(findings, rules))
    return f"kapsulint could not judge {total} place{'s' if total != 1 else ''}: {kinds}."
