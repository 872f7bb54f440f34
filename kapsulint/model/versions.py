"""Versions and Terraform's version constraints.

A :class:`Version` orders as Semantic Versioning 2.0.0 orders versions (https://semver.org/#spec-item-11):
by major, minor and patch, a pre-release (``2.0.0-rc1``) before its release, pre-release
identifiers compared dot by dot (numbers numerically, below words); build metadata (``+abc``)
never counts.

Provider constraints (``required_providers``) are read as Terraform 1.11 reads them, in two steps
(https://github.com/hashicorp/terraform/blob/v1.11.4/internal/configs/version_constraint.go, then
https://github.com/hashicorp/terraform/blob/v1.11.4/internal/getproviders/providerreqs/version.go):
the text must be a constraint of hashicorp/go-version, then of apparentlymart/go-versions'
"Ruby style" (https://github.com/apparentlymart/go-versions/blob/v1.0.2/versions/constraints/ruby_style.go):
comma-separated clauses of an operator (``=``, ``!=``, ``>``, ``>=``, ``<``, ``<=``, ``~>``, none
meaning ``=``), at most one space, and one to three numbers with an optional pre-release and build
metadata; no ``v``, no wildcard, no empty string. Which versions a constraint admits is
go-versions' ``MeetingConstraints``
(https://github.com/apparentlymart/go-versions/blob/v1.0.2/versions/parse.go): every clause must
hold, and a pre-release is admitted only where an ``=`` clause names that exact pre-release, so
``>= 2.0.0-rc1, < 2.1.0`` admits 2.0.0 and 2.0.1 but no pre-release, and ``= 2.0.0-rc1, >= 2.0.0``
admits nothing. Terraform's documentation says the same: "A prerelease version can be selected
only by an exact version constraint"
(https://developer.hashicorp.com/terraform/language/expressions/version-constraints#version-constraint-behavior).
go-versions compares two pre-releases of one version by their number of dot-separated parts
first (``2.0.0-alpha.1`` is above ``2.0.0-beta`` there), which decides whether an exact
pre-release pin satisfies a bound written with another pre-release.

``required_version`` is a go-version constraint that Terraform checks against its own version and
refuses when a clause names a pre-release ("Prerelease version constraints are not supported",
https://github.com/hashicorp/terraform/blob/v1.11.4/internal/configs/module.go).
``tests/oracle/versions/verdicts.json`` records what ``terraform init`` 1.11.4 did with each
constraint the tests hold kapsulint to.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from kapsulint.text import lazy_pattern

_SEMVER = lazy_pattern(
    r"v?(?P<nums>[0-9]+(?:\.[0-9]+){0,2})(?:-(?P<pre>[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+(?P<build>[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?"
)
# hashicorp/go-version v1.7.0: one clause of a constraint (constraint.go, version.go VersionRegexpRaw)
_GO_VERSION = (r"v?[0-9]+(?:\.[0-9]+)*?"
               r"(?:-[0-9]+[0-9A-Za-z\-~]*(?:\.[0-9A-Za-z\-~]+)*|-?[A-Za-z\-~]+[0-9A-Za-z\-~]*(?:\.[0-9A-Za-z\-~]+)*)?"
               r"(?:\+[0-9A-Za-z\-~]+(?:\.[0-9A-Za-z\-~]+)*)?")
_GO_VERSION_CLAUSE = re.compile(rf"\s*(?:>=|<=|!=|~>|=|>|<)?\s*(?P<version>{_GO_VERSION})\s*")
_GO_VERSION_PRERELEASE = re.compile(r"v?[0-9]+(?:\.[0-9]+)*?(?P<pre>-[0-9A-Za-z\-~.]*|[A-Za-z\-~][0-9A-Za-z\-~.]*)?(?:\+.*)?")
# apparentlymart/go-versions v1.0.2: one Ruby-style clause (raw_scan.rl: op, separator, numbers,
# pre-release, metadata)
_RUBY_CLAUSE = re.compile(
    r"(?P<op>[^0-9\sA-Za-z.*]*)(?P<sep>\s*)(?P<nums>[0-9*xX]+(?:\.[0-9*xX]+)*)"
    r"(?:-(?P<pre>[0-9A-Za-z.-]*))?(?:\+(?P<meta>[0-9A-Za-z.-]*))?"
)
_RUBY_OPERATORS = frozenset(("", "=", "!=", ">", ">=", "<", "<=", "~>"))


class Version(tuple[int, int, int]):
    """A version: the tuple (major, minor, patch), so ``version[:2]`` is its minor, with its
    ``prerelease`` ("" for a release) and ``build`` metadata (kept for display, never ordered).

    Compares with other versions as Semantic Versioning orders them, and with plain tuples of
    numbers as releases (``(2, 54)`` is 2.54.0), so facts written as tuples still compare."""

    prerelease: str
    build: str
    _order: tuple[tuple[int, int, int], bool, tuple[tuple[int, int, str], ...]]

    def __new__(cls, major: int, minor: int = 0, patch: int = 0, prerelease: str = "", build: str = "") -> Version:
        self = tuple.__new__(cls, (major, minor, patch))
        self.prerelease = prerelease
        self.build = build
        self._order = ((major, minor, patch), not prerelease, _identifiers(prerelease))
        return self

    @property
    def release(self) -> Version:
        """The release this version is, or is a pre-release of (2.0.0 for 2.0.0-rc1)."""
        return self if not self.prerelease else Version(self[0], self[1], self[2])

    @property
    def text(self) -> str:
        core = f"{self[0]}.{self[1]}.{self[2]}"
        return core + (f"-{self.prerelease}" if self.prerelease else "") + (f"+{self.build}" if self.build else "")

    def __repr__(self) -> str:
        return f"Version({self.text})"

    def _key(self) -> tuple:
        return self._order

    def __hash__(self) -> int:
        return tuple.__hash__(self) if not self.prerelease else hash((tuple(self), self.prerelease))

    def __eq__(self, other: object) -> bool:
        key = other._order if type(other) is Version else _key_of(other)  # the common case inlined
        return NotImplemented if key is None else self._order == key

    def __ne__(self, other: object) -> bool:
        key = other._order if type(other) is Version else _key_of(other)  # the common case inlined
        return NotImplemented if key is None else self._order != key

    def __lt__(self, other: object) -> bool:
        key = other._order if type(other) is Version else _key_of(other)  # the common case inlined
        return NotImplemented if key is None else self._order < key

    def __le__(self, other: object) -> bool:
        key = other._order if type(other) is Version else _key_of(other)  # the common case inlined
        return NotImplemented if key is None else self._order <= key

    def __gt__(self, other: object) -> bool:
        key = other._order if type(other) is Version else _key_of(other)  # the common case inlined
        return NotImplemented if key is None else self._order > key

    def __ge__(self, other: object) -> bool:
        key = other._order if type(other) is Version else _key_of(other)  # the common case inlined
        return NotImplemented if key is None else self._order >= key


def _identifiers(prerelease: str) -> tuple[tuple[int, int, str], ...]:
    """SemVer's pre-release precedence as a key: numbers below words, numbers numerically."""
    if not prerelease:
        return ()
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in prerelease.split("."))


