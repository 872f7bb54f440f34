"""Every chart release of Argo CD, Flux and helmfile written in the repository, and the values
sources they name that could not be read, computed once."""

from __future__ import annotations

from typing import NamedTuple

from kapsulint.api import Project
from kapsulint.kapsule.gitops import argocd, flux, helmfile
from kapsulint.kapsule.gitops.release import GitopsRelease, Unread


class Found(NamedTuple):
    releases: list[GitopsRelease]
    unread: list[Unread]
    files: frozenset[str]  # every values file a release reads


def found(project: Project) -> Found:
    return project.memo("kapsule.gitops.releases", lambda: _found(project))


def _found(project: Project) -> Found:
    unread: list[Unread] = []
    every: list[GitopsRelease] = []
    for tool in (argocd, flux, helmfile):
        every.extend(tool.releases(project, unread))
    files = frozenset(path for release in every for path in release.files)
    return Found(every, unread, files)


def releases(project: Project) -> list[GitopsRelease]:
    """Every release, in the order of the tools, then of the files the scan read."""
    return found(project).releases


def unread(project: Project) -> list[Unread]:
    """Every values source a release names that was not read, at the reference (KAP019)."""
    return found(project).unread


__all__ = ["Found", "GitopsRelease", "Unread", "found", "releases", "unread"]
