"""Provider versions and configurations.

The version a module uses is the one ``.terraform.lock.hcl`` of its root locks; without a lock
file, the newest known release that every version constraint of the configuration admits (what
``terraform init`` installs), else the lower bound of the constraints when they admit no known
release. A constraint Terraform refuses (``"2.x"``, ``"2.79.*"``) gives no version: Terraform
stops at ``init``. Constraint syntax: https://developer.hashicorp.com/terraform/language/expressions/version-constraints
"""

from __future__ import annotations

import re
from typing import Iterator, NamedTuple

from kapsulint.model.modules import Block

from kapsulint.model.instances import ModuleInstance

Version = tuple[int, int, int]

_VERSION_RE = re.compile(r"(\d+)(?:\.(\d+))?(?:\.(\d+))?")
_CLAUSE_RE = re.compile(
    r"(~>|>=|<=|!=|=|>|<)?\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?"
)
_MAX_MODULES = 2000


def parse_version(text: str) -> Version | None:
    match = _VERSION_RE.search(text)
    if match is None:
        return None
    return tuple(int(part or 0) for part in match.groups())  # type: ignore[return-value]


class Clause(NamedTuple):
    """One comma-separated part of a version constraint: ``~> 2.40`` is ("~>", (2, 40, 0), 2)."""

    operator: str
    version: Version
    parts: int  # how many of major, minor, patch are written
    prerelease: bool

    def admits(self, version: Version) -> bool:
        if self.operator == "=":
            return version == self.version
        if self.operator == "!=":
            return version != self.version
        if self.operator == ">":
            return version > self.version
        if self.operator == ">=":
            return version >= self.version
        if self.operator == "<":
            return version < self.version
        if self.operator == "<=":
            return version <= self.version
        # "~>": the last written part may grow ("~> 2" and "~> 2.40": 2.x; "~> 2.40.1": 2.40.x)
        if version < self.version:
            return False
        return version[:1] == self.version[:1] if self.parts <= 2 else version[:2] == self.version[:2]


def parse_constraint(text: str) -> list[Clause] | None:
    """The clauses of a version constraint; None when Terraform refuses it (``"2.x"``,
    ``"2.79.*"``, ``"^2.0"``, ``">= 2.0 < 3.0"``); [] for an empty string."""
    if not text.strip():
        return []
    clauses = []
    for raw in text.split(","):
        match = _CLAUSE_RE.fullmatch(raw.strip())
        if match is None:
            return None
        operator, major, minor, patch, prerelease = match.groups()
        parts = 1 + (minor is not None) + (patch is not None)
        version = (int(major), int(minor or 0), int(patch or 0))
        clauses.append(Clause(operator or "=", version, parts, prerelease is not None))
    return clauses


def lower_bound(constraint: str) -> Version | None:
    """The lowest version a constraint admits (``~> 2.40`` -> 2.40.0; ``< 3`` -> None)."""
    bounds = []
    for clause in parse_constraint(constraint) or []:
        if clause.operator in ("~>", ">=", "="):
            bounds.append(clause.version)
        elif clause.operator == ">":
            bounds.append((clause.version[0], clause.version[1], clause.version[2] + 1))
    return max(bounds) if bounds else None


def newest_admitted(clauses: list[Clause], releases: tuple[Version, ...]) -> Version | None:
    """The newest of ``releases`` every clause admits."""
    admitted = [r for r in releases if all(c.admits(r) for c in clauses)]
    return max(admitted) if admitted else None


class ProviderVersion(NamedTuple):
    """The version of a provider a module uses, and how kapsulint knows it (for messages)."""

    version: Version
    origin: str

    @property
    def text(self) -> str:
        return ".".join(str(part) for part in self.version)


