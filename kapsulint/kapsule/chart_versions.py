"""A ``helm_release``'s chart ``version``, read as Helm reads ``--version``.

Helm looks the chart up in the repository index with the text as a Masterminds semver constraint
(https://github.com/helm/helm/blob/v3.18.5/pkg/repo/index.go, ``IndexFile.Get``; OCI tags alike,
``GetTagMatchingVersionOrConstraint`` in pkg/registry/util.go) and installs the newest version it
admits; the Helm provider 3.x builds on Helm 3.17 and 3.18, which use Masterminds semver v3.3.0
(https://github.com/hashicorp/terraform-provider-helm/blob/v3.1.2/go.mod). So:

- ``1.52.1``, ``=1.52.1`` and ``v1.52.1`` pin one version (a leading ``v`` is the same version),
  ``1.0.0-rc.1`` one pre-release; build metadata (``+abc``) does not count in the comparison;
- ``1.2`` and ``1.2.x`` mean ``~1.2`` (any 1.2.z), ``~``, ``^``, comparisons, ``a - b``, ``,`` or a
  space between constraints that must all hold and ``||`` between alternatives are ranges
  (https://github.com/Masterminds/semver/blob/v3.3.0/README.md, "Checking Version Constraints");
- "Pre-releases" are left out "when looking at a list of releases" unless the constraint itself
  has a pre-release part (same README, "Working With Prerelease Versions"): in v3.3.0 a version
  with a pre-release satisfies a constraint only when that constraint names a pre-release too.
  Helm's own words: ``--devel`` "use development versions, too. Equivalent to version
  '>0.0.0-0'" (https://helm.sh/docs/helm/helm_install/).

The comparisons follow ``constraints.go`` of v3.3.0
(https://github.com/Masterminds/semver/blob/v3.3.0/constraints.go); a text Helm refuses
("improper constraint", ``latest``) is None.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from kapsulint.api import Version

_NUMBER = r"[0-9xX*]+"
_CV = (rf"v?({_NUMBER})(\.{_NUMBER})?(\.{_NUMBER})?"
       r"(-([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?(\+([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?")
_OPS = r"=>|=<|!=|>=|<=|~>|=|>|<|~|\^|"
_ONE = re.compile(rf"^\s*({_OPS})\s*({_CV})\s*$")
_FIND = re.compile(rf"({_OPS})\s*({_CV})")
_VALID = re.compile(rf"^(\s*({_OPS})\s*({_CV})\s*)((?:\s+|,\s*)({_OPS})\s*({_CV})\s*)*$")
_HYPHEN = re.compile(rf"\s*({_CV})\s+-\s+({_CV})\s*")
_WILD = ("x", "X", "*")


class Constraint(NamedTuple):
    """One Masterminds constraint: its operator, its version (a missing or wildcard part is 0),
    whether a part was left open (``dirty``) and which (``1.x``: the minor, ``1.2``: the patch;
    an open major, ``*``, leaves neither flag)."""

    operator: str
    version: Version
    dirty: bool
    minor_dirty: bool
    patch_dirty: bool

    def holds(self, version: Version) -> bool:
        if version.prerelease and not self.version.prerelease:
            return False  # a constraint without a pre-release never admits one
        con, op = self.version, self.operator
        if op in ("", "="):
            return self._tilde(version) if self.dirty else version == con
        if op == "!=":
            return self._not_equal(version)
        if op == ">":
            if not self.dirty:
                return version > con
            if version[0] != con[0]:
                return version[0] > con[0]
            if self.minor_dirty:
                return False
            return version[1] > con[1] if self.patch_dirty else version > con
        if op in (">=", "=>"):
            return version >= con
        if op == "<":
            return version < con
        if op in ("<=", "=<"):
            if not self.dirty:
                return version <= con
            if version[0] > con[0]:
                return False
            return not (version[0] == con[0] and version[1] > con[1] and not self.minor_dirty)
        if op in ("~", "~>"):
            return self._tilde(version)
        return self._caret(version)

    def _not_equal(self, version: Version) -> bool:
        con = self.version
        if self.dirty:
            if version[0] != con[0]:
                return True
            if version[1] != con[1] and not self.minor_dirty:
                return True
            if self.minor_dirty:
                return False
            if version[2] != con[2] and not self.patch_dirty:
                return True
            if self.patch_dirty:
                return bool(version.prerelease or con.prerelease) and version.prerelease != con.prerelease
        return version != con

    def _tilde(self, version: Version) -> bool:
        con = self.version
        if version < con:
            return False
        if tuple(con) == (0, 0, 0) and not self.minor_dirty and not self.patch_dirty:
            return True
        return version[0] == con[0] and (self.minor_dirty or version[1] == con[1])

    def _caret(self, version: Version) -> bool:
        con = self.version
        if version < con:
            return False
        if con[0] > 0 or self.minor_dirty:
            return version[0] == con[0]
        if version[0] > 0:
            return False
        if con[1] > 0 or self.patch_dirty:
            return version[1] == con[1]
        return version[1] == 0 and version[2] == con[2]

    @property
    def upper(self) -> Version | None:
        """A version every version this constraint admits is below; None when unbounded above."""
        con, op = self.version, self.operator
        if op == "<":
            return con
        if op in ("<=", "=<") or (op in ("", "=") and not self.dirty):
            if not self.dirty:
                return con.release if con.prerelease else Version(con[0], con[1], con[2] + 1)
            return Version(con[0] + 1) if self.minor_dirty else Version(con[0], con[1] + 1)
        if op in ("", "=", "~", "~>"):
            if tuple(con) == (0, 0, 0) and not self.minor_dirty and not self.patch_dirty:
                return None
            return Version(con[0] + 1) if self.minor_dirty else Version(con[0], con[1] + 1)
        if op == "^":
            if con[0] > 0 or self.minor_dirty:
                return Version(con[0] + 1)
            if con[1] > 0 or self.patch_dirty:
                return Version(0, con[1] + 1)
            return Version(0, 0, con[2] + 1)
        return None


class ChartVersion:
    """A parsed ``version``: alternatives (``||``) of constraints that must all hold."""

    text: str
    alternatives: tuple[tuple[Constraint, ...], ...]

    def __init__(self, text: str, alternatives: tuple[tuple[Constraint, ...], ...]) -> None:
        self.text = text
        self.alternatives = alternatives

    @property
    def exact(self) -> Version | None:
        """The one version it pins (``1.52.1``, ``=v1.52.1``, ``1.0.0-rc.1``); None for a range."""
        if len(self.alternatives) != 1 or len(self.alternatives[0]) != 1:
            return None
        only = self.alternatives[0][0]
        return only.version if only.operator in ("", "=") and not only.dirty else None

    def admits(self, version: Version) -> bool:
        return any(all(c.holds(version) for c in group) for group in self.alternatives)

    def older_than(self, first: tuple[int, ...] | Version) -> bool:
        """Whether every version it admits is older than ``first``: an exact version below it,
        or a range each of whose alternatives ends at or below it."""
        exact = self.exact
        if exact is not None:
            return exact < first
        for group in self.alternatives:
            bounds = [c.upper for c in group if c.upper is not None]
            if not bounds or min(bounds) > first:
                return False
        return True


def parse(text: str) -> ChartVersion | None:
    """``version`` as Helm reads it; None for a text Helm refuses, or an empty one."""
    if not text.strip():
        return None
    rewritten = _HYPHEN.sub(lambda m: f">= {m.group(1)}, <= {m.group(11)} ", text)
    alternatives = []
    for part in rewritten.split("||"):
        if not _VALID.match(part):
            return None
        group = []
        for match in _FIND.finditer(part):
            constraint = _constraint(match.group(0))
            if constraint is None:
                return None
            group.append(constraint)
        alternatives.append(tuple(group))
    return ChartVersion(text, tuple(alternatives))


def _constraint(text: str) -> Constraint | None:
    """``parseConstraint``: a missing or wildcard major reads as 0.0.0, a missing or wildcard
    minor as x.0.0 (minor open), a missing or wildcard patch as x.y.0 (patch open)."""
    match = _ONE.match(text)
    if match is None:
        return None
    operator, major, minor, patch = match.group(1), match.group(3), match.group(4), match.group(5)
    minor, patch = (minor or "")[1:], (patch or "")[1:]
    prerelease, build = match.group(7) or "", match.group(10) or ""
    if any(part and part not in _WILD and not part.isdigit() for part in (major, minor, patch)):
        return None  # ``1x``: NewVersion refuses what the constraint's pattern let through
    dirty = minor_dirty = patch_dirty = False
    if major in _WILD:
        numbers, dirty = (0, 0, 0), True
    elif minor in _WILD or not minor:
        numbers, dirty, minor_dirty = (int(major), 0, 0), True, True
    elif patch in _WILD or not patch:
        numbers, dirty, patch_dirty = (int(major), int(minor), 0), True, True
    else:
        numbers = (int(major), int(minor), int(patch))
    return Constraint(operator, Version(*numbers, prerelease, build), dirty, minor_dirty, patch_dirty)
