"""Values files named by what reads them: a ``helm_release`` reading a YAML file through ``file()``
or ``templatefile()`` makes it a values file, whatever its name."""

from __future__ import annotations

import fnmatch
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kapsulint.instances import ResourceInstance
    from kapsulint.project import Project


def values_readers(project: Project) -> dict[str, list[ResourceInstance]]:
    """Each file a release's ``values`` are read from, with the release instances reading it."""

    def collect() -> dict[str, list[ResourceInstance]]:
        from kapsulint.kapsule.helm import _files_read_by as files_read_by, releases

        readers: dict[str, list[ResourceInstance]] = {}
        try:
            found = releases(project)
        except Exception:  # noqa: BLE001 - each rule asking for the releases reports the failure
            return readers
        for release in found:
            try:
                paths = sorted(files_read_by(release.instance))
            except Exception:  # noqa: BLE001 - as above, for one release
                continue
            for path in paths:
                readers.setdefault(os.path.normpath(path), []).append(release.instance)
        return readers

    return project.memo("readers.values", collect)


def why_read(project: Project, path: str, values_globs: list[str]) -> str:
    """Why the scan read ``path``: its module's place, or what named it as a values file."""
    from kapsulint.discovery import VALUES_PATTERNS, matching_glob

    source = project.files[path]
    relative = os.path.relpath  # as the paths of --show-files: from the working directory
    if source.kind == "values":
        reasons = []
        name = os.path.basename(path)
        named = [p for p in VALUES_PATTERNS if fnmatch.fnmatchcase(name, p)]
        if named:
            reasons.append(f"named {named[0]}")
        glob = matching_glob(path, project.root, tuple(values_globs))
        if glob is not None:
            reasons.append(f"values-files {glob}")
        for release in values_readers(project).get(path, []):
            loc = release.block.loc
            reasons.append(f"read by {release.address} ({relative(loc.path)}:{loc.line})")
        return ", ".join(reasons) or "values file"
    directory = os.path.dirname(path)
    module = project.modules.get(directory)
    if source.kind == "tfvars":
        return f"variables of {relative(directory)}"
    if source.kind == "lock":
        return f"provider versions of {relative(directory)}"
    if module is None:
        return source.kind
    if module.downloaded is not None:
        return f"module downloaded for {relative(module.downloaded[0])} ({module.downloaded[1]})"
    if module.callers:
        call = module.callers[0].block.loc
        return f"module called from {relative(call.path)}:{call.line}"
    return "root module" if module.root else "module"


def add_read_values_files(project: Project) -> None:
    """Read the YAML files releases read as values files, whatever their names."""
    project.add_values_files([p for p in values_readers(project) if p.endswith((".yaml", ".yml"))])
