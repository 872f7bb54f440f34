"""Reading and parsing one file into a :class:`SourceFile`: the adapter's plain data and what went wrong."""

from __future__ import annotations

import bisect
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from kapsulint.boundary import Boundary, read_regular
from kapsulint.errors import describe
from kapsulint.text import decoded, text_lines, without_bom

if TYPE_CHECKING:
    from kapsulint.parsing.hcl import HclSyntaxError
    from kapsulint.parsing.json import JsonSyntaxError
    from kapsulint.parsing.yaml import TemplatedYamlError, YamlSyntaxError

DEFAULT_MAX_FILE_SIZE = 5 * 1024 * 1024


class SourceFile:
    """One file the scan read (or tried to)."""

    path: str
    kind: str  # "config", "tfvars", "lock", "values", "documents" (YAML read for what it holds)
    data: dict | None  # the adapter's output; None when unreadable, skipped or broken
    error: tuple[str, int, int] | None  # (message, line, column) of a syntax error
    skipped: str | None  # why the file was not parsed: above max-file-size (KAP005)
    # A values file that is not YAML once its template expressions are seen (KAP012): why, and
    # where (line, column and end column of the expression), and that expression's template syntax.
    left_out: tuple[str, int, int, int, str] | None
    comments: list
    internal: str | None  # an unexpected exception while parsing (a bug): an internal error, exit 2

    def __init__(
        self,
        path: str,
        kind: str,
        data: dict | None = None,
        error: tuple[str, int, int] | None = None,
        skipped: str | None = None,
        left_out: tuple[str, int, int, int, str] | None = None,
        comments: list | None = None,
        internal: str | None = None,
    ) -> None:
        self.path = path
        self.kind = kind
        self.data = data
        self.error = error
        self.skipped = skipped
        self.left_out = left_out
        self.comments = [] if comments is None else comments
        self.internal = internal

    @property
    def ok(self) -> bool:
        return self.data is not None and self.error is None

    @property
    def parsed(self) -> dict:
        """The adapter's output of a file that was parsed (:attr:`ok`)."""
        if self.data is None:
            raise ValueError(f"{self.path} holds no parsed data")
        return self.data

    @property
    def incomplete(self) -> bool:
        """Broken, skipped, left out or unread: what it holds is not known."""
        return not self.ok

    @property
    def templated(self) -> bool:
        """A values file read with template expressions, each an Unknown part of its value."""
        return self.ok and bool(self.parsed.get("templates"))


class Unreadable(Exception):
    """The file could not be read at all (permissions, vanished, a loop)."""


