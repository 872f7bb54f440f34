"""Applying fixes: which findings may be fixed, and the edits written to the files, as Ruff does.

Fixes are applied in rounds: each round lints, takes the fixes that do not overlap one another
(in file order), applies them to each file's text, re-parses the result and writes the files;
the next round lints again, so a fix that overlapped another is recomputed on the new text. The
rounds stop when nothing is left to fix, or after ``MAX_ROUNDS`` (Ruff stops at 100; an
infrastructure project has far fewer fixes per file). A file that had a syntax error is never
written; a file whose new text does not parse, or whose fixed finding is still reported in the
next round, is put back as it was and that fix is reported as refused, with the reason.

What is written, and how, is ``lint/writes.py``'s: only regular files inside the repository, never
through a symlink, never a read-only file, and only while a file holds the bytes its edits were
computed from (each lint pins the bytes it reads, see ``FileReads.pin_reads``), under a lock held
from the first read to the last write. A file refused there keeps its findings and is an error of the run.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable

from kapsulint.findings import Edit, Finding, Fix, Sensitive
from kapsulint.lint.runner import RunResult
from kapsulint.parsing.sources import FileReads, parse_content
from kapsulint.text import UTF8_BOM, decoded, lf

MAX_ROUNDS = 10


class FixPolicy:
    """Which rules' fixes may be applied, and how safe each counts (configuration keys ``fixable``,
    ``unfixable``, ``extend-safe-fixes``, ``extend-unsafe-fixes``: sets of rule ids)."""

    fixable: set[str] | None  # None: every rule
    unfixable: set[str]
    extend_safe: set[str]
    extend_unsafe: set[str]

    def __init__(self, fixable: set[str] | None = None, unfixable: Iterable[str] = (),
                 extend_safe: Iterable[str] = (), extend_unsafe: Iterable[str] = ()) -> None:
        self.fixable = fixable
        self.unfixable = set(unfixable)
        self.extend_safe = set(extend_safe)
        self.extend_unsafe = set(extend_unsafe)

    def applied(self, finding: Finding) -> Fix | None:
        """The finding's fix as the configuration sees it: None when its rule is not fixable."""
        fix = finding.autofix
        if fix is None or finding.rule in self.unfixable:
            return None
        if self.fixable is not None and finding.rule not in self.fixable:
            return None
        if finding.rule in self.extend_safe:
            return fix._replace(applicability="safe")
        if finding.rule in self.extend_unsafe:
            return fix._replace(applicability="unsafe")
        return fix

    def annotate(self, findings: Iterable[Finding]) -> None:
        """Set each finding's ``autofix`` to what the configuration allows, for the reports."""
        for finding in findings:
            finding.autofix = self.applied(finding)


class Refused:
    """A fix that was not applied, and why."""

    finding: Finding
    reason: str

    def __init__(self, finding: Finding, reason: str) -> None:
        self.finding = finding
        self.reason = reason


class Outcome:
    """What the rounds did: the files changed (their original bytes), counts, the last lint."""

    originals: dict[str, bytes]  # every file written, as it was before the first round
    texts: dict[str, bytes]  # without writing (--diff): what the changed files would become
    fixed: dict[str, int]  # fixes applied, by rule
    refused: list[Refused]
    result: RunResult
    unwritten: dict[str, str]  # files a fix needed that were not written (or would not be), and why
    not_applied: dict[str, int]  # for each of them, the fixes left out
    removed: list[str]  # stale temporary files of an interrupted --fix, removed
    sensitive: Sensitive  # what the first round found sensitive, located in the files as they were
    findings_fixed: int | None  # the findings the fixes took away (one fix may take several)

    def __init__(self, originals: dict[str, bytes], texts: dict[str, bytes], fixed: dict[str, int],
                 refused: list[Refused], result: RunResult, unwritten: dict[str, str] | None = None,
                 not_applied: dict[str, int] | None = None, sensitive: Sensitive | None = None,
                 findings_fixed: int | None = None) -> None:
        self.originals = originals
        self.texts = texts
        self.fixed = fixed
        self.refused = refused
        self.result = result
        self.unwritten = {} if unwritten is None else unwritten
        self.not_applied = {} if not_applied is None else not_applied
        self.removed = []
        self.sensitive = result.sensitive if sensitive is None else sensitive
        self.findings_fixed = findings_fixed

    @property
    def count(self) -> int:
        """The findings fixed, as the report's ``[*] N fixable`` counts them: one fix that takes
        away two findings (two ``set`` blocks rewritten as one list) counts two."""
        return sum(self.fixed.values()) if self.findings_fixed is None else self.findings_fixed


