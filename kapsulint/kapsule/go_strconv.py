"""Go's ``strconv`` readings of text, as the Scaleway cloud controller manager and the ingress
controllers (Go programs) read annotation and configuration values.

Source: https://pkg.go.dev/strconv (``ParseBool``, ``ParseInt`` with base 0).
"""

from __future__ import annotations

from kapsulint.text import lazy_pattern

__all__ = ["parse_bool", "parse_int"]

# strconv.ParseBool: exactly these spellings.
_TRUE = frozenset({"1", "t", "T", "TRUE", "true", "True"})
_FALSE = frozenset({"0", "f", "F", "FALSE", "false", "False"})

_INT = lazy_pattern(
    r"^[+-]?(?:0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|0(?:_?[0-7])*|[1-9](?:_?[0-9])*)$"
)


def parse_bool(text: str) -> bool | None:
    """Go's ``strconv.ParseBool``: True, False, or None when it returns an error."""
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    return None


def parse_int(text: str) -> int | None:
    """Go's ``strconv.ParseInt(text, 0, 64)``: prefixes 0x, 0o, 0b and a leading 0 (octal)."""
    if not _INT.match(text):
        return None
    body = text.replace("_", "")
    sign = -1 if body.startswith("-") else 1
    body = body.lstrip("+-")
    if len(body) > 1 and body[0] == "0" and body[1] not in "xXoObB":
        number = int(body, 8)
    else:
        number = int(body, 0)
    number *= sign
    if not -(2**63) <= number < 2**63:
        return None
    return number
