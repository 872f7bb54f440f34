"""Provider versions and configurations.

The version a module uses is the one ``.terraform.lock.hcl`` of its root locks; without a lock
file, the newest known release that every version constraint of the configuration admits (what
``terraform init`` installs), else the lowest version the constraints admit when they admit no
known release (a release newer than the facts, or a pinned pre-release, which the release lists
never hold). Constraints are read as Terraform reads them (:mod:`kapsulint.model.versions`): a
constraint Terraform refuses (``"2.x"``, ``"v2.0"``, ``version = var.v``) gives no version, as
Terraform stops at ``init``. Constraint syntax: https://developer.hashicorp.com/terraform/language/expressions/version-constraints
"""

from __future__ import annotations

from typing import Iterator, NamedTuple

from kapsulint.findings import Loc
from kapsulint.model.modules import Block, block_from

from kapsulint.model.instances import ModuleInstance
from kapsulint.model.versions import Clause, Version, lowest_admitted, newest_admitted, parse_constraint, parse_version

_MAX_MODULES = 2000


class ProviderVersion(NamedTuple):
    """The version of a provider a module uses, how kapsulint knows it (for messages) and where
    it is written: the lock file's ``version``, or the constraint that pins or admits it."""

    version: Version
    origin: str
    loc: Loc | None = None

    @property
    def text(self) -> str:
        return self.version.text


def resolve_provider_version(instance: ModuleInstance, local_name: str, source_suffix: str,
                             releases: tuple[Version, ...]) -> ProviderVersion | None:
    """The version of a provider for a module instance: the root's lock file, else the newest
    known release the configuration's constraints admit, else the lowest version they admit;
    None when a constraint is refused (or not a literal string), or nothing is known. Computed
    once per root module instance (it depends on the root's lock and the modules it calls; the
    releases are the domain's list for ``source_suffix``)."""
    cache = instance.root.provider_versions
    key = (local_name, source_suffix)
    if key not in cache:
        cache[key] = _resolve(instance.root, local_name, source_suffix, releases)
    return cache[key]


def _resolve(instance: ModuleInstance, local_name: str, source_suffix: str,
             releases: tuple[Version, ...]) -> ProviderVersion | None:
    locked = _locked(instance, source_suffix)
    if locked is not None:
        return ProviderVersion(locked[0], "locked in .terraform.lock.hcl", locked[1])
    clauses: list[Clause] = []
    written: list[tuple[str, Loc]] = []
    for text, loc in _constraints(instance.root, local_name, source_suffix):
        parsed = parse_constraint(text) if text is not None else None
        if parsed is None:
            return None
        clauses.extend(parsed)
        written.append((text.strip(), loc))
    shown = ", ".join(f'"{text}"' for text in dict.fromkeys(text for text, _ in written))  # each once
    newest = newest_admitted(clauses, releases)
    if newest is not None:
        origin = f"the newest release {shown} admits" if written else "the newest release: no version constraint"
        return ProviderVersion(newest, origin, _where(written, newest))
    lowest = lowest_admitted(clauses)
    if lowest is not None:
        pinned = any(c.operator == "=" and c.version == lowest for c in clauses)
        origin = f"pinned by {shown}" if pinned else f"the lowest version {shown} admits"
        return ProviderVersion(lowest, origin, _where(written, lowest))
    return None


def _where(written: list[tuple[str, Loc]], version: Version) -> Loc | None:
    """The constraint that pins ``version`` exactly, else the first one written (the root's)."""
    for text, loc in written:
        if any(c.operator == "=" and c.version == version for c in parse_constraint(text) or ()):
            return loc
    return written[0][1] if written else None


def _locked(instance: ModuleInstance, source_suffix: str) -> tuple[Version, Loc] | None:
    root = instance.root.module
    if root.lock is None or not root.lock.ok:
        return None
    for raw in root.lock.data["body"]["blocks"]:
        block = block_from(raw, root.lock.path)
        if block.type == "provider" and block.labels and block.labels[0].lower().endswith(source_suffix):
            attribute = block.attr("version")
            if attribute is not None and isinstance(attribute.literal_value, str):
                version = parse_version(attribute.literal_value)
                return (version, attribute.value_loc) if version is not None else None
    return None


def _constraints(root: ModuleInstance, local_name: str, source_suffix: str) -> Iterator[tuple[str | None, Loc]]:
    """Every version constraint the configuration under ``root`` writes for the provider (Terraform
    combines them all), with where it is written; None for one that is not a literal string."""
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
                    value = version.literal_value
                    yield (value if isinstance(value, str) else None), version.value_loc
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
