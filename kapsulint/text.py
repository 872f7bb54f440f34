"""A file's text as every reader of it sees it: UTF-8 with the byte order mark dropped, and CRLF
line ends read as LF.

The parsers, the edits of ``--fix``, the texts rules quote and the reports all read a file through
these functions, so that a column counted by one is the column counted by the others. A lone
carriage return is not a line end (``terraform fmt`` and the parsers treat it as a character), and
only the first byte order mark is one: a second is a character of the text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import re

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


class _LazyPattern:
    """A regular expression compiled when first used: a module's patterns cost their compilation at
    import otherwise, and a run that never meets what one matches (a warm run parses nothing, a
    run without a plan reads none) pays it for nothing. The first use puts the compiled
    pattern's methods on the instance, so later uses cost what they cost on the pattern itself."""

    _KEPT = ("match", "fullmatch", "search", "finditer", "findall", "sub", "subn", "split", "pattern",
             "flags", "groups", "groupindex")

    def __init__(self, pattern: str, flags: int) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        import re

        compiled = re.compile(*self.__dict__["_source"])
        for kept in self._KEPT:
            self.__dict__[kept] = getattr(compiled, kept)
        return getattr(compiled, name)


def lazy_pattern(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, compiled at its first use (for a module-level pattern that
    only some runs use). Use its methods and attributes; it is not an ``re.Pattern`` instance for
    ``isinstance`` or for the ``re`` module's functions."""
    return cast("re.Pattern[str]", _LazyPattern(pattern, flags))
