"""Inline suppressions::

    # kapsulint: ignore[KAP201, autohealing-disabled] until=2027-03-31 pool recreated by hand
    # kapsulint: ignore-file[KAP106] free dev cluster

A comment that starts like a directive but cannot be read (no colon, no brackets, an unknown
word), and an ``ignore-file`` after the file's first token, suppress nothing and are reported
(KAP009), as Ruff warns about a ``# noqa`` it cannot parse.
"""

from __future__ import annotations

import datetime as dt
import re

from kapsulint.findings import Finding, Fix, Loc
from kapsulint.lint.registry import SelectionError, matching
from kapsulint.model.edits import remove_text
from kapsulint.model.project import Project
from kapsulint.parsing.sources import SourceFile
from kapsulint.text import lazy_pattern

_DIRECTIVE_RE = re.compile(
    r"kapsulint:\s*(?P<kind>ignore-file|ignore)\s*\[(?P<selectors>[^\]]*)\]\s*"
    r"(?:until=(?P<until>\S+))?\s*(?P<reason>.*)$"
)
# What a directive starts like: ``kapsulint:`` with anything after it, or ``kapsulint ignore``.
_LOOKS_LIKE_DIRECTIVE_RE = re.compile(r"kapsulint\s*(?::|[\s-]*ignore)", re.IGNORECASE)
_EXPECTED = "expected `kapsulint: ignore[RULE, ...] reason` or `kapsulint: ignore-file[RULE, ...] reason`"


class Suppression:
    loc: Loc  # the comment
    whole_file: bool
    first_line: int
    last_line: int
    selectors: list[str]
    rule_ids: set[str]
    unknown: list[str]
    until: dt.date | None
    until_text: str | None
    reason: str
    problem: str | None  # why the comment cannot be used (KAP009); it then suppresses nothing
    used: bool
    expired: bool
    matched_ids: set[str]

    def __init__(
        self,
        loc: Loc,
        whole_file: bool,
        first_line: int,
        last_line: int,
        selectors: list[str],
        rule_ids: set[str],
        unknown: list[str],
        until: dt.date | None,
        until_text: str | None,
        reason: str,
        problem: str | None = None,
        used: bool = False,
        expired: bool = False,
        matched_ids: set[str] | None = None,
    ) -> None:
        self.loc = loc
        self.whole_file = whole_file
        self.first_line = first_line
        self.last_line = last_line
        self.selectors = selectors
        self.rule_ids = rule_ids
        self.unknown = unknown
        self.until = until
        self.until_text = until_text
        self.reason = reason
        self.problem = problem
        self.used = used
        self.expired = expired
        self.matched_ids = set() if matched_ids is None else matched_ids

    def covers(self, finding: Finding) -> bool:
        if finding.rule not in self.rule_ids or finding.loc.path != self.loc.path:
            return False
        return self.whole_file or self.first_line <= finding.loc.line <= self.last_line


def parse_suppressions(source: SourceFile) -> list[Suppression]:
    found = []
    blocks = _block_spans(source)
    for comment in source.comments:
        body = comment["text"].lstrip("#/* \t")
        match = _DIRECTIVE_RE.match(body.rstrip("*/ \t"))
        line, column = comment["line"], comment["column"]
        loc = Loc(source.path, line, column, line, column + len(comment["text"]))
        if match is None:
            if _LOOKS_LIKE_DIRECTIVE_RE.match(body):
                found.append(Suppression(loc, False, line, line, [], set(), [], None, None, body.strip(),
                                         problem=_malformed(body)))
            continue
        selectors = [s.strip() for s in match.group("selectors").split(",") if s.strip()]
        rule_ids: set[str] = set()
        unknown: list[str] = []
        for selector in selectors:
            try:
                rule_ids |= {r.id for r in matching(selector)}
            except SelectionError:
                unknown.append(selector)
        until_text = match.group("until")
        until = _until_date(until_text) if until_text else None
        expiry = _expiry_problem(until_text, until, match.group("reason"))
        if expiry is not None:  # fail closed: a suppression whose end cannot be read silences nothing
            found.append(Suppression(loc, False, line, line, selectors, set(), [], None, None, body.strip(),
                                     problem=expiry))
            continue
        whole_file = match.group("kind") == "ignore-file"
        if whole_file and not comment["before_code"]:
            found.append(Suppression(loc, False, line, line, selectors, set(), [], None, None, body.strip(),
                                     problem="`ignore-file` must stand before the file's first token, so this "
                                             "one suppresses nothing: move it to the top of the file, or use "
                                             "`ignore[...]` for one line or block"))
            continue
        target = line if not comment["own_line"] else (comment["next_line"] or line)
        first, last = target, target
        if target in blocks:
            first, last = blocks[target]
        found.append(
            Suppression(loc, whole_file, first, last, selectors, rule_ids, unknown, until, until_text,
                        match.group("reason").strip())
        )
    return found


