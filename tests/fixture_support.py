"""Shared helpers for fixture-driven tests (fixture projects with `# expect:` markers or a case.toml)."""

from __future__ import annotations

import json
import os
import re
import shutil
import tomllib
from collections import Counter
from pathlib import Path
from typing import NamedTuple

from click.testing import CliRunner

from kapsulint.cli.command import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
# Rules about the files and comments themselves: a case of any rule may show their findings too.
FILE_RULES = ("KAP001", "KAP002", "KAP003", "KAP004", "KAP005", "KAP009")
_MARKER = re.compile(r"(?:#|//)\s*expect(?:\+(\d+))?:\s*([A-Z0-9@, ]+)")
_MARKED_SUFFIXES = (".tf", ".tofu", ".tfvars", ".hcl", ".yaml", ".yml", ".tftpl", ".tpl")
SNAPSHOT = "findings.snap"  # beside each case's files: every finding of the case as reported
UPDATE_COMMAND = "python -m pytest tests/test_fixtures.py --update-snapshots"


def cases() -> list[Path]:
    return sorted(p for p in FIXTURES.glob("KAP*/*") if p.is_dir())


def expected(case: Path) -> Counter:
    """(file, line, rule, column or None) for every marker and every case.toml expectation."""
    found: Counter = Counter()
    for path in sorted(case.rglob("*")):
        if not path.is_file() or not path.name.endswith(_MARKED_SUFFIXES):
            continue
        relative = path.relative_to(case).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8-sig", errors="replace").splitlines(), start=1):
            match = _MARKER.search(line)
            if not match:
                continue
            target = number + int(match.group(1) or 0)
            for item in match.group(2).split(","):
                item = item.strip()
                if not item:
                    continue
                rule, _, column = item.partition("@")
                found[(relative, target, rule, int(column) if column else None)] += 1
    config = case_config(case)
    for item in config.get("expect", []):
        parts = item.split(":")
        column = int(parts[3]) if len(parts) > 3 else None
        found[(parts[0], int(parts[1]), parts[2], column)] += 1
    return found


def case_config(case: Path) -> dict:
    path = case / "case.toml"
    return tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def lint(directory: Path, args: list[str], monkeypatch, env: dict | None = None,
         reported: list | None = None) -> tuple[int, list[dict], str]:
    """Run the CLI in ``directory`` with JSON output; (exit code, findings, stderr). With
    ``reported``, the findings the report was given (``kapsulint.findings.Finding``) are appended
    to it, for what the JSON format does not carry (a fix's title)."""
    monkeypatch.chdir(directory)
    for key, value in (env or {}).items():
        monkeypatch.setenv(key, value)
    if reported is not None:
        import kapsulint.reporters

        render = kapsulint.reporters.render

        def recording(format_name, findings, context):
            reported.extend(findings)
            return render(format_name, findings, context)

        monkeypatch.setattr(kapsulint.reporters, "render", recording)
    result = CliRunner().invoke(main, ["--format", "json", *args], catch_exceptions=False)
    findings = json.loads(result.stdout) if result.stdout.strip().startswith("[") else []
    return result.exit_code, findings, result.stderr


def copy_case(case: Path, tmp_path: Path) -> Path:
    """Fixtures are linted from a copy outside the repository, so the case is its own project root
    (its snapshot left behind: the case is linted as it was written)."""
    target = tmp_path / case.name
    shutil.copytree(case, target, symlinks=True, ignore=lambda directory, names:
                    [SNAPSHOT] if Path(directory) == case and SNAPSHOT in names else [])
    return target


# -- whole-finding snapshots ---------------------------------------------------------------------


class CaseRun(NamedTuple):
    """One lint of a fixture case with its own rule selected (shared by the tests that need it)."""

    code: int
    findings: list[dict]  # the JSON report
    reported: list  # the Finding objects the report was given
    stderr: str
    project: Path  # the copy that was linted
    selection: str


def own_rule_selection(case: Path) -> str:
    """The case's rule, and those of the rules about files and comments that exist."""
    from kapsulint.lint.registry import by_id

    rule = case.parent.name
    return ",".join([rule, *(r for r in FILE_RULES if r != rule and r in by_id())])


_RUNS: dict[Path, CaseRun] = {}


