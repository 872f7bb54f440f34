"""Values files named by what reads them: a ``helm_release`` reading a YAML file through ``file()``
or ``templatefile()`` makes it a values file, whatever its name. The command line gives this
question to the engine (``ScanOptions.values_readers``), which knows no Helm."""

from __future__ import annotations

import os

from kapsulint.api import Project, ResourceInstance
from kapsulint.kapsule.helm import files_read_by, releases


def values_readers(project: Project) -> dict[str, list[ResourceInstance]]:
    """Each file a release's ``values`` are read from, with the release instances reading it."""
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
    return readers
