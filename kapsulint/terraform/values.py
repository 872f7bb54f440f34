"""Evaluated values: a Python value plus where it was written, or Unknown.

Every node of an evaluated value is a :class:`Val`: scalars carry the location of the literal
that produced them, objects carry the location of each key, so a rule can point at the exact
place a footgun is written even when it travelled through locals, variables and modules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

from kapsulint.findings import Loc
from kapsulint.terraform.numbers import format_number as terraform_number_text


class _Unknown:
    """What Terraform only knows at apply time, or what kapsulint cannot compute."""

    _instance: _Unknown | None = None

    def __new__(cls) -> _Unknown:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "Unknown"

    def __bool__(self) -> bool:
        raise TypeError("Unknown has no truth value; test Val.known first")


UNKNOWN = _Unknown()

# A node's sensitive mark: ``False``, ``True`` (its own mark: ``sensitive()``, a sensitive variable,
# a function's result) or ``INHERITED`` (it lies inside a value marked as a whole, and
# ``nonsensitive()`` of that value removes it). go-cty marks a value as a whole and everything read
# out of it is marked; here the mark is written on every node of that value, so an element read
# out of a sensitive list is sensitive however it is read (an index, ``.get()``, ``.raw``).
INHERITED = 2


_FIELDS = ("raw", "loc", "keylocs", "open", "sensitive", "ref", "encoded", "origin", "type")


class _Fields:
    """The storage of :class:`Val`'s fields; Val writes them only while it is made."""

    __slots__ = _FIELDS

    # The slots' types (bare annotations: a slot is no class attribute).
    raw: Any
    loc: Loc | None
    keylocs: dict[str, Loc] | None
    open: bool
    sensitive: bool | int
    ref: tuple | None
    encoded: Val | None
    origin: tuple | None
    type: Any


class _Making(_Fields):
    """A value while :meth:`Val.__new__` fills its fields: plain slot assignments (the cheapest
    Python has; the evaluator makes a value for every node it computes), then it becomes a Val,
    whose fields refuse to change."""

    __slots__ = ()


_new_object = object.__new__


