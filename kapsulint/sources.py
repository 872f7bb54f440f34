"""Reading and parsing one file into a :class:`~kapsulint.model.SourceFile`."""

from __future__ import annotations

import bisect

from kapsulint.model import SourceFile

DEFAULT_MAX_FILE_SIZE = 5 * 1024 * 1024


class Unreadable(Exception):
    """The file could not be read at all (permissions, vanished, a loop)."""


def read_text(path: str) -> tuple[str | None, tuple[str, int, int] | None]:
    """(text, None) or (None, (message, line, column)) for bytes that are not UTF-8 text."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise Unreadable(error.strerror or str(error)) from error
    return decode(data)


def decode(data: bytes) -> tuple[str | None, tuple[str, int, int] | None]:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
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


def parse_source(path: str, kind: str, max_size: int = DEFAULT_MAX_FILE_SIZE) -> SourceFile:
    """Read and parse ``path``; syntax problems land in ``SourceFile.error``."""
    import os

    source = SourceFile(path, kind)
    try:
        size = os.path.getsize(path)
    except OSError as error:
        raise Unreadable(error.strerror or str(error)) from error
    if size > max_size:
        source.skipped = f"file is {size} bytes, above max-file-size ({max_size} bytes)"
        return source
    text, error = read_text(path)
    if error is not None:
        source.error = error
        return source
    if kind == "values" and is_template_text(text):
        source.template = True
        return source
    return parse_text(source, text)


def is_template_text(text: str) -> bool:
    """Helm or Terraform template markers: the file is rendered by something before Helm reads it."""
    return "{{" in text or "%{" in text or "${" in text


def parse_text(source: SourceFile, text: str) -> SourceFile:
    from kapsulint.parsing.template import TemplateSyntaxError

    is_json = source.path.endswith(".json")
    try:
        if source.kind == "values":
            from kapsulint.parsing.yaml import YamlSyntaxError, parse_yaml

            try:
                source.data = parse_yaml(text)
            except YamlSyntaxError as error:
                source.error = (error.message, error.line, error.column)
        elif is_json:
            from kapsulint.parsing.json import JsonSyntaxError, parse_terraform_json, parse_tfvars_json

            parse = parse_tfvars_json if source.kind == "tfvars" else parse_terraform_json
            try:
                source.data = parse(text)
            except JsonSyntaxError as error:
                source.error = (error.message, error.line, error.column)
        else:
            from kapsulint.parsing.hcl import HclSyntaxError, parse_hcl

            try:
                source.data = parse_hcl(text)
            except HclSyntaxError as error:
                source.error = (error.message, error.line, error.column)
    except TemplateSyntaxError as error:
        source.error = (error.message, error.line, error.column)
    except RecursionError:
        source.error = ("nesting too deep", 1, 1)
    if source.data is not None:
        source.comments = annotate_comments(source.data.get("comments", []), text)
    return source


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
