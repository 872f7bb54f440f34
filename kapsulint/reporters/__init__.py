"""Reporters: findings in, text out. Each format lives in its own module, imported only when used."""

from __future__ import annotations

from dataclasses import dataclass, field

from kapsulint.findings import Finding
from kapsulint.registry import Rule


@dataclass
class ReportContext:
    """What every reporter may need besides the findings."""

    rules: list[Rule]  # every registered rule (SARIF lists them all)
    cwd: str  # JSON paths are relative to it
    repo_root: str  # SARIF URIs, fingerprints and annotations are relative to it
    version: str
    notifications: list[tuple[str, str | None, str | None]] = field(default_factory=list)  # (message, path, rule)
    color: bool = False
    include_suppressed: bool = False
    summary: dict = field(default_factory=dict)


def render(format_name: str, findings: list[Finding], context: ReportContext) -> str:
    if format_name == "json":
        from kapsulint.reporters.json import render as renderer
    elif format_name == "sarif":
        from kapsulint.reporters.sarif import render as renderer
    else:
        from kapsulint.reporters.text import render as renderer
    return renderer(findings, context)
