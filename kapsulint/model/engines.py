"""Which configuration files of a module Terraform or OpenTofu reads, and which of the two reads
each root module tree.

Terraform reads ``*.tf`` and ``*.tf.json`` and ignores every other name, ``.tofu`` included
(https://github.com/hashicorp/terraform/blob/v1.11.4/internal/configs/parser_config_dir.go#L304-L316,
``fileExt``). OpenTofu (1.8 and later) reads ``*.tofu`` and ``*.tofu.json`` too, and drops a
``NAME.tf`` that has a ``NAME.tofu`` beside it, and a ``NAME.tf.json`` that has a
``NAME.tofu.json``: only the twin with the same base name and the same syntax replaces a file, so
``main.tofu`` leaves ``main.tf.json`` read, and an override file is replaced by an override file
(``main_override.tofu`` replaces ``main_override.tf``), since the base names then match too
(``filterTfPathsWithTofuAlternatives``, applied to the primary and the override files alike:
https://github.com/opentofu/opentofu/blob/v1.8.0/internal/configs/parser_config_dir.go#L242-L280).

The tool is chosen per command run in a root module, and it reads every module that root calls
with its own rules: a module's ``.tofu`` files say that its author supports OpenTofu, not which
tool its callers run (a registry module may ship ``main.tf`` for Terraform and ``main.tofu`` for
OpenTofu). So ``auto`` decides per root module tree: a module no scanned module calls decides by
its own evidence (a ``.tofu`` file, a lock file that names providers of OpenTofu's registry, or
OpenTofu's state ``encryption`` block, which Terraform refuses), and every module it calls, local
or downloaded, is read the same way.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import NamedTuple

from kapsulint.parsing.sources import SourceFile

TERRAFORM = "terraform"
OPENTOFU = "opentofu"
AUTO = "auto"
ENGINES = (TERRAFORM, OPENTOFU, AUTO)
NAMES = {TERRAFORM: "Terraform", OPENTOFU: "OpenTofu"}
OPENTOFU_SUFFIXES = (".tofu", ".tofu.json")
OPENTOFU_REGISTRY = "registry.opentofu.org"
_TWINS = ((".tf", ".tofu"), (".tf.json", ".tofu.json"))
CALLED = "read in the tree of"


class Choice(NamedTuple):
    """The engine a module is read as, and why (for ``--show-files``)."""

    engine: str  # TERRAFORM or OPENTOFU
    reason: str  # "auto: it holds main.tofu", "engine = opentofu", "read in the tree of" (``tree``)
    tree: str | None = None  # the module no one calls whose tree this module is read in, when not its own


class NotRead(NamedTuple):
    """A configuration file the module's engine does not read."""

    path: str
    engine: str  # the engine that leaves it out
    replaced_by: str | None  # OpenTofu: the .tofu twin that replaces it; None: a .tofu file Terraform ignores


DEFAULT = Choice(TERRAFORM, "auto: no .tofu file, no OpenTofu lock file or state encryption")


def is_opentofu_file(path: str) -> bool:
    return path.endswith(OPENTOFU_SUFFIXES)


def files_read(paths: Iterable[str], engine: str) -> tuple[list[str], list[NotRead]]:
    """The files of one directory ``engine`` reads, in the order given, and those it leaves out."""
    paths = list(paths)
    present = set(paths)
    kept: list[str] = []
    left_out: list[NotRead] = []
    for path in paths:
        if engine == TERRAFORM:
            if is_opentofu_file(path):
                left_out.append(NotRead(path, engine, None))
            else:
                kept.append(path)
            continue
        twin = tofu_twin(path)
        if twin is not None and twin in present:
            left_out.append(NotRead(path, engine, twin))
        else:
            kept.append(path)
    return kept, left_out


def tofu_twin(path: str) -> str | None:
    """``NAME.tofu`` for ``NAME.tf``, ``NAME.tofu.json`` for ``NAME.tf.json``; None otherwise."""
    for terraform_suffix, tofu_suffix in _TWINS:
        if path.endswith(terraform_suffix):
            return path[: -len(terraform_suffix)] + tofu_suffix
    return None


