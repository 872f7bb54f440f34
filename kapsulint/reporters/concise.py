"""``--format concise``: one line per finding, ``path:line:col: severity KAPnnn name: message``,
then the text report's summary (for pre-commit and CI logs, and editors' error formats)."""

from __future__ import annotations

import os

from kapsulint.findings import Finding
from kapsulint.reporters import ReportContext, printable
from kapsulint.reporters.text import summary


def line(finding: Finding, cwd: str) -> str:
    try:
        path = os.path.relpath(finding.loc.path, cwd)
    except ValueError:  # another drive (Windows)
        path = finding.loc.path
    loc = finding.loc
    return (f"{printable(path)}:{loc.line}:{loc.column}: {finding.severity.value} {finding.rule} "
            f"{finding.name}: {printable(finding.message)}")


def render(findings: list[Finding], context: ReportContext) -> str:
    lines = [line(finding, context.cwd) for finding in findings]
    if not context.quiet:
        lines += summary(findings, context)
    return "".join(text + "\n" for text in lines)
