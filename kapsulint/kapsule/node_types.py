"""Node type questions that depend on the scan (its configuration), over the static facts.

``facts`` holds what Scaleway sells; the project's configuration may add types kapsulint does
not know yet (``extra-node-types`` in ``.kapsulint.toml``, README "Configuration").
"""

from __future__ import annotations

from kapsulint.api import Project
from kapsulint.kapsule import facts


def extra_node_types(project: Project) -> frozenset[str]:
    """The configured ``extra-node-types``, in canonical spelling (upper case, ``_`` -> ``-``)."""
    names = getattr(project.options, "extra_node_types", None) or ()
    return frozenset(facts.normalize_node_type(name) for name in names if isinstance(name, str))


def known_node_type(project: Project, name: str) -> bool:
    """True when the facts record this commercial type or the configuration declares it.

    The comparison follows the provider: case-insensitive, ``_`` equal to ``-``.
    """
    return facts.is_known_node_type(name) or facts.normalize_node_type(name) in extra_node_types(project)


def eligible_alternative(node_type: str) -> str | None:
    """The smallest Kapsule-eligible type of the same family with more memory, or None.

    For a type refused for lack of memory (``DEV1-S`` -> ``DEV1-M``, ``PLAY2-PICO`` ->
    ``PLAY2-NANO``); None when the family has no eligible member (STARDUST1, end-of-life
    families).
    """
    known = facts.instance_type(node_type)
    family = facts.node_type_family(node_type)
    if family is None:
        return None
    floor = known.ram_gib if known is not None else 0.0
    candidates = [
        t
        for t in facts.INSTANCE_TYPES.values()
        if t.family == family and t.kapsule_eligible and not t.end_of_life and t.ram_gib > floor
    ]
    if not candidates:
        return None
    return min(candidates, key=lambda t: (t.ram_gib, t.vcpus, t.name)).name
