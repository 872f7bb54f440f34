"""``--format gitlab``: GitLab Code Quality JSON, with unique fingerprints."""

from __future__ import annotations

import hashlib
import json

from kapsulint.findings import Finding
from kapsulint.lint.fingerprints import fingerprints, report_path
from kapsulint.lint.registry import by_id
from kapsulint.reporters import ReportContext, printable

_SEVERITIES = {"error": "major", "warning": "minor", "note": "info"}


def render(findings: list[Finding], context: ReportContext) -> str:
    rules = by_id()
    prints = fingerprints(findings, context.repo_root, context.cwd)
    issues = []
    for finding, fingerprint in zip(findings, prints):
        rule = rules.get(finding.rule)
        severity = _SEVERITIES[finding.severity.value]
        if rule is not None and rule.security and finding.severity.value == "error":
            severity = "critical"
        issues.append({
            "description": f"{finding.rule} {finding.name}: {printable(finding.message)}",
            "check_name": finding.rule,
            "fingerprint": hashlib.md5(fingerprint.encode(), usedforsecurity=False).hexdigest(),
            "severity": severity,
            "location": {
                "path": printable(report_path(finding.loc.path, context.repo_root, context.cwd)),
                "lines": {"begin": finding.loc.line, "end": finding.loc.end_line},
            },
        })
    return json.dumps(issues, indent=2) + "\n"
