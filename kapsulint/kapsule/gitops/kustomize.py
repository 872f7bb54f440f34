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