def decode(data: bytes) -> tuple[str | None, tuple[str, int, int] | None]:
    data = without_bom(data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        nul = data.find(b"\x00", 0, error.start)  # the first bad byte is the one reported
        if nul >= 0:
            return None, _position_error("NUL byte (binary content?)", data, nul)
        return None, _position_error("invalid UTF-8 byte", data, error.start)
    if "\x00" in text:
        return None, _position_error("NUL byte (binary content?)", data, data.index(b"\x00"))
    return text, None


def _position_error(message: str, data: bytes, offset: int) -> tuple[str, int, int]:
    before = data[:offset]
    line = before.count(b"\n") + 1
    start = before.rfind(b"\n") + 1
    column = len(before[start:].decode("utf-8", errors="replace")) + 1
    return (f"{message} at offset {offset}", line, column)


class FileReads:
    """How one run reads the project's files, and the lines the edits of its fixes see.

    Every read of a run goes through one of these, made for the run (``--fix`` and ``--diff``
    make one for all their rounds) and held by its project: nothing of one run is left for the
    next. Texts can be read in place of the files at some paths: ``--diff`` applies its fixes in
    memory, and the rounds that follow lint the fixed texts without writing them. With ``--fix``
    each file's first read is pinned, so that everything of one lint (the parse, the edits, the
    text the edits apply to) comes from one read, and the file is written only while it still
    holds those bytes.
    """

    def __init__(self) -> None:
        self._overlay: dict[str, bytes] = {}
        self._pinning = False
        self._lines: dict[str, tuple[object, list[str] | None]] = {}  # path -> (what was split, its lines)
        # What the edits derive from those lines (model/edits: a file's scan for the alignment
        # terraform fmt keeps), by the lines' identity, with the lines it was derived from.
        self.scans: dict[int, tuple] = {}

    def set_overlay(self, texts: dict[str, bytes]) -> None:
        """Read ``texts`` (by absolute path) in place of those files from now on; ``{}`` ends it."""
        self._overlay.clear()
        self._overlay.update(texts)

    def with_overlay(self) -> FileReads:
        """Reads of another project of the same run (a group of a lint by parts): the same texts
        in place of files, none of the lines this one split for edits."""
        reads = FileReads()
        reads.set_overlay(self._overlay)
        return reads

    def pin_reads(self, pinning: bool) -> None:
        """From now on, with ``pinning``, keep the bytes of each file read from disk and give them
        to every later read of it (see :meth:`overlaid`); either way, forget what was pinned."""
        self._pinning = pinning
        self._overlay.clear()

    def overlaid(self, path: str) -> bytes | None:
        """The text read in place of the file at ``path``, if any (see :meth:`set_overlay`)."""
        return self._overlay.get(path)

    def read_bytes(self, path: str, boundary: Boundary) -> bytes | None:
        """The bytes of a file of the repository, or None when it holds more than the boundary's
        ``max_size`` (it is then skipped); :class:`Unreadable` when it cannot be read, or may not
        be (outside the repository, not a regular file: ``boundary.Refused``, with the reason)."""
        pending = self._overlay.get(path)
        if pending is not None:
            return None if len(pending) > boundary.max_size else pending
        try:
            content = boundary.read(path)
        except OSError as error:
            raise Unreadable(error.strerror or str(error)) from error
        if self._pinning and content is not None:
            self._overlay[path] = content
        return content

    def source_lines(self, path: str) -> list[str] | None:
        """The file's lines without line ends, as the edits see them (a BOM dropped, CRLF read as
        LF): the text read in place of it, else the file on disk; None if unreadable or not UTF-8.
        Each text is split once, however many edits ask."""
        pending = self._overlay.get(path)  # --diff: a fix of an earlier round, not written; --fix: the bytes parsed
        if pending is not None:
            cached = self._lines.get(path)
            if cached is not None and cached[0] is pending:
                return cached[1]
            lines = _lines(pending)
            self._lines[path] = (pending, lines)
            return lines
        try:
            stat = os.stat(path)
        except OSError:
            return None
        key = (stat.st_mtime_ns, stat.st_size)
        cached = self._lines.get(path)
        if cached is not None and cached[0] == key:
            return cached[1]
        try:
            with open(path, "rb") as handle:
                lines = _lines(handle.read())
        except OSError:
            lines = None
        self._lines[path] = (key, lines)
        return lines


def _lines(data: bytes) -> list[str] | None:
    try:
        return text_lines(decoded(data))
    except UnicodeDecodeError:
        return None


def parse_named_source(path: str, kind: str, max_size: int = DEFAULT_MAX_FILE_SIZE) -> SourceFile:
    """Read and parse a file the user named on the command line (``--var-file``), wherever it is:
    a regular file, read to at most ``max_size + 1`` bytes; no cache. Syntax problems land in
    ``SourceFile.error``; :class:`Unreadable` when it cannot be read."""
    try:
        content = read_regular(path, max_size)
    except OSError as error:
        raise Unreadable(error.strerror or str(error)) from error
    if content is None:
        return skipped_source(path, kind, max_size)
    return source_from(path, kind, parse_content(path, kind, content))


def skipped_source(path: str, kind: str, max_size: int) -> SourceFile:
    source = SourceFile(path, kind)
    try:
        size = max(os.path.getsize(path), max_size + 1)  # it may have grown while it was read
    except OSError:
        size = max_size + 1
    source.skipped = (f"file is {size} bytes, above max-file-size ({max_size} bytes); to lint it anyway, "
                      f"raise `max-file-size` in .kapsulint.toml (for instance max-file-size = {size}), "
                      "or add it to `exclude` to stop reading it")
    return source


def parser_name(path: str, kind: str) -> str:
    """What a file is parsed as; part of the cache key."""
    if kind in ("values", "documents"):
        from kapsulint.parsing.yaml_templates import JINJA, dialect_of

        return "yaml-jinja" if dialect_of(path) == JINJA else "yaml"
    return f"{kind}-json" if path.endswith(".json") else "hcl"


def source_from(path: str, kind: str, result: dict) -> SourceFile:
    left_out = result.get("left_out")
    source = SourceFile(path, kind, data=result["data"], comments=result["comments"],
                        left_out=tuple(left_out) if left_out is not None else None)
    source.error = tuple(result["error"]) if result["error"] is not None else None
    if source.error is not None and kind in ("values", "documents"):
        from kapsulint.parsing.yaml_words import in_words

        # Worded here, after the parse cache: the cached error stays the parser's own.
        source.error = (in_words(*source.error), *source.error[1:])
    source.internal = result.get("internal")
    return source


def parse_content(path: str, kind: str, content: bytes) -> dict:
    """Parse a file's bytes into plain data: ``data``, ``error``, ``comments``, ``left_out``.

    Pure and picklable both ways: the parse cache stores it and parallel workers return it. An
    unexpected exception (a bug in a parser or the adapter) is caught here, at the file: the result
    then has an ``internal`` message instead of data, and is never cached.
    """
    try:
        return _parse_content(path, kind, content)
    except Exception as error:
        detail = describe(error)
        return {"data": None, "error": None, "comments": [], "left_out": None, "internal": detail}


def _parse_content(path: str, kind: str, content: bytes) -> dict:
    result: dict = {"data": None, "error": None, "comments": [], "left_out": None}
    text, error = decode(content)
    if error is not None:
        result["error"] = list(error)
        return result
    assert text is not None  # decode gives the text or why there is none
    from kapsulint.parsing.template import TemplateSyntaxError

    name = parser_name(path, kind)
    not_yaml_once_seen: tuple[type[TemplatedYamlError], ...] = ()  # a values file left out (KAP012)
    parse: Callable[[str], dict]
    syntax_error: type[YamlSyntaxError | JsonSyntaxError | HclSyntaxError]
    try:
        if name.startswith("yaml"):
            from functools import partial

            from kapsulint.parsing.yaml import (
                TemplatedYamlError,
                YamlSyntaxError,
                parse_values,
            )
            from kapsulint.parsing.yaml_templates import dialect_of

            parse = partial(parse_values, dialect=dialect_of(path))
            syntax_error = YamlSyntaxError
            not_yaml_once_seen = (TemplatedYamlError,)
        elif name.endswith("json"):
            from kapsulint.parsing.json import (
                JsonSyntaxError,
                parse_terraform_json,
                parse_tfvars_json,
            )

            parse = parse_tfvars_json if kind == "tfvars" else parse_terraform_json
            syntax_error = JsonSyntaxError
        else:
            from kapsulint.parsing.hcl import HclSyntaxError, parse_hcl

            parse = parse_hcl
            syntax_error = HclSyntaxError
        try:
            result["data"] = parse(text)
        except not_yaml_once_seen as left_out:
            result["left_out"] = [left_out.message, left_out.line, left_out.column, left_out.end_column,
                                  left_out.syntax]
            result["comments"] = annotate_comments(left_out.comments, text)
        except syntax_error as syntax:
            result["error"] = [syntax.message, syntax.line, syntax.column]
    except TemplateSyntaxError as syntax:
        result["error"] = [syntax.message, syntax.line, syntax.column]
    except RecursionError:
        result["error"] = ["nesting too deep", 1, 1]
    if result["data"] is not None:
        result["comments"] = annotate_comments(result["data"].pop("comments", []), text)
    return result


def annotate_comments(comments: list, text: str) -> list[dict]:
    """Comments with what suppressions need: alone on their line? which code line follows?"""
    lines = text.split("\n")
    comment_lines = {c[0] for c in comments}

    def is_code(number: int) -> bool:
        line = lines[number - 1].strip() if number <= len(lines) else ""
        return bool(line) and not (number in comment_lines and line.startswith(("#", "//", "/*")))

    code_lines = [n for n in range(1, len(lines) + 1) if is_code(n)]
    first_code = code_lines[0] if code_lines else len(lines) + 1
    annotated = []
    for line, column, body in comments:
        prefix = lines[line - 1][: column - 1] if line <= len(lines) else ""
        own_line = not prefix.strip()
        index = bisect.bisect_right(code_lines, line)
        following = code_lines[index] if index < len(code_lines) else None
        annotated.append(
            {"line": line, "column": column, "text": body, "own_line": own_line,
             "next_line": following, "before_code": own_line and line < first_code}
        )
    return annotated
