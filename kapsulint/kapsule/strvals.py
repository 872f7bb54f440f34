"""Helm's ``--set`` syntax (strvals): the one reader of ``set`` entries' names and values.

The Terraform Helm provider hands each ``set``/``set_sensitive`` entry to Helm's strvals parser as
the line ``name=value`` (``ParseInto`` for ``type = "auto"``, ``ParseIntoString`` for
``"string"``) and each ``set_list`` entry as ``name={v1,v2}``, its items joined with commas
(``getValue`` and ``getListValue`` in
https://github.com/hashicorp/terraform-provider-helm/blob/v3.1.2/helm/resource_helm_release.go).
The grammar below follows https://github.com/helm/helm/blob/v3.16.3/pkg/strvals/parser.go (the
provider builds with Helm v2.17.0's copy of the package, whose grammar for these lines is the
same):

* a name is cut at ``.`` (a nested map), ``[n]`` (a list index) and ``=``; a ``,`` before the
  ``=`` is an error (a name with no value);
* a value starting with ``{`` is a list up to the next ``}``, its items cut at ``,``; any other
  value runs to the next ``,``, and what follows the ``,`` is read as another ``name=value``;
* a backslash makes the next character literal, in names and values alike;
* ``auto`` typing: ``true``/``false``/``null`` in any case, ``0``, and decimal integers not
  starting with ``0`` that fit in 64 bits; anything else is a string.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from kapsulint.text import lazy_pattern

Step = str | int
Scalar = str | bool | int | None

_MAX_NESTING = 30  # MaxNestedNameLevel
_MAX_INDEX = 65536  # MaxIndex
_INT64 = lazy_pattern(r"[+-]?[0-9]+")


class Assignment(NamedTuple):
    """One value a line sets: its path of map keys and list indexes, and the value."""

    path: tuple[Step, ...]
    value: Scalar | list[Scalar]


class Refused(Exception):
    """strvals refuses the line: the provider fails the plan."""


def parse(line: str, *, as_string: bool = False) -> list[Assignment] | None:
    """The assignments strvals reads in ``line``, in order; None when it refuses the line.

    A key left empty (``a..b=1``, ``=1``) sets nothing, as in Helm: such assignments are left out.
    """
    reader = _Reader(line, as_string)
    try:
        while reader.key(()):
            pass
    except Refused:
        return None
    return [a for a in reader.out if all(step != "" for step in a.path)]


def value_end(value: str) -> int | None:
    """Where strvals stops reading ``value`` written after ``name=``: ``len(value)`` when it reads
    it all, the index of the cutting comma otherwise; None for a ``{`` list never closed."""
    reader = _Reader(value, False)
    try:
        items = reader.value_list(take_comma=False)
    except Refused:
        return None
    if items is not None:
        return reader.pos
    _, last = reader.runes_until(",")
    return reader.pos - 1 if last == "," else reader.pos


def typed(text: str, *, as_string: bool = False) -> Scalar:
    """strvals' typing of one value (``typedVal``)."""
    if as_string:
        return text
    folded = text.casefold()
    if folded in ("true", "false"):
        return folded == "true"
    if folded == "null":
        return None
    if text == "0":
        return 0
    if text and text[0] != "0" and _INT64.fullmatch(text):
        number = int(text)
        if -(2**63) <= number < 2**63:
            return number
    return text


class _Reader:
    """A port of strvals' ``parser`` that records assignments instead of filling a map."""

    def __init__(self, text: str, as_string: bool) -> None:
        self.text = text
        self.pos = 0
        self.as_string = as_string
        self.out: list[Assignment] = []

    def runes_until(self, stop: str) -> tuple[str, str | None]:
        """The text up to a stop character (escapes resolved) and that character, None at the end."""
        chars: list[str] = []
        while self.pos < len(self.text):
            char = self.text[self.pos]
            self.pos += 1
            if char in stop:
                return "".join(chars), char
            if char == "\\":
                if self.pos >= len(self.text):
                    return "".join(chars), None
                chars.append(self.text[self.pos])
                self.pos += 1
                continue
            chars.append(char)
        return "".join(chars), None

    def key(self, path: tuple[Step, ...], level: int = 0) -> bool:
        """Read one ``name=value`` (or the rest of one); False at the end of the line."""
        name, last = self.runes_until("=[,.")
        if last is None:
            if name:
                raise Refused(f"key {name!r} has no value")
            return False
        if last == "[":
            return self.list_item(path + (name,), self.index(), level)
        if last == "=":
            return self.assign(path + (name,))
        if last == ",":
            raise Refused(f"key {name!r} has no value (cannot end with ,)")
        if level + 1 > _MAX_NESTING:
            raise Refused("value name nested too deeply")
        count = len(self.out)
        more = self.key(path + (name,), level + 1)
        if more and not any(all(step != "" for step in a.path) for a in self.out[count:]):
            raise Refused(f"key map {name!r} has no value")
        return more

    def index(self) -> int:
        text, last = self.runes_until("]")
        if last is None or not re.fullmatch(r"[+-]?[0-9]+", text):
            raise Refused("error parsing index")
        number = int(text)
        if number < 0 or number > _MAX_INDEX:
            raise Refused(f"index {number} out of range")
        return number

    def list_item(self, path: tuple[Step, ...], index: int, level: int) -> bool:
        rest, last = self.runes_until("[.=")
        if rest:
            raise Refused(f"unexpected data at end of array index: {rest!r}")
        if last is None:
            raise Refused("a list index with no value")
        if last == "=":
            return self.assign(path + (index,))
        if last == "[":
            return self.list_item(path + (index,), self.index(), level)
        return self.key(path + (index,), level)

    def assign(self, path: tuple[Step, ...]) -> bool:
        if self.pos >= len(self.text):
            self.out.append(Assignment(path, ""))
            return False
        items = self.value_list()
        if items is not None:
            self.out.append(Assignment(path, items))
            return True
        text, _ = self.runes_until(",")
        self.out.append(Assignment(path, typed(text, as_string=self.as_string)))
        return True

    def value_list(self, take_comma: bool = True) -> list[Scalar] | None:
        """A ``{a,b}`` list value (and the comma after it); None when the value is not a list."""
        if not self.text.startswith("{", self.pos):
            return None
        self.pos += 1
        items: list[Scalar] = []
        while True:
            text, last = self.runes_until(",}")
            if last is None:
                raise Refused("list must terminate with '}'")
            items.append(typed(text, as_string=self.as_string))
            if last == "}":
                if take_comma and self.text.startswith(",", self.pos):
                    self.pos += 1
                return items