def wanted(fix: Fix | None, unsafe: bool) -> bool:
    return fix is not None and (fix.applicability == "safe" or unsafe)


def _key(finding: Finding) -> tuple:
    return (finding.rule, finding.loc.path, finding.logical or finding.subject, finding.message)


class FileText:
    """A file's text as the edits see it (no BOM, LF line ends) and how to write it back."""

    path: str
    original: bytes
    text: str
    bom: bool
    crlf: bool

    def __init__(self, path: str, original: bytes) -> None:
        self.path = path
        self.original = original
        self.bom = original.startswith(UTF8_BOM)
        text = decoded(original)
        self.crlf = "\r\n" in text
        if self.crlf and text.count("\n") != text.count("\r\n"):
            raise ValueError("mixed LF and CRLF line ends")
        self.text = lf(text)

    def encoded(self, text: str) -> bytes:
        if self.crlf:
            text = text.replace("\n", "\r\n")
        return (UTF8_BOM if self.bom else b"") + text.encode("utf-8")


def apply_edits(text: str, edits: list[Edit]) -> str:
    """``text`` with non-overlapping ``edits`` applied (positions as :class:`Edit` counts them)."""
    starts = [0]
    for index, char in enumerate(text):
        if char == "\n":
            starts.append(index + 1)

    def offset(line: int, column: int) -> int:
        if line > len(starts):
            return len(text)
        return min(starts[line - 1] + column - 1, len(text))

    for edit in sorted(edits, key=lambda e: (e.line, e.column, e.end_line, e.end_column), reverse=True):
        start, end = offset(edit.line, edit.column), offset(edit.end_line, edit.end_column)
        text = text[:start] + edit.content + text[end:]
    return text


def overlaps_taken(edit: Edit, taken: list[Edit]) -> bool:
    """Whether ``edit`` overlaps an edit of ``taken`` (two insertions at one place do: their order
    would be arbitrary); such a fix waits for the next round."""
    start, end = (edit.line, edit.column), (edit.end_line, edit.end_column)
    for other in taken:
        other_start, other_end = (other.line, other.column), (other.end_line, other.end_column)
        if start < other_end and other_start < end:
            return True
        if start == end == other_start == other_end:
            return True  # two insertions at one place: their order would be arbitrary
        if (start == end and other_start < start < other_end) or (other_start == other_end and start < other_start < end):
            return True
    return False


Lint = Callable[[FileReads], RunResult]


class _Files:
    """Where the rounds put the fixed texts (``put`` in each kind: {path: (the bytes the file must
    hold, its new bytes)} in, the files refused with why out); ``lint`` lints what is there now,
    every round through the same ``reads``."""

    def __init__(self, boundary: str) -> None:
        self.boundary = boundary
        self.reads = FileReads()
        self._refusals: dict[str, str | None] = {}

    def refusal(self, path: str) -> str | None:
        """Why the file would not be written (once per run and file), None when it would."""
        if path not in self._refusals:
            from kapsulint.lint.writes import refusal

            self._refusals[path] = refusal(path, self.boundary)
        return self._refusals[path]

    def lint(self, lint: Lint) -> RunResult:
        return lint(self.reads)

    def started(self, result: RunResult) -> None:
        """Called with the first lint's result."""


class _Disk(_Files):
    """``--fix``: each lint reads every file once (its bytes pinned, see ``FileReads.pin_reads``),
    and a file is replaced only while it still holds the bytes read (``replace_files``)."""

    def __init__(self, boundary: str) -> None:
        super().__init__(boundary)
        self.removed: list[str] = []

    def lint(self, lint: Lint) -> RunResult:
        self.reads.pin_reads(True)
        return lint(self.reads)

    def started(self, result: RunResult) -> None:
        """Remove the temporary files an interrupted --fix left beside the project's files."""
        from kapsulint.lint.writes import remove_stale_temporaries

        directories = {os.path.dirname(path) for path in result.project.files}
        self.removed = remove_stale_temporaries(directories, self.boundary)

    def put(self, changes: dict[str, tuple[bytes, bytes]]) -> dict[str, str]:
        from kapsulint.lint.writes import replace_files

        return replace_files(changes, self.boundary)


class _Memory(_Files):
    """``--diff``: the fixed texts are held in memory and read in place of the files."""

    def __init__(self, boundary: str) -> None:
        super().__init__(boundary)
        self.pending: dict[str, bytes] = {}

    def put(self, changes: dict[str, tuple[bytes, bytes]]) -> dict[str, str]:
        self.pending.update((path, data) for path, (_, data) in changes.items())
        self.reads.set_overlay(self.pending)
        return {}


