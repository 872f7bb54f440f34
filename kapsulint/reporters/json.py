"""``--format json``: one array of findings, paths relative to the working directory."""

from __future__ import annotations

import json
import os

from kapsulint.findings import Finding
from kapsulint.reporters import ReportContext


def _relative(path: str, base: str, known: dict[str, str] | None = None) -> str:
    """``path`` relative to ``base``; ``known`` keeps the answers of one report (a file's findings
    share their path, and ``relpath`` is among a report's costs)."""
    if known is not None and path in known:
        return known[path]
    try:
        relative = os.path.relpath(path, base)
    except ValueError:
        relative = path
    if known is not None:
        known[path] = relative
    return relative


def finding_dict(finding: Finding, base: str, known: dict[str, str] | None = None) -> dict:
    data: dict[str, object] = {
        "rule": finding.rule,
        "name": finding.name,
        "severity": finding.severity.value,
        "message": finding.message,
        "path": _relative(finding.loc.path, base, known),
        "line": finding.loc.line,
        "column": finding.loc.column,
        "end_line": finding.loc.end_line,
        "end_column": finding.loc.end_column,
    }
    if finding.related:
        data["related"] = [
            {"path": _relative(r.loc.path, base, known), "line": r.loc.line, "column": r.loc.column, "message": r.message}
            for r in finding.related
        ]
    if finding.instances:
        data["instances"] = list(finding.instances)
    if finding.fix:
        data["fix"] = finding.fix
    fix = finding.autofix
    data["fixable"] = fix.applicability if fix is not None else None
    data["edits"] = [
        {"path": _relative(e.path, base, known), "line": e.line, "column": e.column, "end_line": e.end_line,
         "end_column": e.end_column, "content": e.content}
        for e in (fix.edits if fix is not None else ())
    ]
    return data


def render(findings: list[Finding], context: ReportContext) -> str:
    known: dict[str, str] = {}
    return json.dumps([finding_dict(f, context.cwd, known) for f in findings], indent=2) + "\n"