def own_rule_run(case: Path, tmp_path_factory, monkeypatch) -> CaseRun:
    """The case linted with :func:`own_rule_selection` (and its case.toml's arguments and
    environment), once per test session."""
    if case not in _RUNS:
        config = case_config(case)
        project = copy_case(case, tmp_path_factory.mktemp(case.parent.name))
        selection = own_rule_selection(case)
        reported: list = []
        with monkeypatch.context() as scoped:
            code, findings, stderr = lint(project, ["--select", selection, *config.get("args", [])], scoped,
                                          config.get("env"), reported)
        _RUNS[case] = CaseRun(code, findings, reported, stderr, project, selection)
    return _RUNS[case]


def _where(path: str, line: int, column: int, end_line: int, end_column: int, base: Path) -> str:
    relative = os.path.relpath(path, base).replace(os.sep, "/")
    return f"{relative}:{line}:{column}-{end_line}:{end_column}"


def _text(text: str) -> str:
    """A text on one line of the snapshot: as it is, or quoted with JSON's escapes when it holds a
    line end, a control character or edge spaces, or starts with a quote (so no two texts read
    the same)."""
    from kapsulint.reporters import printable

    plain = text and printable(text) == text and text == text.strip() and not text.startswith('"')
    return text if plain else json.dumps(text, ensure_ascii=False)


def finding_block(finding, base: Path) -> str:
    """One finding as the snapshot writes it: every part a report shows, paths relative to the
    case, each text on one line (:func:`_text`)."""
    loc = finding.loc
    lines = [f"{finding.rule} {finding.name} {finding.severity.value} at "
             f"{_where(loc.path, loc.line, loc.column, loc.end_line, loc.end_column, base)}",
             f"  message: {_text(finding.message)}"]
    for related in finding.related:
        where = related.loc
        place = _where(where.path, where.line, where.column, where.end_line, where.end_column, base)
        lines.append(f"  related: {place} {_text(related.message)}")
    for instance in finding.instances:
        lines.append(f"  instance: {_text(instance)}")
    if finding.fix:
        lines.append(f"  hint: {_text(finding.fix)}")
    if finding.suppressed_by is not None:
        lines.append(f"  suppressed by: {_text(finding.suppressed_by)}")
    fix = finding.autofix
    if fix is not None:
        lines.append(f"  fix ({fix.applicability}): {_text(fix.description)}")
        for edit in fix.edits:
            place = _where(edit.path, edit.line, edit.column, edit.end_line, edit.end_column, base)
            lines.append(f"    edit {place}: {_text(edit.content)}")
    return "\n".join(lines) + "\n"


def snapshot_text(case: Path, run: CaseRun) -> str:
    """The snapshot of a case: a header saying how it was linted, then one block per finding,
    in the order the report gives them (by file, line, column, rule and message); a suppressed
    finding too (SARIF reports it), marked ``suppressed by``."""
    config = case_config(case)
    args = " ".join(["--select", run.selection, *config.get("args", [])])
    header = (f"# kapsulint {args}\n# {len(run.reported)} finding{'s' if len(run.reported) != 1 else ''}; "
              f"rewritten by: {UPDATE_COMMAND}\n")
    return header + "".join("\n" + finding_block(f, run.project) for f in run.reported)


_BLOCK_START = re.compile(r"^(KAP\d+) \S+ \S+ at (.+):(\d+):(\d+)-\d+:\d+$")


def snapshot_places(text: str, columns: Counter) -> Counter:
    """(file, line, rule, column) of each finding a snapshot holds that is reported (not
    suppressed), the column kept where the expectations fix one (as :func:`observed` counts a
    run's findings)."""
    with_column = {(file, line, rule) for (file, line, rule, column) in columns if column is not None}
    result: Counter = Counter()
    for block in text.split("\n\n")[1:]:
        match = _BLOCK_START.match(block.split("\n", 1)[0])
        assert match, f"not a finding's first line: {block.splitlines()[0]!r}"
        if "\n  suppressed by: " in block:
            continue
        rule, path, number, column = match.group(1), match.group(2), int(match.group(3)), int(match.group(4))
        key = (path, number, rule)
        result[(*key, column if key in with_column else None)] += 1
    return result


def observed(findings: list[dict], columns: Counter) -> Counter:
    """Findings as (file, line, rule, column) where the expectation fixes a column, else None."""
    with_column = {(path, line, rule) for (path, line, rule, column) in columns if column is not None}
    result: Counter = Counter()
    for item in findings:
        key = (item["path"], item["line"], item["rule"])
        column = item["column"] if key in with_column else None
        result[(*key, column)] += 1
    return result
