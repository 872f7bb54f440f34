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
    quiet: bool = False


FORMATS = ("text", "json", "sarif", "github", "gitlab")


def render(format_name: str, findings: list[Finding], context: ReportContext) -> str:
    """The report in one format; SARIF receives suppressed findings too and decides itself."""
    import importlib

    module = importlib.import_module(f"kapsulint.reporters.{format_name}")
    if format_name != "sarif":
        findings = [f for f in findings if f.suppressed_by is None]
    return module.render(findings, context)
