"""Stable identities of findings: for SARIF ``partialFingerprints``, GitLab and baselines.

A fingerprint hashes the rule, the path relative to the repository root and the finding's logical
address (resource address and attribute path). Never a line number, a message or a value, so it
survives code moving and the offending value changing. Twins get ``:2``, ``:3`` in source order.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import PurePath

from kapsulint.findings import Finding


def absolute(path: str, cwd: str | None = None) -> str:
    if not os.path.isabs(path):
        path = os.path.join(cwd or os.getcwd(), path)
    return os.path.normpath(os.path.abspath(path))


def relative_path(path: str, repo_root: str, cwd: str | None = None) -> str | None:
    """``path`` relative to the repository root, with ``/`` separators; None when outside it."""
    full = absolute(path, cwd)
    root = os.path.normpath(os.path.abspath(repo_root))
    for candidate, base in ((full, root), (os.path.realpath(full), os.path.realpath(root))):
        try:
            relative = os.path.relpath(candidate, base)
        except ValueError:  # another drive (Windows)
            continue
        if relative != ".." and not relative.startswith(".." + os.sep):
            return PurePath(relative).as_posix()
    return None


def report_path(path: str, repo_root: str, cwd: str | None = None) -> str:
    """``path`` as reports outside the machine print it (SARIF, GitHub, GitLab, fingerprints):
    relative to the repository root, with ``/`` separators; ``..`` steps when it lies outside (no
    finding should, the scan reads nothing there), never the machine's absolute path; only the
    file's name when no relative path exists (another drive)."""
    relative = relative_path(path, repo_root, cwd)
    if relative is not None:
        return relative
    try:
        return PurePath(os.path.relpath(absolute(path, cwd), os.path.abspath(repo_root))).as_posix()
    except ValueError:
        return PurePath(path).name


def fingerprints(findings: list[Finding], repo_root: str, cwd: str | None = None) -> list[str]:
    """One fingerprint per finding, in the order given."""
    bases: list[str] = []
    for finding in findings:
        relative = report_path(finding.loc.path, repo_root, cwd)
        text = f"{finding.rule}\0{relative}\0{finding.logical}"
        bases.append(hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest())  # a file name's own bytes
    out = list(bases)
    seen: dict[str, int] = {}
    for position in sorted(range(len(findings)), key=lambda i: (findings[i].sort_key, i)):
        count = seen.get(bases[position], 0) + 1
        seen[bases[position]] = count
        if count > 1:
            out[position] = f"{bases[position]}:{count}"
    return out
