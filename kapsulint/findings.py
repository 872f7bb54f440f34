"""Locations and findings: what a rule yields and what reporters print."""

from __future__ import annotations

from enum import Enum
from typing import Literal, NamedTuple


class Severity(str, Enum):  # noqa: UP042 (a StrEnum would print differently in f-strings and str())
    """How bad a finding is; ordered from most to least severe."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"

    @property
    def rank(self) -> int:
        return {"error": 3, "warning": 2, "note": 1}[self.value]


_new_tuple = tuple.__new__


class Loc(NamedTuple):
    """A region of one file: 1-based lines, 1-based code-point columns, end column exclusive.

    A named tuple: the evaluator creates one for every value it computes, so creation is kept cheap.
    """

    path: str
    line: int
    column: int
    end_line: int
    end_column: int

    @classmethod
    def of(cls, path: str, span: list[int] | tuple[int, ...]) -> Loc:
        return _new_tuple(cls, (path, *span))  # the named tuple's own __new__ costs a call more

    def one_line(self) -> Loc:
        """The region cut to its first line."""
        if self.end_line == self.line:
            return self
        return Loc(self.path, self.line, self.column, self.line, self.column + 1)

    def shifted(self, lines: int, columns: int = 0) -> Loc:
        """The same region moved down ``lines`` (used for YAML inside a heredoc)."""
        first = columns if self.line == 1 else 0
        last = columns if self.end_line == 1 else 0
        return Loc(
            self.path, self.line + lines, self.column + first, self.end_line + lines, self.end_column + last
        )


class Related(NamedTuple):
    """A secondary location that explains a finding."""

    loc: Loc
    message: str


class Edit(NamedTuple):
    """Replace a region of one file's text with ``content``.

    1-based lines and code-point columns as :class:`Loc` counts them, end exclusive; an insertion
    has start == end. ``content`` uses ``\\n`` line ends: the applier writes the file's own.
    """

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    content: str


# How safe a fix is to apply (see Fix); a rule's FIX may also be "sometimes": either, case by case.
Applicability = Literal["safe", "unsafe"]
FixKind = Literal["safe", "unsafe", "sometimes"]


class Fix(NamedTuple):
    """The edits that fix one finding, all or nothing.

    ``applicability`` is "safe" (``terraform plan`` after it changes no real infrastructure beyond
    what the footgun meant to prevent) or "unsafe" (it would update or replace something).
    """

    applicability: Applicability
    edits: tuple[Edit, ...]
    description: str


class Finding:
    """One problem, as a rule yields it; the engine fills id, name and severity."""

    loc: Loc
    message: str
    subject: str
    related: tuple[Related, ...]
    instance: str | None
    fix: str | None  # the fix hint, in words
    autofix: Fix | None  # the edits that fix it, when a rule can compute them
    logical: str
    rule: str
    name: str
    severity: Severity
    instances: list[str]
    suppressed_by: str | None
    secret: bool  # the anchored text is a credential: never shown
    level: Severity | None  # the rule's severity for this finding, when it differs from the rule's default
    counted_as: tuple[str, str] | None  # a blind spot's kind in the summary (one, several), when not the rule's

    def __init__(
        self,
        loc: Loc,
        message: str,
        subject: str = "",
        related: tuple[Related, ...] = (),
        instance: str | None = None,
        fix: str | None = None,
        logical: str = "",
        rule: str = "",
        name: str = "",
        severity: Severity = Severity.WARNING,
        instances: list[str] | None = None,
        suppressed_by: str | None = None,
        secret: bool = False,
        level: Severity | None = None,
        autofix: Fix | None = None,
        counted_as: tuple[str, str] | None = None,
    ) -> None:
        self.loc = loc
        self.message = message
        self.subject = subject
        self.related = related
        self.instance = instance
        self.fix = fix
        self.logical = logical
        self.rule = rule
        self.name = name
        self.severity = severity
        self.instances = [] if instances is None else instances
        self.suppressed_by = suppressed_by
        self.secret = secret
        self.level = level
        self.autofix = autofix
        self.counted_as = counted_as

    @property
    def sort_key(self) -> tuple:
        return (self.loc.path, self.loc.line, self.loc.column, self.rule, self.message)


SENSITIVE_VALUE = "(sensitive value)"  # what every report prints in place of a sensitive value
_MIN_TEXT = 4  # a shorter value is masked where it was written, not wherever its text appears


class Sensitive:
    """What no report may print: where sensitive values are written (the regions of their
    literals, by file) and their texts (values from the environment or the command line have no
    region). Reports mask a region in the source lines they print, and a text of at least four
    characters wherever it appears in a message, a snippet or a diff."""

    regions: dict[str, list[tuple[int, int, int, int]]]  # path -> (line, column, end_line, end_column)
    texts: tuple[str, ...]  # longest first

    def __init__(self, regions: dict[str, list[tuple[int, int, int, int]]] | None = None,
                 texts: set[str] | frozenset[str] = frozenset()) -> None:
        self.regions = regions or {}
        self.texts = tuple(sorted((t for t in texts if len(t) >= _MIN_TEXT), key=lambda t: (-len(t), t)))

    def __bool__(self) -> bool:
        return bool(self.regions or self.texts)

    def text(self, text: str) -> str:
        """``text`` with every sensitive text in it replaced by ``(sensitive value)``."""
        for secret in self.texts:
            if secret in text:
                text = text.replace(secret, SENSITIVE_VALUE)
        return text

    def overlaps(self, path: str, line: int, column: int, end_line: int, end_column: int) -> bool:
        """Whether the region (end exclusive; an insertion when empty) meets a sensitive region."""
        start, end = (line, column), (end_line, end_column)
        for start_line, start_column, stop_line, stop_column in self.regions.get(path, ()):
            if start < (stop_line, stop_column) and (start_line, start_column) < max(end, (line, column + 1)):
                return True
        return False

    def line(self, path: str, number: int, text: str) -> tuple[str, list[tuple[int, int]]]:
        """Source line ``number`` of ``path`` with its sensitive regions (and texts) masked, and
        the (column, end column) of each region masked, for :func:`masked_column`."""
        spans = sorted({((line == number and column) or 1, (end_line == number and end_column) or len(text) + 1)
                        for line, column, end_line, end_column in self.regions.get(path, ())
                        if line <= number <= end_line})
        masked_spans: list[tuple[int, int]] = []
        out, position = [], 1
        for column, end_column in spans:
            column = max(column, position)
            if end_column <= column:
                continue
            out.append(text[position - 1:column - 1])
            out.append(SENSITIVE_VALUE)
            masked_spans.append((column, end_column))
            position = end_column
        out.append(text[position - 1:])
        masked = "".join(out)
        return (self.text(masked) if self.texts else masked), masked_spans


def masked_column(spans: list[tuple[int, int]], column: int, end: bool = False) -> int:
    """Where ``column`` (an end column when ``end``) of a source line lies once the regions
    ``spans`` are masked (:meth:`Sensitive.line`): inside a region, at its mask."""
    shift = 0
    for start, stop in spans:
        if column >= stop:
            shift += len(SENSITIVE_VALUE) - (stop - start)
        elif start < column or (start == column and not end):
            return start + shift + (len(SENSITIVE_VALUE) if end else 0)
    return column + shift
