"""Everything a rule may use from the engine. Rules import only this and :mod:`kapsulint.kapsule`.

A rule is a module in ``rules/`` with a docstring under the fixed headings (``registry.DOC_HEADINGS``), the
constants ``ID``, ``NAME``, ``SEVERITY`` (and ``SECURITY = True`` for security rules), and a
pure ``check(project)`` generator of :class:`Finding` objects.
"""

from __future__ import annotations

from kapsulint.terraform.documents import decode_located, literal_to_val
from kapsulint.terraform.evaluate import iteration_pairs, number
from kapsulint.findings import Finding, Loc, Related, Severity
from kapsulint.model.instances import ModuleInstance, ResourceInstance
from kapsulint.model.modules import Block, Module, ValuesFile
from kapsulint.model.project import Project
from kapsulint.model.providers import (
    ProviderVersion, Version, parse_constraint, parse_version, provider_config, resolve_provider_version,
)
from kapsulint.terraform.values import UNKNOWN, Val, unknown_from


def finding(
    loc: Loc,
    message: str,
    *,
    subject: str = "",
    instance: str | None = None,
    related: tuple[Related, ...] | list[Related] = (),
    fix: str | None = None,
    logical: str = "",
    secret: bool = False,
    level: Severity | None = None,
) -> Finding:
    """A finding at ``loc`` (cut to one line). ``subject`` names the object judged, ``logical`` its
    address and attribute path for fingerprints (never a line number or a value); ``secret`` when
    the anchored text is a credential, so no reporter echoes the source line; ``level`` when this
    finding is more (or less) severe than the rule's ``SEVERITY`` (a configured severity still wins)."""
    return Finding(
        loc=loc.one_line(),
        message=message,
        subject=subject,
        instance=instance,
        related=tuple(related),
        fix=fix,
        logical=logical or subject,
        secret=secret,
        level=level,
    )


def shown(value: Val) -> str:
    """A value as a message may print it: secrets and sensitive values are never shown."""
    if value.sensitive:
        return "(sensitive value)"
    text = value.text()
    if text is None:
        return "(a structure)" if value.known else "(unknown)"
    if len(text) > 60:
        text = text[:57] + "..."
    return f'"{text}"' if isinstance(value.raw, str) else text


__all__ = [
    "UNKNOWN",
    "Block",
    "Finding",
    "Loc",
    "Module",
    "ModuleInstance",
    "Project",
    "ProviderVersion",
    "Related",
    "ResourceInstance",
    "Severity",
    "Val",
    "ValuesFile",
    "Version",
    "decode_located",
    "finding",
    "iteration_pairs",
    "literal_to_val",
    "number",
    "parse_constraint",
    "parse_version",
    "provider_config",
    "resolve_provider_version",
    "shown",
    "unknown_from",
]