_DATE_RE = lazy_pattern(r"\d{4}-\d{2}-\d{2}")
_UNTIL_LIKE_RE = lazy_pattern(r"until\s*(?:[:=]|\d)", re.IGNORECASE)


def _until_date(text: str) -> dt.date | None:
    """``YYYY-MM-DD`` as a date; None for any other form (``2027-6-30``, ``20270630``,
    ``2027-W26``) or an impossible date (``2027-13-45``)."""
    if not _DATE_RE.fullmatch(text):
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def _expiry_problem(until_text: str | None, until: dt.date | None, reason: str) -> str | None:
    """Why the expiry of a suppression cannot be read: a date that is not ``YYYY-MM-DD`` or does
    not exist, or an ``until`` written otherwise (``until:2027-06-30``, ``until=`` and no date),
    which would otherwise be read as the reason and make the suppression permanent."""
    fails = "so this suppression suppresses nothing"
    if until_text is not None and until is None:
        what = "not a date that exists" if _DATE_RE.fullmatch(until_text) else "not written YYYY-MM-DD"
        return f"the expiry date `until={until_text}` is {what}, {fails}: write `until=2027-06-30`"
    if until_text is None and _UNTIL_LIKE_RE.match(reason.strip()):
        shown = reason.strip().split()[0]
        return (f"`{shown}` is not read as an expiry date (kapsulint reads `until=YYYY-MM-DD`, right after the "
                f"brackets), {fails}: write `until=2027-06-30`")
    return None


def _malformed(body: str) -> str:
    """What a comment that starts like a directive lacks, and the forms kapsulint reads."""
    text = body.rstrip("*/ \t")
    if not re.match(r"kapsulint:", text):
        lack = "`kapsulint` followed by a colon (lowercase)"
    elif not re.match(r"kapsulint:\s*(?:ignore-file|ignore)\b", text):
        lack = "`ignore` or `ignore-file` after `kapsulint:`"
    else:
        lack = "the rules in brackets, as in `ignore[KAP201]`"
    return f"unreadable kapsulint directive, it suppresses nothing: {_EXPECTED}; this one lacks {lack}"


def _block_spans(source: SourceFile) -> dict[int, tuple[int, int]]:
    """Header line -> (first, last line) of every HCL block of the file, outermost first."""
    spans: dict[int, tuple[int, int]] = {}
    if not source.ok or "body" not in source.parsed:
        return spans
    stack = list(source.parsed["body"]["blocks"])
    while stack:
        block = stack.pop()
        header = block["p"][0]
        spans.setdefault(header, (block["span"][0], block["span"][2]))
        stack.extend(block["body"]["blocks"])
    return spans


def apply_suppressions(findings: list[Finding], suppressions: list[Suppression], today: dt.date) -> None:
    """Mark findings covered by a suppression; one whose ``until`` date has passed covers nothing."""
    by_path: dict[str, list[Suppression]] = {}
    for suppression in suppressions:
        suppression.expired = suppression.until is not None and today > suppression.until
        if not suppression.expired:
            by_path.setdefault(suppression.loc.path, []).append(suppression)
    for finding in findings:
        for suppression in by_path.get(finding.loc.path, ()):
            if suppression.covers(finding):
                suppression.used = True
                suppression.matched_ids.add(finding.rule)
                finding.suppressed_by = suppression.reason
                break


def _removal(project: Project, suppression: Suppression, ran: set[str]) -> Fix | None:
    """Remove an unused comment, when every rule it names ran: one that did not run (a narrower
    ``--select``) may still need it."""
    if suppression.unknown or not suppression.rule_ids <= ran:
        return None
    edit = remove_text(project, suppression.loc)
    return Fix("safe", (edit,), "remove the unused suppression comment") if edit is not None else None


def suppression_findings(project: Project, suppressions: list[Suppression], ran: set[str]) -> list[Finding]:
    """KAP009 for directives that cannot be read, KAP002 for selectors naming nothing, KAP003 for
    suppressions of rules that ran and matched nothing, KAP004 for those past their ``until`` date."""
    results = []
    for suppression in suppressions:
        if suppression.problem is not None:
            results.append(Finding(suppression.loc, suppression.problem, rule="KAP009",
                                   logical=f"directive:{suppression.reason}"))
            continue
        for selector in suppression.unknown:
            results.append(Finding(suppression.loc, f"suppression names no known rule, prefix or name: {selector}",
                                   rule="KAP002", logical=f"suppression:{selector}"))
        if suppression.expired:
            names = ", ".join(suppression.selectors)
            results.append(Finding(suppression.loc, f"suppression of {names} expired on {suppression.until_text}: "
                                   "its findings are reported again", rule="KAP004",
                                   logical=f"suppression:{names}"))
            continue
        judged = suppression.rule_ids & ran
        if judged and not suppression.used:
            names = ", ".join(suppression.selectors)
            results.append(Finding(suppression.loc, f"suppression of {names} matches no finding",
                                   rule="KAP003", logical=f"suppression:{names}",
                                   autofix=_removal(project, suppression, ran)))
    return results
