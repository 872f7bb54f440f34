"""Baselines: today's findings recorded by fingerprint, so a later run reports only new ones."""

from __future__ import annotations

import json
from pathlib import Path

from kapsulint.findings import Finding
from kapsulint.lint.fingerprints import fingerprints

FORMAT_VERSION = 1


class BaselineError(ValueError):
    pass


def write_baseline(path: Path, findings: list[Finding], repo_root: str, cwd: str) -> None:
    entries = [
        {"fingerprint": fingerprint, "rule": finding.rule}
        for finding, fingerprint in zip(findings, fingerprints(findings, repo_root, cwd))
    ]
    data = {"kapsulint-baseline": FORMAT_VERSION, "findings": sorted(entries, key=lambda e: e["fingerprint"])}
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def read_baseline(path: Path) -> set[str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise BaselineError(f"cannot read baseline {path}: {error.strerror}") from None
    except ValueError as error:
        raise BaselineError(f"baseline {path} is not valid JSON: {error}") from None
    if not isinstance(data, dict) or data.get("kapsulint-baseline") != FORMAT_VERSION:
        raise BaselineError(f"{path} is not a kapsulint baseline (version {FORMAT_VERSION})")
    return {entry["fingerprint"] for entry in data.get("findings", []) if isinstance(entry, dict)}


def new_findings(findings: list[Finding], known: set[str], repo_root: str, cwd: str) -> list[Finding]:
    """The findings whose fingerprint is not in the baseline."""
    return [f for f, p in zip(findings, fingerprints(findings, repo_root, cwd)) if p not in known]
