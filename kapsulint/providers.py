"""Provider versions (lock file, else the lower bound of ``required_providers``) and configurations."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from kapsulint.model import Block

if TYPE_CHECKING:
    from kapsulint.instances import ModuleInstance

_VERSION_RE = re.compile(r"(\d+)(?:\.(\d+))?(?:\.(\d+))?")


def parse_version(text: str) -> tuple[int, int, int] | None:
    match = _VERSION_RE.search(text)
    if match is None:
        return None
    return tuple(int(part or 0) for part in match.groups())  # type: ignore[return-value]


def lower_bound(constraint: str) -> tuple[int, int, int] | None:
    """The lowest version a constraint admits (``~> 2.40`` -> 2.40.0; ``< 3`` -> None)."""
    bounds = []
    for clause in constraint.split(","):
        clause = clause.strip()
        operator = re.match(r"(~>|>=|<=|!=|=|>|<)?\s*", clause)
        symbol = operator.group(1) or "=" if operator else "="
        version = parse_version(clause)
        if version is None:
            continue
        if symbol in ("~>", ">=", "="):
            bounds.append(version)
        elif symbol == ">":
            bounds.append((version[0], version[1], version[2] + 1))
    return max(bounds) if bounds else None


def provider_version(instance: ModuleInstance, local_name: str, source_suffix: str) -> tuple[int, int, int] | None:
    """The version of a provider for a module instance: the root's lock file, else a constraint."""
    root = instance.root.module
    if root.lock is not None and root.lock.ok:
        for block in root.lock.data["body"]["blocks"]:
            if block["type"] == "provider" and block["labels"] and block["labels"][0].endswith(source_suffix):
                for attribute in block["body"]["attrs"]:
                    if attribute["name"] == "version" and attribute["expr"].get("t") == "lit":
                        return parse_version(str(attribute["expr"]["v"]))
    chain = []
    current: ModuleInstance | None = instance
    while current is not None:
        chain.append(current.module)
        current = current.parent
    for module in chain:
        source, version, _ = module.required_provider(local_name)
        if version is not None and version.expr.get("t") == "lit" and isinstance(version.expr["v"], str):
            bound = lower_bound(version.expr["v"])
            if bound is not None:
                return bound
    return None


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
