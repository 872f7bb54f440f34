"""Reporters: findings in, text out. Each format lives in its own module, imported only when used."""

from __future__ import annotations

from kapsulint.boundary import Boundary
from kapsulint.findings import Finding
from kapsulint.lint.registry import Rule


class ReportContext:
    """What every reporter may need besides the findings."""

    rules: list[Rule]  # every registered rule (SARIF lists them all)
    cwd: str  # JSON paths are relative to it
    repo_root: str  # SARIF URIs, fingerprints and annotations are relative to it
    version: str
    notifications: list[tuple[str, str | None, str | None]]  # (message, path, rule)
    color: bool
    include_suppressed: bool
    quiet: bool
    unsafe_fixes: bool  # --unsafe-fixes: unsafe fixes count as applicable in the text report
    boundary: Boundary  # what the text report may read for its source lines: the repository

    def __init__(
        self,
        rules: list[Rule],
        cwd: str,
        repo_root: str,
        version: str,
        notifications: list[tuple[str, str | None, str | None]] = None,
        color: bool = False,
        include_suppressed: bool = False,
        quiet: bool = False,
        unsafe_fixes: bool = False,
        boundary: Boundary | None = None,
    ) -> None:
        self.rules = rules
        self.cwd = cwd
        self.repo_root = repo_root
        self.version = version
        self.notifications = [] if notifications is None else notifications
        self.color = color
        self.include_suppressed = include_suppressed
        self.quiet = quiet
        self.unsafe_fixes = unsafe_fixes
        self.boundary = Boundary(repo_root, DEFAULT_SOURCE_SIZE) if boundary is None else boundary


DEFAULT_SOURCE_SIZE = 5 * 1024 * 1024  # max-file-size's default: a source line is never read from more

FORMATS = ("text", "json", "sarif", "github", "gitlab")


def render(format_name: str, findings: list[Finding], context: ReportContext) -> str:
    """The report in one format; SARIF receives suppressed findings too and decides itself."""
    import importlib

    module = importlib.import_module(f"kapsulint.reporters.{format_name}")
    if format_name != "sarif":
        findings = [f for f in findings if f.suppressed_by is None]
    return module.render(findings, context)
