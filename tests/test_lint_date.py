"""The lint date (--today, configuration key today) and KAP110's severity per finding."""

from __future__ import annotations

import datetime

from fixture_support import FIXTURES, copy_case, lint
from kapsulint.kapsule import version_calendar

CASE = FIXTURES / "KAP110" / "fires-past-end-of-support"


def _run(tmp_path, monkeypatch, *args: str):
    project = copy_case(CASE, tmp_path)
    return lint(project, ["--select", "KAP110", *args], monkeypatch)


def test_end_of_support_is_an_error_and_deprecation_a_warning(tmp_path, monkeypatch):
    _, past, _ = _run(tmp_path / "a", monkeypatch, "--today", "2026-02-02")
    _, deprecated, _ = _run(tmp_path / "b", monkeypatch, "--today", "2026-02-01")
    _, supported, _ = _run(tmp_path / "c", monkeypatch, "--today", "2025-12-01")
    assert [f["severity"] for f in past] == ["error"]
    assert [f["severity"] for f in deprecated] == ["warning"]
    assert supported == []


def test_a_configured_severity_still_wins(tmp_path, monkeypatch):
    project = copy_case(CASE, tmp_path)
    (project / ".kapsulint.toml").write_text('[severity]\nKAP110 = "note"\n', encoding="utf-8")
    _, findings, _ = lint(project, ["--select", "KAP110", "--today", "2026-12-01"], monkeypatch)
    assert [f["severity"] for f in findings] == ["note"]


def test_a_malformed_date_is_a_usage_error(tmp_path, monkeypatch):
    code, _, stderr = _run(tmp_path, monkeypatch, "--today", "2026-13-01")
    assert code == 2 and "--today must be a date YYYY-MM-DD" in stderr
    project = copy_case(CASE, tmp_path / "config")
    (project / ".kapsulint.toml").write_text('today = "tomorrow"\n', encoding="utf-8")
    code, _, stderr = lint(project, ["--select", "KAP110"], monkeypatch)
    assert code == 2 and "`today` must be a date YYYY-MM-DD" in stderr


def test_the_configuration_accepts_a_quoted_date_and_the_command_line_overrides_it(tmp_path, monkeypatch):
    project = copy_case(CASE, tmp_path)
    (project / ".kapsulint.toml").write_text('today = "2025-01-01"\n', encoding="utf-8")
    _, quiet, _ = lint(project, ["--select", "KAP110"], monkeypatch)
    _, loud, _ = lint(project, ["--select", "KAP110", "--today", "2026-12-01"], monkeypatch)
    assert quiet == [] and len(loud) == 1


def test_calendar_dates_are_ordered_and_unknown_versions_are_not_judged():
    for support in version_calendar.CALENDAR.values():
        assert support.deprecation < support.end_of_support
    assert version_calendar.status((1, 37), datetime.date(2030, 1, 1)) is None
    assert version_calendar.status((1, 20), datetime.date(2026, 1, 1)) == ("end-of-support", None)
    assert version_calendar.status((1, 20), datetime.date(2020, 1, 1)) is None


def test_the_lint_date_moves_the_verdicts_on_1_35_and_1_36(tmp_path, monkeypatch):
    case = FIXTURES / "KAP110" / "fires-1-35-deprecated-1-36-supported"
    verdicts = {}
    for today in ("2026-12-01", "2027-02-01", "2027-03-19", "2027-07-07", "2027-09-07"):
        project = copy_case(case, tmp_path / today)
        _, findings, _ = lint(project, ["--select", "KAP110", "--today", today], monkeypatch)
        verdicts[today] = sorted((f["line"], f["severity"]) for f in findings)
    assert verdicts == {
        "2026-12-01": [],
        "2027-02-01": [(22, "warning")],
        "2027-03-19": [(22, "error")],
        "2027-07-07": [(22, "error"), (31, "warning")],
        "2027-09-07": [(22, "error"), (31, "error")],
    }
    assert version_calendar.status((1, 36), datetime.date(2027, 7, 6))[0] == "supported"