def resolve_provider_version(instance: ModuleInstance, local_name: str, source_suffix: str,
                             releases: tuple[Version, ...]) -> ProviderVersion | None:
    """The version of a provider for a module instance: the root's lock file, else the newest
    known release the configuration's constraints admit; None when a constraint is refused or
    written as an expression, or when nothing is known."""
    locked = _locked(instance, source_suffix)
    if locked is not None:
        return ProviderVersion(locked, "locked in .terraform.lock.hcl")
    clauses: list[Clause] = []
    written: list[str] = []
    for text in _constraints(instance.root, local_name, source_suffix):
        if text is None:
            return None
        parsed = parse_constraint(text)
        if parsed is None or any(c.prerelease for c in parsed):
            return None
        if parsed:
            clauses.extend(parsed)
            written.append(text.strip())
    shown = ", ".join(f'"{text}"' for text in written)
    newest = newest_admitted(clauses, releases)
    if newest is not None:
        origin = f"the newest release {shown} admits" if written else "the newest release: no version constraint"
        return ProviderVersion(newest, origin)
    bounds = [c.version for c in clauses if c.operator in ("~>", ">=", "=")]
    if bounds:
        return ProviderVersion(max(bounds), f"the lower bound of {shown}")
    return None


def _locked(instance: ModuleInstance, source_suffix: str) -> Version | None:
    root = instance.root.module
    if root.lock is None or not root.lock.ok:
        return None
    for block in root.lock.data["body"]["blocks"]:
        if block["type"] == "provider" and block["labels"] and block["labels"][0].lower().endswith(source_suffix):
            for attribute in block["body"]["attrs"]:
                if attribute["name"] == "version" and attribute["expr"].get("t") == "lit":
                    return parse_version(str(attribute["expr"]["v"]))
    return None


def _constraints(root: ModuleInstance, local_name: str, source_suffix: str) -> Iterator[str | None]:
    """Every version constraint the configuration under ``root`` writes for the provider (Terraform
    combines them all); None for one that is not a literal string."""
    seen: set[str] = set()
    stack = [root]
    while stack and len(seen) < _MAX_MODULES:
        current = stack.pop()
        module = current.module
        if module.path not in seen:
            seen.add(module.path)
            source, version, _ = module.required_provider(local_name)
            if source is None or source.lower().endswith(source_suffix):
                if version is not None:
                    value = version.expr.get("v") if version.expr.get("t") == "lit" else None
                    yield value if isinstance(value, str) else None
        for call_name in module.calls:
            stack.extend(current.child_instances(call_name))


def provider_config(instance: ModuleInstance, provider_name: str, alias: str | None) -> tuple[ModuleInstance, Block] | None:
    """The ``provider`` block a resource in ``instance`` uses, following the module tree."""
    current: ModuleInstance | None = instance
    name, wanted_alias = provider_name, alias
    while current is not None:
        for block in current.module.providers:
            if not block.labels or block.labels[0] != name:
                continue
            alias_attr = block.attr("alias")
            block_alias = alias_attr.expr.get("v") if alias_attr is not None else None
            if block_alias == wanted_alias:
                return current, block
        call = current.call
        if call is None:
            return None
        mapping = call.block.attr("providers")
        key = name if wanted_alias is None else f"{name}.{wanted_alias}"
        if mapping is not None and mapping.expr.get("t") == "object":
            passed = _provider_mapping(mapping.expr).get(key)
            if passed is None and wanted_alias is not None:
                return None
            if passed is not None:
                name, _, alias_text = passed.partition(".")
                wanted_alias = alias_text or None
        current = current.parent
    return None


def _provider_mapping(expr: dict) -> dict[str, str]:
    result = {}
    for key, value in expr["items"]:
        result[_dotted(key)] = _dotted(value)
    return result


def _dotted(node: dict) -> str:
    if node["t"] == "lit":
        return str(node["v"])
    if node["t"] == "var":
        return node["name"]
    if node["t"] == "attr":
        return f"{_dotted(node['obj'])}.{node['name']}"
    return ""
