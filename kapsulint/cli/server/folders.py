"""A workspace folder of the language server: its settings, and one lint of it with the editor's
unsaved buffers read in place of the files on disk.

A folder is linted as ``kapsulint FOLDER`` lints it: the configuration is discovered upward from the
folder, the project root is the configuration's directory or the git top level, and the settings
the client sends (``select``, ``extend-select``, ``ignore``, ``unsafe-fixes``, ``today``, ``config``)
take the place of the command line's flags, so they override the configuration file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from kapsulint.cli.settings import CommandLine, Resolved, SettingsError, resolve_settings
from kapsulint.findings import Finding, Loc, Severity

# The client's setting keys, by the command line flag they stand for; camelCase is accepted too.
SETTING_KEYS = ("select", "extend-select", "ignore", "unsafe-fixes", "today", "config")


class Judgement:
    """What one lint of a folder found, kept for diagnostics, code actions and hover."""

    findings: dict[str, list[Finding]]  # reported (not suppressed) findings, by real path
    texts: dict[str, str]  # the buffers read in place of the files, by real path
    comments: dict[str, list[dict]]  # each file's comments (line, column, text), for hover on a suppression
    kinds: dict[str, str]  # each file's kind (config, tfvars, lock, values)
    unsafe_fixes: bool
    repository: str

    def __init__(self, findings: dict[str, list[Finding]], texts: dict[str, str],
                 comments: dict[str, list[dict]] | None = None, kinds: dict[str, str] | None = None,
                 unsafe_fixes: bool = False, repository: str = "") -> None:
        self.findings = findings
        self.texts = texts
        self.comments = {} if comments is None else comments
        self.kinds = {} if kinds is None else kinds
        self.unsafe_fixes = unsafe_fixes
        self.repository = repository


class Folder:
    """One workspace folder (or, for a file opened outside every folder, the file's directory)."""

    path: str  # the folder's real path
    name: str
    settings: dict[str, Any]  # the client's settings for this folder, kebab-case keys
    judgement: Judgement | None  # the last lint
    generation: int  # bumped by every change that calls for a new lint
    scanned: bool  # the first scan ran

    def __init__(self, path: str, name: str = "", settings: dict[str, Any] | None = None) -> None:
        self.path = os.path.realpath(path)
        self.name = name or os.path.basename(self.path)
        self.settings = {} if settings is None else settings
        self.judgement = None
        self.generation = 0
        self.scanned = False

    def holds(self, path: str) -> bool:
        return path == self.path or path.startswith(self.path.rstrip(os.sep) + os.sep)

    def resolve(self) -> Resolved:
        """The folder's settings as ``kapsulint FOLDER`` with the client's settings as flags would
        resolve them; :class:`SettingsError` for a setting or a configuration that is wrong."""
        return resolve_settings(command_line(Path(self.path), self.settings))

    def lint(self, buffers: dict[str, str]) -> Judgement:
        """Lint the folder with ``buffers`` (text by real path) read in place of those files.

        Raises :class:`SettingsError`; any other failure is the caller's to report (KAP008)."""
        from kapsulint.lint.runner import run

        resolved = self.resolve()
        result = run(resolved.settings, reads_with_buffers({path: text.encode("utf-8") for path, text in buffers.items()}))
        resolved.fix_policy.annotate(result.findings)
        by_path: dict[str, list[Finding]] = {}
        for finding in result.findings:
            if finding.suppressed_by is None:
                by_path.setdefault(finding.loc.path, []).append(finding)
        files = result.project.files
        return Judgement(by_path, dict(buffers),
                         {path: source.comments for path, source in files.items() if source.comments},
                         {path: source.kind for path, source in files.items()},
                         resolved.unsafe_fixes, str(resolved.repo_root))


def internal_error_judgement(folder: Folder, buffers: dict[str, str], message: str) -> Judgement:
    """A lint that failed: a KAP008 finding at the top of each open buffer of the folder."""
    findings = {path: [Finding(Loc(path, 1, 1, 1, 2), f"internal error: {message}", rule="KAP008",
                               name="internal-error", severity=Severity.ERROR, logical="internal-error.server")]
                for path in buffers if folder.holds(path)}
    return Judgement(findings, dict(buffers))


def reads_with_buffers(buffers: dict[str, bytes]):
    """How one lint reads the files: ``buffers`` (bytes by absolute real path) in place of those
    files for the whole project evaluation, the others from disk. The one place the server reaches
    the parser's reads (``--diff`` reads its fixed texts the same way)."""
    from kapsulint.parsing.sources import FileReads

    reads = FileReads()
    reads.set_overlay(buffers)
    return reads


def client_settings(raw: Any) -> tuple[dict[str, Any], list[str]]:
    """The client's settings with kebab-case keys (``unsafeFixes`` is ``unsafe-fixes``), and the
    keys that are not settings of kapsulint."""
    if not isinstance(raw, dict):
        return {}, []
    if isinstance(raw.get("kapsulint"), dict):  # {"kapsulint": {...}}, as some clients nest them
        raw = raw["kapsulint"]
    if isinstance(raw.get("settings"), dict):  # initializationOptions: {"settings": {...}}
        raw = raw["settings"]
    settings, unknown = {}, []
    for key, value in raw.items():
        kebab = "".join(f"-{c.lower()}" if c.isupper() else c for c in str(key))
        if kebab in SETTING_KEYS:
            settings[kebab] = value
        else:
            unknown.append(str(key))
    return settings, unknown


def command_line(target: Path, settings: dict[str, Any]) -> CommandLine:
    """The command line ``kapsulint TARGET`` with the client's settings as its flags."""

    def selectors(key: str) -> str | None:
        value = settings.get(key)
        if value is None:
            return None
        if isinstance(value, str):
            return value
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return ",".join(value)
        raise SettingsError(f"the client setting `{key}` must be a string or a list of strings, got {value!r}")

    unsafe = settings.get("unsafe-fixes")
    if unsafe is not None and not isinstance(unsafe, bool):
        raise SettingsError(f"the client setting `unsafe-fixes` must be true or false, got {unsafe!r}")
    today = settings.get("today")
    if today is not None and not isinstance(today, str):
        raise SettingsError(f"the client setting `today` must be a date YYYY-MM-DD, got {today!r}")
    config = settings.get("config")
    if config is not None and not isinstance(config, str):
        raise SettingsError(f"the client setting `config` must be a path, got {config!r}")
    return CommandLine(
        targets=[target],
        config_path=Path(target, os.path.expanduser(config)) if config else None,
        select=selectors("select"),
        extend_select=selectors("extend-select"),
        ignore=selectors("ignore"),
        today=today,
        unsafe_fixes=unsafe,
    )
