"""Terraform's strings are Unicode in normalization form C.

go-cty normalizes every string value it makes (``cty.StringVal``:
https://github.com/zclconf/go-cty/blob/v1.16.2/cty/value_init.go), so ``"é" == "e\u0301"`` is
true and ``strrev`` never splits a combining mark from its letter.
"""

import unicodedata


def nfc(text: str) -> str:
    """``text`` in NFC; the common all-ASCII text is returned as it is, without copying."""
    if text.isascii() or unicodedata.is_normalized("NFC", text):
        return text
    return unicodedata.normalize("NFC", text)