class Val(_Fields):
    """One node of an evaluated value.

    ``raw`` is None, bool, int, Fraction (a non-integral Terraform number), float (a number read
    from a YAML document), str, ``list[Val]``, ``dict[str, Val]`` or UNKNOWN.
    ``open`` marks an object whose set of keys is not fully known (built from an Unknown operand).
    ``ref`` names the resource instance (and attribute) an Unknown came from, so rules can follow
    ``cluster_id = scaleway_k8s_cluster.main.id`` back to its cluster. ``encoded`` keeps the
    structure behind a ``yamlencode``/``jsonencode`` string; ``origin`` says where the text of a
    string read from a file or heredoc starts (path, line offset, column offset). ``type`` is the
    value's Terraform type (:mod:`kapsulint.terraform.types`), or None for the type its raw data
    implies (what a literal gives: tuples, objects, ``null`` of type dynamic). ``sensitive`` is
    the node's mark (False, True or :data:`INHERITED`); a marked node's members are all marked.

    A value is never changed once made, its members and key locations included: the evaluator
    caches values, and rules share them, so a change made for one rule would show in what another
    rule reports. A different value is a copy (:meth:`replaced`, :meth:`with_sensitive`); setting
    or deleting an attribute raises :class:`AttributeError`.
    """

    __slots__ = ()

    def __new__(
        cls,
        raw: Any,
        loc: Loc | None = None,
        *,
        keylocs: dict[str, Loc] | None = None,
        open: bool = False,
        sensitive: bool | int = False,
        ref: tuple | None = None,
        encoded: Val | None = None,
        origin: tuple | None = None,
        type: Any = None,
    ) -> Val:
        made = _new_object(_Making)
        made.raw = raw
        made.loc = loc
        made.keylocs = keylocs
        made.open = open
        made.sensitive = sensitive
        made.ref = ref
        made.encoded = encoded
        made.origin = origin
        made.type = type
        made.__class__ = Val  # type: ignore[assignment]  # the same slots: from here on its fields refuse to change
        return made  # type: ignore[return-value]  # a Val since the line above

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a Val is not changed once made: build a copy (Val.replaced), not {name} = ...")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Val is not changed once made: {name} cannot be deleted")

    def __repr__(self) -> str:
        return f"Val({self.raw!r})"

    def replaced(self, **fields: Any) -> Val:
        """A copy of this value with ``fields`` (any of ``raw``, ``loc``, ``keylocs``, ``open``,
        ``sensitive``, ``ref``, ``encoded``, ``origin``, ``type``) replaced; the members are shared."""
        kept = {"keylocs": self.keylocs, "open": self.open, "sensitive": self.sensitive, "ref": self.ref,
                "encoded": self.encoded, "origin": self.origin, "type": self.type, **fields}
        return Val(kept.pop("raw", self.raw), kept.pop("loc", self.loc), **kept)

    def with_sensitive(self, mark: bool | int = True) -> Val:
        """This value marked sensitive as a whole (go-cty's ``Mark``): a copy whose top node has
        ``mark`` and whose every other unmarked node (the structure behind an encoded string
        included) is :data:`INHERITED`; every other field is kept, ``type`` included."""
        if self.sensitive == mark:  # True and INHERITED differ: True == 1
            return self
        if self.sensitive:
            return Val(self.raw, self.loc, keylocs=self.keylocs, open=self.open, sensitive=mark, ref=self.ref,
                       encoded=self.encoded, origin=self.origin, type=self.type)  # its members are marked already
        return _remarked(self, mark, lambda node: not node.sensitive, INHERITED)

    def without_sensitive(self) -> Val:
        """``nonsensitive()``: the top node's mark removed with the marks it passed down; a member
        marked on its own stays marked."""
        if not self.sensitive:
            return self
        return _remarked(self, False, lambda node: node.sensitive == INHERITED, False)

    def unmarked(self) -> Val:
        """A copy with no mark anywhere (a set's members give their marks to the set)."""
        if not self.contains_sensitive():
            return self
        return _remarked(self, False, lambda node: True, False)

    def contains_sensitive(self) -> bool:
        """Whether any node is marked (go-cty's ``ContainsMarked``)."""
        if self.sensitive:
            return True
        stack = [self]
        while stack:
            value = stack.pop()
            if value.sensitive:
                return True
            raw = value.raw
            if isinstance(raw, dict):
                stack.extend(raw.values())
            elif isinstance(raw, list):
                stack.extend(raw)
        return False

    @property
    def known(self) -> bool:
        return self.raw is not UNKNOWN

    @property
    def is_null(self) -> bool:
        return self.raw is None

    @property
    def is_object(self) -> bool:
        return isinstance(self.raw, dict)

    @property
    def is_list(self) -> bool:
        return isinstance(self.raw, list)

    def is_true(self) -> bool:
        """Known to be true (Terraform converts the strings "true"/"false" for bool arguments)."""
        return self.raw is True or (isinstance(self.raw, str) and self.raw.lower() == "true")

    def is_false(self) -> bool:
        return self.raw is False or (isinstance(self.raw, str) and self.raw.lower() == "false")

    def get(self, key: str) -> Val:
        """A member of an object: null when certainly absent, Unknown when it may exist (marked
        when this value is: what is read out of a sensitive value is sensitive)."""
        if isinstance(self.raw, dict):
            found = self.raw.get(key)
            if found is not None:
                return found
            return unknown_from(self) if self.open else plain(None, sensitive=self.sensitive)
        if self.raw is UNKNOWN:
            return unknown_from(self)
        return plain(None, sensitive=self.sensitive)

    def path(self, *keys: str) -> Val:
        value = self
        for key in keys:
            raw = value.raw
            found = raw.get(key) if isinstance(raw, dict) else None  # get() inlined: rules read paths often
            value = found if found is not None else value.get(key)
        return value

    def key_loc(self, key: str) -> Loc | None:
        if self.keylocs:
            return self.keylocs.get(key)
        return None

    def items(self) -> Iterator[tuple[str, Val]]:
        if isinstance(self.raw, dict):
            yield from self.raw.items()

    def elements(self) -> list[Val]:
        if isinstance(self.raw, list):
            return self.raw
        return []

    def text(self) -> str | None:
        """The value as Terraform would convert it to a string, or None if it has no such form."""
        raw = self.raw
        if isinstance(raw, str):  # the common case first
            return raw
        if isinstance(raw, bool):
            return "true" if raw else "false"
        if isinstance(raw, (int, float, Fraction)):
            return format_number(raw)
        return None

    def contains_unknown(self) -> bool:
        stack = [self]
        while stack:
            value = stack.pop()
            if value.raw is UNKNOWN or value.open:
                return True
            if isinstance(value.raw, dict):
                stack.extend(value.raw.values())
            elif isinstance(value.raw, list):
                stack.extend(value.raw)
        return False

    def plain(self) -> Any:
        """The value as plain Python data, Unknown parts kept as UNKNOWN.

        Iterative: values files and HCL may nest 500 levels (KAP001), deeper than
        Python's recursion limit allows for a recursive walk."""

        def shell(raw: Any) -> Any:
            return {} if isinstance(raw, dict) else [] if isinstance(raw, list) else raw

        result = shell(self.raw)
        stack = [(self.raw, result)]
        while stack:
            raw, target = stack.pop()
            items = raw.items() if isinstance(raw, dict) else enumerate(raw) if isinstance(raw, list) else ()
            for key, value in items:
                copy = shell(value.raw)
                if isinstance(target, dict):
                    target[key] = copy
                else:
                    target.append(copy)
                if isinstance(copy, (dict, list)):
                    stack.append((value.raw, copy))
        return result


