"""Baselines: today's findings recorded by fingerprint, so a later run reports only new ones.

A baseline matches by fingerprint only (rule, path, logical address); each entry also carries the
finding's path, line and message and the date it was first recorded, for the reviewer who reads
what was accepted. A baseline of fingerprints and rules only (written by an older kapsulint)
still loads.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from kapsulint.findings import Finding
from kapsulint.lint.fingerprints import fingerprints, report_path

FORMAT_VERSION = 1


class BaselineError(ValueError):
    pass


def write_baseline(path: Path, findings: list[Finding], repo_root: str, cwd: str,
                   today: dt.date | None = None) -> None:
    """Record ``findings``; an entry the file at ``path`` already had keeps its date."""
    written = (today or dt.datetime.now(dt.UTC).date()).isoformat()
    earlier = _recorded_dates(path)
    entries = [
        {"fingerprint": fingerprint, "rule": finding.rule, "path": report_path(finding.loc.path, repo_root, cwd),
         "line": finding.loc.line, "message": finding.message, "recorded": earlier.get(fingerprint, written)}
        for finding, fingerprint in zip(findings, fingerprints(findings, repo_root, cwd))
    ]
    entries.sort(key=lambda e: (e["path"], e["line"], e["rule"], e["fingerprint"]))
    data = {"kapsulint-baseline": FORMAT_VERSION, "written": written, "findings": entries}
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _recorded_dates(path: Path) -> dict[str, str]:
    """fingerprint -> date recorded, of the baseline at ``path`` if there is one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("kapsulint-baseline") != FORMAT_VERSION:
        return {}
    fallback = data.get("written")
    entries = data.get("findings", [])
    return {entry["fingerprint"]: recorded for entry in entries
            if isinstance(entries, list) and isinstance(entry, dict) and isinstance(entry.get("fingerprint"), str)
            and isinstance(recorded := entry.get("recorded", fallback), str)}


def read_baseline(path: Path) -> set[str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise BaselineError(f"cannot read baseline {path}: {error.strerror}") from None
    except ValueError as error:
        raise BaselineError(f"baseline {path} is not valid JSON: {error}") from None
    if not isinstance(data, dict) or data.get("kapsulint-baseline") != FORMAT_VERSION:
        raise BaselineError(f"{path} is not a kapsulint baseline (version {FORMAT_VERSION})")
    entries = data.get("findings", [])
    return {entry["fingerprint"] for entry in entries if isinstance(entries, list) and isinstance(entry, dict)
            and isinstance(entry.get("fingerprint"), str)}


def new_findings(findings: list[Finding], known: set[str], repo_root: str, cwd: str) -> list[Finding]:
    """The findings whose fingerprint is not in the baseline."""
    return [f for f, p in zip(findings, fingerprints(findings, repo_root, cwd)) if p not in known]
