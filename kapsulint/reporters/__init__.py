"""Reporters: findings in, text out. Each format lives in its own module, imported only when used."""

from __future__ import annotations

import re

from kapsulint.boundary import Boundary
from kapsulint.findings import Finding, Sensitive
from kapsulint.lint.registry import Rule
from kapsulint.text import lazy_pattern

# What a terminal, a CI log or a browser would act on instead of showing: the C0 controls (ESC
# starts the sequences that set a terminal's clipboard, ``ESC]52``, make links, ``ESC]8``, move the
# cursor or hide text, CSI), DEL and the C1 controls, the line and paragraph separators, and the
# bidirectional controls that reorder what is shown ("Trojan Source", CVE-2021-42574,
# https://trojansource.codes/), and lone surrogates (a file name that is not UTF-8), which no
# encoder writes.
_UNSAFE = lazy_pattern("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")
_UNSAFE_IN_LINES = lazy_pattern("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
                              "\ud800-\udfff]")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(match: re.Match) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte of a file name that is not UTF-8 (surrogateescape)
        code -= 0xDC00
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every character that a terminal, a CI log or a browser would act on written as
    an escape (``\\x1b``, ``\\u202e``, ``\\n``), so that what reaches a reader is what the input
    says, never a command to the reader's terminal. Every text-like report writes the messages,
    paths, source lines, related locations and fix hints it prints through it."""
    return _UNSAFE.sub(_escape, text) if _UNSAFE.search(text) else text


def printable_lines(text: str) -> str:
    """:func:`printable` keeping line ends and tabs: for text made of lines (messages on stderr)."""
    return _UNSAFE_IN_LINES.sub(_escape, text) if _UNSAFE_IN_LINES.search(text) else text


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
    sensitive: Sensitive  # masked in the source lines a report prints
    hidden: list[tuple[int, str]]  # (count, why): findings a baseline or --since left out
    unshown: frozenset[str]  # files whose lines are never echoed (a plan file holds sensitive values in clear)

    def __init__(
        self,
        rules: list[Rule],
        cwd: str,
        repo_root: str,
        version: str,
        notifications: list[tuple[str, str | None, str | None]] | None = None,
        color: bool = False,
        include_suppressed: bool = False,
        quiet: bool = False,
        unsafe_fixes: bool = False,
        boundary: Boundary | None = None,
        sensitive: Sensitive | None = None,
        hidden: list[tuple[int, str]] | None = None,
        unshown: frozenset[str] = frozenset(),
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
        self.sensitive = Sensitive() if sensitive is None else sensitive
        self.hidden = [] if hidden is None else hidden
        self.unshown = unshown


DEFAULT_SOURCE_SIZE = 5 * 1024 * 1024  # max-file-size's default: a source line is never read from more

FORMATS = ("text", "concise", "json", "sarif", "github", "gitlab")


def render(format_name: str, findings: list[Finding], context: ReportContext) -> str:
    """The report in one format; SARIF receives suppressed findings too and decides itself."""
    import importlib

    module = importlib.import_module(f"kapsulint.reporters.{format_name}")
    if format_name != "sarif":
        findings = [f for f in findings if f.suppressed_by is None]
    return module.render(findings, context)
