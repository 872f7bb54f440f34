"""``--format github``: GitHub Actions workflow commands that annotate a pull request.

GitHub shows at most 10 annotations of each kind per step, so at most that many are printed per
level, most severe first, and a last notice counts what was left out. Paths are relative to the
repository root. Escaping follows GitHub's workflow command rules.
"""

from __future__ import annotations

from collections import Counter

from kapsulint.findings import Finding
from kapsulint.lint.fingerprints import report_path
from kapsulint.reporters import ReportContext, printable

SHOWN_PER_KIND = 10
_COMMANDS = {"error": "error", "warning": "warning", "note": "notice"}


def escape_data(text: str) -> str:
    """A workflow command's data: ``%``, CR and LF, which would end it and start a new command on
    the next line, as GitHub's runner reads them back."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render(findings: list[Finding], context: ReportContext) -> str:
    ordered = sorted(findings, key=lambda f: (-f.severity.rank, f.sort_key))
    shown: Counter = Counter()
    left_out: Counter = Counter()
    lines = []
    documented = {rule.id: rule for rule in context.rules}
    for finding in ordered:
        kind = _COMMANDS[finding.severity.value]
        if shown[kind] >= SHOWN_PER_KIND:
            left_out[kind] += 1
            continue
        shown[kind] += 1
        path = report_path(finding.loc.path, context.repo_root, context.cwd)
        loc = finding.loc
        properties = (
            f"file={escape_property(printable(path))},line={loc.line},col={loc.column},"
            f"endLine={loc.end_line},endColumn={loc.end_column},"
            f"title={escape_property(f'{finding.rule} {finding.name}')}"
        )
        message = printable(finding.message) + (f"\n\nFix: {printable(finding.fix)}" if finding.fix else "")
        if finding.rule in documented:
            message += f"\n\nDocs: {documented[finding.rule].help_uri(context.version)}"
        lines.append(f"::{kind} {properties}::{escape_data(message)}")
    if left_out:
        counts = ", ".join(f"{count} {kind}{'s' if count > 1 else ''}" for kind, count in sorted(left_out.items()))
        lines.append(
            f"::notice title=kapsulint::{escape_data(f'{sum(left_out.values())} more findings not shown as annotations ({counts}); see the full report')}"
        )
    return "".join(line + "\n" for line in lines)