def _key_of(other: object) -> tuple | None:
    if isinstance(other, Version):
        return other._key()
    if not isinstance(other, tuple) or not 0 < len(other) <= 3:
        return None
    for part in other:  # a loop, not all() of a generator: facts compare with tuples often
        if not isinstance(part, int):
            return None
    return (tuple(other) + (0,) * (3 - len(other)), True, ())


def as_version(value: Iterable[int] | Version) -> Version:
    """A version from a Version or a tuple of one to three numbers (the missing ones are 0)."""
    if isinstance(value, Version):
        return value
    parts = [int(part) for part in value][:3]
    return _padded(parts)


def _padded(numbers: list[int], prerelease: str = "", build: str = "") -> Version:
    """The version of one to three numbers (the missing ones are 0)."""
    padded = numbers + [0] * (3 - len(numbers))
    return Version(padded[0], padded[1], padded[2], prerelease, build)


def parse_version(text: str) -> Version | None:
    """A version written as Semantic Versioning writes one (``2.0.0-rc1+build``), with an optional
    leading ``v`` and one to three numbers (``2.40`` is 2.40.0); None for anything else."""
    match = _SEMVER.fullmatch(text.strip())
    if match is None:
        return None
    numbers = [int(part) for part in match.group("nums").split(".")]
    return _padded(numbers, match.group("pre") or "", match.group("build") or "")


# -- Terraform provider constraints ------------------------------------------------------------


class Clause(NamedTuple):
    """One clause of a provider constraint: ``~> 2.40`` is ("~>", 2.40.0, 2)."""

    operator: str  # "=", "!=", ">", ">=", "<", "<=", "~>"
    version: Version
    parts: int  # how many of major, minor, patch are written

    def holds(self, version: Version) -> bool:
        """Whether ``version`` satisfies this clause, pre-releases aside (go-versions'
        ``MeetingConstraintsExact``); an exact clause compares build metadata too."""
        if self.operator in ("=", "!="):
            same = _compare(version, self.version) == 0 and version.build == self.version.build
            return same if self.operator == "=" else not same
        order = _compare(version, self.version)
        if self.operator == ">":
            return order > 0
        if self.operator == ">=":
            return order >= 0
        if self.operator == "<":
            return order < 0
        if self.operator == "<=":
            return order <= 0
        # "~>": up to the next minor when the patch is written, else up to the next major
        major, minor = self.version[0], self.version[1]
        upper = Version(major, minor + 1) if self.parts == 3 else Version(major + 1)
        return order >= 0 and _compare(version, upper) < 0


