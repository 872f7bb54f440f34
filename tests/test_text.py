"""One reading of a file's text: the byte order mark and CRLF line ends are handled in kapsulint/text.py only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kapsulint.text import decoded, lf, normalised, text_lines

ROOT = Path(__file__).resolve().parent.parent
# What reading a text on one's own looks like: dropping a BOM, decoding with utf-8-sig, reading CRLF as LF.
_OWN_READING = re.compile(
    r"""removeprefix\(\s*["']\\ufeff|\\xef\\xbb\\xbf|utf-8-sig|replace\(\s*["']\\r\\n["']\s*,\s*["']\\n""")


def test_only_the_text_module_drops_a_bom_or_reads_crlf_as_lf():
    found = []
    for path in sorted([*(ROOT / "kapsulint").rglob("*.py"), *(ROOT / "rules").glob("*.py")]):
        if path == ROOT / "kapsulint" / "text.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if _OWN_READING.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "read through kapsulint.text instead:\n" + "\n".join(found)


@pytest.mark.parametrize("data, text", [
    (b"\xef\xbb\xbfa = 1\r\n", "a = 1\r\n"),
    (b"\xef\xbb\xbf\xef\xbb\xbfa", "\ufeffa"),  # only the first mark is one; the second is a character
    (b"a\xffb", None),
])
def test_decoded_drops_one_bom(data, text):
    if text is None:
        with pytest.raises(UnicodeDecodeError):
            decoded(data)
        assert decoded(data, errors="replace") == "a\ufffdb"
    else:
        assert decoded(data) == text


def test_lines_read_crlf_as_lf_and_keep_a_lone_carriage_return():
    assert lf("a\r\nb\rc\n") == "a\nb\rc\n"
    assert normalised("\ufeffx\r\n") == "x\n"
    assert text_lines("\ufeffa\r\nb\n") == ["a", "b", ""]
    assert text_lines("\ufeff\ufeffa") == ["\ufeffa"]


def test_the_parsers_and_the_edits_count_the_same_columns(tmp_path):
    """A value after a BOM on a CRLF file: the parser's column is the one the edit replaces."""
    from kapsulint.lint.fixes import FileText, apply_edits
    from kapsulint.parsing.sources import parse_content

    data = b"\xef\xbb\xbflocals {\r\n  a = \"x\"\r\n}\r\n"
    parsed = parse_content(str(tmp_path / "main.tf"), "config", data)
    attribute = parsed["data"]["body"]["blocks"][0]["body"]["attrs"][0]
    line, column, end_line, end_column = attribute["expr"]["p"]
    assert (line, column, end_line, end_column) == (2, 7, 2, 10)
    from kapsulint.findings import Edit

    text = FileText("main.tf", data)
    fixed = text.encoded(apply_edits(text.text, [Edit("main.tf", line, column, end_line, end_column, '"y"')]))
    assert fixed == b"\xef\xbb\xbflocals {\r\n  a = \"y\"\r\n}\r\n"
