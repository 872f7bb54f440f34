"""The ConfigMaps and Secrets Kustomize generates (``configMapGenerator``, ``secretGenerator``).

Kustomize finds a kustomization by its file name (``kustomization.yaml``, ``kustomization.yml``
or ``Kustomization`` in a directory,
https://kubectl.docs.kubernetes.io/references/kustomize/glossary/#kustomization-root), so the scan
reads those names whatever their content. A generator's keys come from ``files`` (``path``, its
key the file's name, or ``key=path``, relative to the kustomization's directory) and ``literals``
(``key=value``); ``envs`` files are not read. A generated object's name gets a hash suffix unless
``disableNameSuffixHash``, and Kustomize rewrites the references it knows (``nameReference``, a
``configurations`` file for a HelmRelease's ``valuesFrom``), so a reference is matched by the
generator's name (https://kubectl.docs.kubernetes.io/references/kustomize/kustomization/configmapgenerator/,
https://fluxcd.io/flux/components/helm/helmreleases/#values-references).
"""

from __future__ import annotations

import os
from typing import NamedTuple

from kapsulint.api import Loc, Project, Val
from kapsulint.kapsule.gitops import reading

FILE_NAMES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
GENERATORS = (("configMapGenerator", "ConfigMap"), ("secretGenerator", "Secret"))


class GeneratedKey(NamedTuple):
    """One key of a generated object: a file to read (``path``), or a literal's value."""

    loc: Loc  # where the key's source is written (the files or literals entry)
    path: str | None
    literal: Val | None


class Generated(NamedTuple):
    kind: str  # "ConfigMap" or "Secret"
    name: str
    namespace: str | None
    keys: dict[str, GeneratedKey]
    loc: Loc  # the generator entry


def is_kustomization(path: str) -> bool:
    return os.path.basename(path) in FILE_NAMES


def generated(project: Project) -> list[Generated]:
    """Every object a kustomization of the repository generates, computed once."""
    return project.memo("kapsule.gitops.generated", lambda: list(_generated(project)))


def _generated(project: Project) -> list[Generated]:
    found: list[Generated] = []
    for documents in project.yaml_documents:
        if not is_kustomization(documents.path):
            continue
        directory = os.path.dirname(documents.path)
        for kustomization in documents.documents():
            if not kustomization.known or not kustomization.is_object:
                continue
            namespace = reading.text(kustomization.get("namespace"))
            for key, kind in GENERATORS:
                entries = kustomization.get(key)
                for entry in entries.elements() if entries.known and entries.is_list else ():
                    item = _generator(entry, kind, namespace, directory)
                    if item is not None:
                        found.append(item)
    return found


def _generator(entry: Val, kind: str, namespace: str | None, directory: str) -> Generated | None:
    name = reading.text(entry.get("name"))
    if not entry.is_object or not name:
        return None
    loc = entry.loc or Loc("?", 1, 1, 1, 2)
    keys: dict[str, GeneratedKey] = {}
    files = entry.get("files")
    for item in files.elements() if files.known and files.is_list else ():
        written = reading.text(item)
        if not written:
            continue
        key, separator, path = written.partition("=")
        if not separator:
            key, path = os.path.basename(written), written
        keys[key.strip()] = GeneratedKey(item.loc or loc, reading.joined(directory, path.strip()), None)
    literals = entry.get("literals")
    for item in literals.elements() if literals.known and literals.is_list else ():
        written = reading.text(item)
        if not written or "=" not in written:
            continue
        key, _, value = written.partition("=")
        keys[key.strip()] = GeneratedKey(item.loc or loc, None, Val(value, item.loc))
    return Generated(kind, name, reading.text(entry.get("namespace")) or namespace, keys, loc)


# -- overlays that patch the objects of their bases ------------------------------------------------
#
# A kustomization's ``resources`` are files and directories (a directory holds a kustomization of
# its own), relative to its directory; Kustomize renders them, then applies the kustomization's
# patches (https://kubectl.docs.kubernetes.io/references/kustomize/kustomization/resource/,
# https://kubectl.docs.kubernetes.io/references/kustomize/kustomization/patches/). A strategic
# merge patch (a partial object: ``patchesStrategicMerge`` entries, a ``patches`` entry's file or
# inline ``patch`` holding a map) merges into the object of the same kind and name, maps key by
# key; a JSON 6902 patch (a list of operations: ``patchesJson6902``, a ``patches`` entry holding
# a list) edits it by paths, which are not followed here.


class Patch(NamedTuple):
    """A patch that may apply to objects of ``kind`` named ``name`` (None: any), and the partial
    object it merges (None: a patch whose effect is not followed)."""

    kind: str | None
    name: str | None
    partial: Val | None