def fix_rounds(lint: Lint, policy: FixPolicy, unsafe: bool, boundary: str,
               write: bool = True) -> Outcome:
    """Lint and fix until nothing is left to fix (or ``MAX_ROUNDS``).

    ``lint`` runs the linter with the rounds' reads and returns the findings that are reported
    (suppressed and baseline findings left out). ``boundary`` is the repository: only files inside it are written (see
    ``lint/writes.py`` for what else a file must be). With ``write`` the rounds hold the
    repository's lock from the first read to the last write, and first remove the temporary files
    an interrupted ``--fix`` left beside the project's files. With ``write`` False (``--diff``),
    the rounds run alike on texts held in memory (read in place of the files, see
    ``FileReads.set_overlay``) and nothing is written: the outcome's ``originals`` and ``texts``
    give the diff. Raises LockError when the lock cannot be taken.
    """
    if not write:
        memory = _Memory(boundary)
        try:
            outcome = _rounds(lint, policy, unsafe, memory)
        finally:
            memory.reads.set_overlay({})
        outcome.texts = {path: data for path, data in memory.pending.items() if data != outcome.originals.get(path)}
        return outcome
    from kapsulint.lint.writes import fix_lock, terminating_raises

    disk = _Disk(boundary)
    with terminating_raises(), fix_lock(boundary):
        try:
            outcome = _rounds(lint, policy, unsafe, disk)
        finally:
            disk.reads.pin_reads(False)
    outcome.removed = disk.removed
    return outcome


def _rounds(lint: Lint, policy: FixPolicy, unsafe: bool, files_out: _Disk | _Memory) -> Outcome:
    originals: dict[str, bytes] = {}
    fixed: dict[str, int] = {}
    refused: list[Refused] = []
    refused_keys: set[tuple] = set()
    unwritten: dict[str, str] = {}
    left_out: dict[str, set[tuple]] = {}  # for each unwritten file, the fixes it kept out
    broken: set[str] | None = None
    previous: dict[str, bytes] = {}  # the files the last round wrote, as they were before it
    written: dict[str, bytes] = {}  # the files the last round wrote, as it wrote them
    applied: dict[tuple, tuple[Finding, set[str]]] = {}
    result = files_out.lint(lint)
    files_out.started(result)
    sensitive = result.sensitive
    fixable = Counter(_key(f) for f in result.reported if wanted(policy.applied(f), unsafe))
    for _ in range(MAX_ROUNDS):
        files = result.project.files
        if broken is None:
            broken = {path for path, source in files.items() if source.error is not None or source.incomplete}
        still = {_key(f) for f in result.reported}
        undone = [(finding, paths) for key, (finding, paths) in applied.items() if key in still]
        if undone:
            for finding, _paths in undone:
                refused.append(Refused(finding, "the finding is still reported after the fix; nothing written"))
                refused_keys.add(_key(finding))
                fixed[finding.rule] -= 1
            back = {path: (written[path], previous[path]) for path in {p for _, paths in undone for p in paths}}
            unwritten.update(files_out.put(back))
            applied = {}
            result = files_out.lint(lint)
            continue
        applied = {}
        by_file: dict[str, list[Edit]] = {}
        chosen: list[tuple[Finding, Fix]] = []
        for finding in sorted(result.reported, key=lambda f: f.sort_key):
            fix = policy.applied(finding)
            if not wanted(fix, unsafe) or _key(finding) in refused_keys:
                continue
            assert fix is not None
            reason = _unwritable(fix, files, broken)
            if reason is not None:
                refused.append(Refused(finding, reason))
                refused_keys.add(_key(finding))
                continue
            kept_out = [e.path for e in fix.edits if e.path in unwritten or files_out.refusal(e.path) is not None]
            if kept_out:
                for path in kept_out:
                    unwritten.setdefault(path, files_out.refusal(path) or "")
                    left_out.setdefault(path, set()).add(_key(finding))
                continue
            if any(overlaps_taken(edit, by_file.get(edit.path, [])) for edit in fix.edits):
                continue  # the next round recomputes it on the fixed text
            for edit in fix.edits:
                by_file.setdefault(edit.path, []).append(edit)
            chosen.append((finding, fix))
        if not chosen:
            break
        new_texts, failed = _new_texts(by_file, files, files_out.reads)
        refusals = files_out.put(new_texts)
        if refusals:  # nothing of this round was written: chosen again without those files
            unwritten.update(refusals)
            continue
        for finding, fix in chosen:
            reason = next((failed[e.path] for e in fix.edits if e.path in failed), None)
            if reason is not None:
                refused.append(Refused(finding, reason))
                refused_keys.add(_key(finding))
                continue
            fixed[finding.rule] = fixed.get(finding.rule, 0) + 1
            applied[_key(finding)] = (finding, {e.path for e in fix.edits})
            fixable[_key(finding)] = max(fixable[_key(finding)], 1)  # a finding a later round met
        previous = {path: before for path, (before, _) in new_texts.items()}
        written = {path: after for path, (_, after) in new_texts.items()}
        for path, before in previous.items():
            originals.setdefault(path, before)
        if not new_texts:
            break
        result = files_out.lint(lint)
    not_applied = {path: len(left_out.get(path, ())) for path in unwritten}
    gone = fixable - Counter(_key(f) for f in result.reported) if any(fixed.values()) else Counter()
    return Outcome(originals, {}, {k: v for k, v in fixed.items() if v}, refused, result, unwritten, not_applied,
                   sensitive, sum(gone.values()))