def parse_constraint(text: str) -> list[Clause] | None:
    """The clauses of a provider version constraint; None when Terraform refuses it (``"2.x"``,
    ``"v2.0"``, ``"^2.0"``, ``">= 2.0 < 3.0"``, ``""``)."""
    if not isinstance(text, str):
        return None
    pieces = text.split(",")
    if any(_GO_VERSION_CLAUSE.fullmatch(piece) is None for piece in pieces):
        return None
    clauses = []
    for piece in pieces:
        match = _RUBY_CLAUSE.fullmatch(piece.strip())
        if match is None:
            return None
        operator, separator, numbers = match.group("op"), match.group("sep"), match.group("nums").split(".")
        if operator not in _RUBY_OPERATORS or separator not in ("", " ") or (separator and not operator):
            return None
        if len(numbers) > 3 or any(not part.isdigit() for part in numbers):
            return None
        values = [int(part) for part in numbers]
        version = _padded(values, match.group("pre") or "", match.group("meta") or "")
        clauses.append(Clause(operator or "=", version, len(values)))
    return clauses


def admits(clauses: list[Clause], version: Version) -> bool:
    """Whether Terraform's ``MeetingConstraints`` holds ``version``: every clause holds, and a
    pre-release only where an ``=`` clause names it."""
    if not all(clause.holds(version) for clause in clauses):
        return False
    if not version.prerelease:
        return True
    return any(c.operator == "=" and _compare(c.version, version) == 0 and c.version.build == version.build
               for c in clauses)


def newest_admitted(clauses: list[Clause], releases: tuple[Version, ...]) -> Version | None:
    """The newest of ``releases`` (oldest first) the constraint admits (what ``terraform init``
    installs)."""
    return next((release for release in reversed(releases) if admits(clauses, release)), None)


def lowest_admitted(clauses: list[Clause]) -> Version | None:
    """The lowest version the clauses admit when one of them bounds it from below: an exact pin
    (a pre-release pin too), else the release at or just above the highest lower bound; None
    when no clause bounds it or that version fails another clause."""
    candidates = []
    for clause in clauses:
        version = clause.version
        if clause.operator == "=":
            candidates.append(version)
        elif clause.operator in (">=", "~>"):
            candidates.append(version.release)
        elif clause.operator == ">":
            candidates.append(version.release if version.prerelease else Version(version[0], version[1], version[2] + 1))
    if not candidates:
        return None
    lowest = max(candidates)
    return lowest if admits(clauses, lowest) else None


def _compare(left: Version, right: Version) -> int:
    """go-versions' order: SemVer, except that of two pre-releases of one version the one with
    fewer dot-separated parts left is lower as soon as the other has more
    (``VersionExtra.LessThan``, https://github.com/apparentlymart/go-versions/blob/v1.0.2/versions/version.go)."""
    if tuple(left) != tuple(right):
        return -1 if tuple(left) < tuple(right) else 1
    if left.prerelease == right.prerelease:
        return 0
    if not left.prerelease or not right.prerelease:
        return 1 if not left.prerelease else -1
    first, second = left.prerelease.split("."), right.prerelease.split(".")
    for index in range(min(len(first), len(second))):
        first_last, second_last = index == len(first) - 1, index == len(second) - 1
        if first_last != second_last:
            return -1 if first_last else 1
        if first[index] != second[index] or first_last:
            return _compare_identifier(first[index], second[index])
    return 0


def _compare_identifier(first: str, second: str) -> int:
    if first == second:
        return 0
    if first.isdigit() and second.isdigit():
        return -1 if int(first) < int(second) else 1
    if first.isdigit() != second.isdigit():
        return -1 if first.isdigit() else 1
    return -1 if first < second else 1


# -- required_version --------------------------------------------------------------------------


def core_constraint_problem(text: str) -> str | None:
    """Why Terraform refuses a ``required_version`` constraint; None when it reads it."""
    pieces = text.split(",")
    matches = [_GO_VERSION_CLAUSE.fullmatch(piece) for piece in pieces]
    if any(match is None for match in matches):
        return "Invalid version constraint"
    for match in matches:
        assert match is not None  # every piece matched (above)
        version = _GO_VERSION_PRERELEASE.fullmatch(match.group("version"))
        if version is not None and version.group("pre"):
            return "Prerelease version constraints are not supported"
    return None