def own_evidence(sources: list[SourceFile], lock: SourceFile | None) -> str | None:
    """Why a module read on its own is OpenTofu's, or None: it holds a ``.tofu`` file, its lock
    file names a provider of OpenTofu's registry (OpenTofu writes ``registry.opentofu.org/...``
    for a source written without a host, Terraform ``registry.terraform.io/...``), or a
    ``terraform`` block holds OpenTofu's state ``encryption`` block."""
    tofu = sorted(os.path.basename(s.path) for s in sources if is_opentofu_file(s.path))
    if tofu:
        return f"it holds {tofu[0]}"
    if lock is not None and lock.ok:
        for block in lock.parsed["body"]["blocks"]:
            labels = block.get("labels") or []
            address = str(labels[0]).lower() if labels else ""
            if block.get("type") == "provider" and address.startswith(OPENTOFU_REGISTRY + "/"):
                return f".terraform.lock.hcl names {labels[0]}"
    for source in sources:
        if source.ok and not is_opentofu_file(source.path) and _has_encryption(source):
            return f"{os.path.basename(source.path)} configures OpenTofu state encryption"
    return None


def _has_encryption(source: SourceFile) -> bool:
    return any(block.get("type") == "terraform" and any(b.get("type") == "encryption" for b in block["body"]["blocks"])
               for block in source.parsed["body"]["blocks"])


def local_call_targets(directory: str, sources: list[SourceFile], is_override) -> list[str]:
    """The directories the local module calls (``./``, ``../``) of these files lead to; an
    override file's ``source`` replaces the one of the call it names."""
    sources_by_call: dict[str, str] = {}
    for source in sorted(sources, key=lambda s: is_override(s.path)):  # primary files first
        if not source.ok:
            continue
        for block in source.parsed["body"]["blocks"]:
            labels = block.get("labels") or []
            if block.get("type") != "module" or not labels:
                continue
            for attribute in block["body"]["attrs"]:
                expr = attribute["expr"]
                if attribute["name"] == "source" and expr.get("t") == "lit" and isinstance(expr.get("v"), str):
                    sources_by_call[labels[0]] = expr["v"]
    return [os.path.normpath(os.path.join(directory, s)) for s in sources_by_call.values()
            if s.startswith(("./", "../"))]


def decide(configs: dict[str, list[SourceFile]], locks: dict[str, SourceFile | None], forced: str,
           is_override) -> dict[str, Choice]:
    """The engine of each directory of ``configs`` (its configuration files, parsed).

    With ``forced`` ``terraform`` or ``opentofu`` every module is read so. With ``auto``, each
    module no other calls decides by :func:`own_evidence`, and the modules it calls follow it;
    a module reached from trees of both engines is read as OpenTofu if it has evidence of its
    own, else as Terraform. Which modules call which depends on the files read, so the
    decision is repeated until it no longer changes, at most once per module and once more."""
    if forced != AUTO:
        return {directory: Choice(forced, f"engine = {forced}") for directory in configs}
    evidence = {d: own_evidence(sources, locks.get(d)) for d, sources in configs.items()}
    own = {d: Choice(OPENTOFU, f"auto: {why}") if why else DEFAULT for d, why in evidence.items()}
    if not any(evidence.values()):
        return own  # no sign of OpenTofu anywhere: every tree is Terraform's, whatever calls what
    chosen = dict(own)
    for _ in range(len(configs) + 1):
        calls = {}
        for directory, sources in configs.items():
            kept, _ = files_read((s.path for s in sources), chosen[directory].engine)
            read = set(kept)
            calls[directory] = [t for t in local_call_targets(directory, [s for s in sources if s.path in read],
                                                              is_override) if t in configs and t != directory]
        called = {target for targets in calls.values() for target in targets}
        reached: dict[str, dict[str, str]] = {}  # directory -> engine -> the top module that reads it so
        for top in sorted(d for d in configs if d not in called):
            engine = own[top].engine
            pending, seen = [top], set()
            while pending:
                directory = pending.pop()
                if directory in seen:
                    continue
                seen.add(directory)
                reached.setdefault(directory, {}).setdefault(engine, top)
                pending.extend(calls[directory])
        changed = False
        for directory in configs:
            engines = reached.get(directory, {})
            if directory not in called or not engines:
                continue
            if OPENTOFU in engines and (TERRAFORM not in engines or evidence[directory]):
                choice = Choice(OPENTOFU, CALLED, engines[OPENTOFU])
            else:
                choice = Choice(TERRAFORM, CALLED, engines[TERRAFORM])
            if choice.engine != chosen[directory].engine:
                changed = True
            chosen[directory] = choice
        if not changed:
            break
    return chosen