def _unwritable(fix: Fix, files: dict, broken: set[str]) -> str | None:
    for edit in fix.edits:
        source = files.get(edit.path)
        if source is None:
            return f"{edit.path} is not a file of the project"
        if edit.path in broken:
            return f"{edit.path} had a syntax error; it is never written"
        if ".terraform" in edit.path.split(os.sep):
            return f"{edit.path} is a downloaded module"
    return None


def _new_texts(by_file: dict[str, list[Edit]], files: dict, reads: FileReads) -> tuple[dict, dict]:
    """Each file's bytes before and after its edits (the bytes the round's ``reads`` read), and the
    files whose new text is refused."""
    texts: dict[str, tuple[bytes, bytes]] = {}
    failed: dict[str, str] = {}
    for path, edits in by_file.items():
        try:
            before = reads.overlaid(path)
            if before is None:
                with open(path, "rb") as handle:
                    before = handle.read()
            current = FileText(path, before)
        except (OSError, UnicodeDecodeError, ValueError) as error:
            failed[path] = f"cannot fix {path}: {error}"
            continue
        after = current.encoded(apply_edits(current.text, edits))
        if after == before:
            continue
        parsed = parse_content(path, files[path].kind, after)
        if parsed.get("internal") or parsed["error"] is not None:
            where = parsed["error"] or [parsed.get("internal"), 0, 0]
            failed[path] = f"the fixed {path} would not parse ({where[0]} at line {where[1]}); nothing written"
            continue
        texts[path] = (before, after)
    return texts, failed


_C_ESCAPES = {7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r", 34: '\\"', 92: "\\\\"}


def git_path_name(name: str) -> str:
    """A path as git writes it in a diff header: as it is, or, when it holds a control character,
    a quote, a backslash or a byte outside ASCII, between double quotes with C escapes and octal
    bytes (git's quote_c_style with core.quotePath, which GNU patch and git apply read back)."""
    raw = os.fsencode(name)
    if not any(byte < 0x20 or byte >= 0x7F or byte in (0x22, 0x5C) for byte in raw):
        return name
    return '"' + "".join(_C_ESCAPES.get(byte) or (chr(byte) if 0x20 <= byte < 0x7F else f"\\{byte:03o}")
                         for byte in raw) + '"'


def unified_diff(originals: dict[str, bytes], fixed: dict[str, bytes], root: str,
                 sensitive: Sensitive | None = None) -> str:
    """A diff that ``patch -p1`` applies from ``root``: ``a/PATH`` and ``b/PATH`` relative to it.
    A sensitive value in a line it shows is masked (``sensitive``), and that hunk then no longer
    applies: no fix writes a sensitive value, but a line shown around an edit may hold one."""
    import difflib  # only when a diff or a suggestion is asked for

    out: list[str] = []
    for path in sorted(fixed):
        relative = os.path.relpath(path, root).replace(os.sep, "/")
        before = originals[path].decode("utf-8").splitlines(keepends=True)
        after = fixed[path].decode("utf-8").splitlines(keepends=True)
        number = 0  # the line of ``before`` a context or removed line is
        old, new = git_path_name(f"a/{relative}"), git_path_name(f"b/{relative}")
        for index, line in enumerate(difflib.unified_diff(before, after, old, new)):
            if index < 2:  # the file header, as git writes it: a tab after a name with a space
                out.append(line.rstrip("\n") + ("\t" if " " in relative else "") + "\n")
                continue
            if line.startswith("@@"):
                number = int(line.split()[1].lstrip("-").split(",")[0]) - 1
            elif sensitive:
                kind, text, end = line[0], line[1:].rstrip("\n"), "\n" if line.endswith("\n") else ""
                if kind != "+":
                    number += 1
                    text, _ = sensitive.line(path, number, text)
                line = kind + sensitive.text(text) + end
            out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)