def format_number(number: int | float | Fraction) -> str:
    """A number as Terraform prints it; a float (a YAML document's number) as Python does."""
    if isinstance(number, float):
        return str(int(number)) if number.is_integer() and abs(number) < 1e16 else str(number)
    return terraform_number_text(number)


def _remarked(value: Val, top: bool | int, changes: Callable[[Val], bool], mark: bool | int) -> Val:
    """A copy of ``value`` with ``top`` on its top node and ``mark`` on each member for which
    ``changes(member)`` holds (and, below a changed member, on its members likewise); members
    left as they are are shared. Iterative, members built before the nodes that hold them:
    values nest deeper than Python recurses."""
    order: list[tuple[Val, bool | int]] = []  # each node to copy, before its members
    stack = [(value, top)]
    while stack:
        node, sensitive = stack.pop()
        order.append((node, sensitive))
        raw = node.raw
        members = raw.values() if isinstance(raw, dict) else raw if isinstance(raw, list) else ()
        stack.extend((member, mark) for member in members if changes(member))
    copies: dict[int, Val] = {}
    for node, sensitive in reversed(order):
        raw = node.raw
        if isinstance(raw, list):
            raw = [copies.get(id(member), member) for member in raw]
        elif isinstance(raw, dict):
            raw = {key: copies.get(id(member), member) for key, member in raw.items()}
        encoded = node.encoded
        if encoded is not None and changes(encoded):
            encoded = _remarked(encoded, mark, changes, mark)
        copies[id(node)] = Val(raw, node.loc, keylocs=node.keylocs, open=node.open, sensitive=sensitive,
                               ref=node.ref, encoded=encoded, origin=node.origin, type=node.type)
    return copies[id(value)]


def located_at(value: Val, loc: Loc | None) -> Val:
    """``value`` with every node that has no location at ``loc`` (copies where a node changes, a
    node shared by several parents still shared). Iterative, members built before the nodes that
    hold them: decoded documents nest deeper than Python recurses."""
    order: list[Val] = []  # each node, before its members
    seen: set[int] = set()
    stack = [value]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        order.append(node)
        raw = node.raw
        stack.extend(raw.values() if isinstance(raw, dict) else raw if isinstance(raw, list) else ())
    copies: dict[int, Val] = {}
    for node in reversed(order):
        raw = node.raw
        if isinstance(raw, list):
            members = [copies.get(id(member), member) for member in raw]
            changed = any(new is not old for new, old in zip(members, raw))
            raw = members if changed else raw
        elif isinstance(raw, dict):
            members_by_key = {key: copies.get(id(member), member) for key, member in raw.items()}
            changed = any(members_by_key[key] is not member for key, member in raw.items())
            raw = members_by_key if changed else raw
        else:
            changed = False
        if node.loc is None or changed:
            copies[id(node)] = node.replaced(raw=raw, loc=node.loc if node.loc is not None else loc)
    return copies.get(id(value), value)


def plain(raw: Any, loc: Loc | None = None, sensitive: bool | int = False) -> Val:
    """``Val(raw, loc, sensitive=sensitive)``, every other field at its default, made without the
    call of :meth:`Val.__new__` (half the cost of a value): for the values the evaluator makes
    most, literals, attribute names and absent members."""
    made = _new_object(_Making)
    made.raw = raw
    made.loc = loc
    made.keylocs = None
    made.open = False
    made.sensitive = sensitive
    made.ref = None
    made.encoded = None
    made.origin = None
    made.type = None
    made.__class__ = Val  # type: ignore[assignment]  # as in Val.__new__
    return made  # type: ignore[return-value]


def unknown_from(*sources: Val, loc: Loc | None = None, type: Any = None) -> Val:
    """An Unknown that keeps the resource reference of its operands when they agree on one, and
    their marks (as a whole: any operand marked as a whole marks it)."""
    refs = {s.ref for s in sources if s.ref is not None}
    sensitive = any(s.sensitive for s in sources)
    return Val(UNKNOWN, loc, ref=refs.pop() if len(refs) == 1 else None, sensitive=sensitive, type=type)


def from_plain(data: Any, loc: Loc | None = None) -> Val:
    """A Val tree from plain Python data, every node at ``loc``."""
    if isinstance(data, Val):
        return data
    if isinstance(data, dict):
        return Val({str(k): from_plain(v, loc) for k, v in data.items()}, loc)
    if isinstance(data, (list, tuple)):
        return Val([from_plain(v, loc) for v in data], loc)
    return Val(data, loc)