class Rendering(NamedTuple):
    """How a top kustomization (one no other kustomization includes) renders a file's objects:
    the patches of it and of every kustomization on the way down to the file."""

    kustomization: str  # the top kustomization's file
    patches: tuple[Patch, ...]


def _kustomizations(project: Project) -> dict[str, tuple[str, Val]]:
    """directory -> (file, kustomization) for every kustomization of the repository."""
    found: dict[str, tuple[str, Val]] = {}
    for documents in project.yaml_documents:
        if not is_kustomization(documents.path):
            continue
        parsed = [d for d in documents.documents() if d.known and d.is_object]
        if parsed:
            found.setdefault(os.path.normpath(os.path.dirname(documents.path)), (documents.path, parsed[0]))
    return found


def _documents_of(project: Project, path: str) -> list[Val] | None:
    for documents in project.yaml_documents:
        if os.path.normpath(documents.path) == path:
            return documents.documents()
    return None


def _listed(value: Val) -> list[Val]:
    return value.elements() if value.known and value.is_list else []


def _patch_documents(project: Project, directory: str, entry: Val) -> list[Val] | None:
    """The documents of a patch written as a file path or an inline YAML string; None when they
    cannot be read."""
    written = reading.text(entry)
    if written is None:
        return None
    if "\n" not in written and not written.lstrip().startswith(("{", "[", "-")) and ":" not in written:
        return _documents_of(project, reading.joined(directory, written))
    decoded = reading.yaml_string(project, entry)
    return [decoded] if decoded is not None else None


def _patches(project: Project, directory: str, kustomization: Val) -> list[Patch]:
    out: list[Patch] = []

    def add(documents: list[Val] | None, target: Val) -> None:
        kind = reading.text(target.get("kind")) if target.is_object else None
        name = reading.text(target.get("name")) if target.is_object else None
        if not documents:
            out.append(Patch(kind, name, None))
            return
        for document in documents:
            if document.known and document.is_object and not document.open:
                out.append(Patch(reading.text(document.get("kind")) or kind,
                                 reading.text(document.path("metadata", "name")) or name, document))
            else:
                out.append(Patch(kind, name, None))  # JSON 6902 operations, or not readable

    for entry in _listed(kustomization.get("patchesStrategicMerge")):
        add(_patch_documents(project, directory, entry), Val(None))
    for entry in _listed(kustomization.get("patches")):
        if not entry.is_object:
            out.append(Patch(None, None, None))
            continue
        source = entry.get("path") if entry.get("path").raw is not None else entry.get("patch")
        add(_patch_documents(project, directory, source), entry.get("target"))
    for entry in _listed(kustomization.get("patchesJson6902")):
        target = entry.get("target") if entry.is_object else Val(None)
        out.append(Patch(reading.text(target.get("kind")) if target.is_object else None,
                         reading.text(target.get("name")) if target.is_object else None, None))
    return out


def renderings(project: Project) -> dict[str, list[Rendering]]:
    """file -> how each top kustomization that includes it renders it, computed once; a file no
    kustomization includes is absent."""
    return project.memo("kapsule.gitops.renderings", lambda: _renderings(project))


def _renderings(project: Project) -> dict[str, list[Rendering]]:
    every = _kustomizations(project)
    included: set[str] = set()
    children: dict[str, tuple[list[str], list[str]]] = {}  # directory -> (files, directories)
    for directory, (_, kustomization) in every.items():
        files, directories = [], []
        for entry in _listed(kustomization.get("resources")):
            written = reading.text(entry)
            if not written or "://" in written:
                continue
            path = reading.joined(directory, written)
            if path in every:
                directories.append(path)
                included.add(path)
            else:
                files.append(path)
        children[directory] = (files, directories)
    out: dict[str, list[Rendering]] = {}
    for top in sorted(set(every) - included):
        stack: list[tuple[str, tuple[Patch, ...], frozenset[str]]] = [(top, (), frozenset())]
        while stack:
            directory, patches, seen = stack.pop()
            if directory in seen:
                continue  # a cycle: Kustomize refuses it
            patches = (*patches, *_patches(project, directory, every[directory][1]))
            files, directories = children[directory]
            for path in files:
                out.setdefault(path, []).append(Rendering(every[top][0], patches))
            for below in directories:
                stack.append((below, patches, seen | {directory}))
    return out


def patched(rendering: Rendering, kind: str, name: str | None) -> list[Patch]:
    """The patches of a rendering that may apply to an object of ``kind`` named ``name``."""
    return [patch for patch in rendering.patches
            if (patch.kind is None or patch.kind == kind) and (patch.name is None or name is None or patch.name == name)]
