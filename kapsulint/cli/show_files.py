"""``--show-files``: every file the scan read, its kind and state, and why it was read."""

from __future__ import annotations

import fnmatch
import os

from kapsulint.boundary import OUTSIDE
from kapsulint.parsing.sources import SourceFile
from kapsulint.model.project import Project
from kapsulint.scan.discovery import VALUES_PATTERNS, matching_glob


def file_state(project: Project, source: SourceFile) -> str:
    """``ok``, ``error``, ``skipped``, or for a values file with template expressions ``ok
    (template expressions read as unknown)``, ``left out (...: line N)``, or ``rendered by
    templatefile() (...)`` for a Terraform template whose rendering is judged instead."""
    if source.error:
        return "error"
    if source.skipped:
        return "skipped"
    if source.left_out is not None:
        line, syntax = source.left_out[1], source.left_out[4]
        if syntax == "terraform" and project.rendered_by_terraform(source.path):
            return f"rendered by templatefile() (not YAML before it is rendered: line {line})"
        return f"left out (not YAML once its template expressions are seen: line {line})"
    if source.templated:
        return "ok (template expressions read as unknown)"
    return "ok"


def why_read(project: Project, path: str) -> str:
    """Why the scan read ``path``: its module's place, or what named it as a values file."""
    source = project.files[path]
    relative = os.path.relpath  # as the paths of --show-files: from the working directory
    if source.kind == "values":
        reasons = []
        name = os.path.basename(path)
        named = [p for p in VALUES_PATTERNS if fnmatch.fnmatchcase(name, p)]
        if named:
            reasons.append(f"named {named[0]}")
        glob = matching_glob(path, project.root, tuple(project.options.values_globs))
        if glob is not None:
            reasons.append(f"values-files {glob}")
        for release in project.values_readers().get(path, []):
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


def not_read(project: Project, cwd: str) -> list[str]:
    """What the scan did not read, one ``#`` line each: links it did not follow, files that are not
    regular ones, and module calls whose source it did not read."""
    lines = []
    for item in project.not_followed:
        path = os.path.relpath(item.path, cwd)
        why = "outside the repository" if item.reason == OUTSIDE else f"it {item.reason}"
        if item.target is not None:
            lines.append(f"# not followed: {path} -> {item.target} ({why})")
        else:
            lines.append(f"# not read: {path} ({why})")
    for unread in project.unread_calls:
        loc = unread.call.block.loc
        lines.append(f'# not read: module "{unread.call.name}" ({os.path.relpath(loc.path, cwd)}:{loc.line}): '
                     f"{unread.why}")
    return lines
