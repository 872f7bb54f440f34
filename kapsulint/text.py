"""A file's text as every reader of it sees it: UTF-8 with the byte order mark dropped, and CRLF
line ends read as LF.

The parsers, the edits of ``--fix``, the texts rules quote and the reports all read a file through
these functions, so that a column counted by one is the column counted by the others. A lone
carriage return is not a line end (``terraform fmt`` and the parsers treat it as a character), and
only the first byte order mark is one: a second is a character of the text.
"""

from __future__ import annotations

BOM = "\ufeff"
UTF8_BOM = b"\xef\xbb\xbf"


def without_bom(data: bytes) -> bytes:
    """The bytes after a leading UTF-8 byte order mark."""
    return data.removeprefix(UTF8_BOM)


def decoded(data: bytes, errors: str = "strict") -> str:
    """The bytes as UTF-8 text, a leading byte order mark dropped (``errors`` as for ``bytes.decode``)."""
    return without_bom(data).decode("utf-8", errors)


def lf(text: str) -> str:
    """The text with its CRLF line ends read as LF."""
    return text.replace("\r\n", "\n") if "\r" in text else text


def normalised(text: str) -> str:
    """The text without a leading byte order mark, its CRLF line ends read as LF."""
    return lf(text.removeprefix(BOM))


def text_lines(text: str) -> list[str]:
    """The lines of the text without their line ends, as :func:`normalised` reads it."""
    return normalised(text).split("\n")
