"""Values files named by what reads them: a ``helm_release`` reading a YAML file through ``file()``
or ``templatefile()`` makes it a values file, whatever its name, and so does an Argo CD
Application, a Flux HelmRelease (through a Kustomize generator) or a helmfile release reading it
(:mod:`kapsulint.kapsule.gitops`). The command line gives this question to the engine
(``ScanOptions.values_readers``), which knows no Helm."""

from __future__ import annotations

import os

from kapsulint.api import Project, ResourceInstance
from kapsulint.kapsule.gitops import releases as gitops_releases
from kapsulint.kapsule.helm import files_read_by, releases


def values_readers(project: Project) -> dict[str, list[ResourceInstance]]:
    """Each file a release's ``values`` are read from, with the ``helm_release`` instances reading
    it (none for a file only a GitOps release reads: :func:`gitops_readers` names those)."""
    readers: dict[str, list[ResourceInstance]] = {}
    try:
        found = releases(project)
    except Exception:
        return readers
    for release in found:
        try:
            paths = sorted(files_read_by(release.instance))
        except Exception:
            continue
        for path in paths:
            readers.setdefault(os.path.normpath(path), []).append(release.instance)
    try:
        gitops = gitops_releases.releases(project)
    except Exception:
        return readers
    for gitops_release in gitops:
        for path in sorted(gitops_release.files):
            readers.setdefault(os.path.normpath(path), [])
    return readers


def gitops_readers(project: Project, path: str) -> list[str]:
    """The GitOps releases reading the values file at ``path``, as ``--show-files`` names them:
    ``HelmRelease ingress/web (flux/release.yaml:7)``."""
    wanted = os.path.normpath(path)
    return [f"{release.name} ({project.relative(release.anchor.path)}:{release.anchor.line})"
            for release in gitops_releases.releases(project)
            if wanted in {os.path.normpath(p) for p in release.files}]
