"""``--show-files``: every file the scan read, its kind and state, and why it was read; which
engine read each root module; and what was not read: files a module's engine leaves out, variables
files Terraform does not load by itself, module calls whose source was not read."""

from __future__ import annotations

import fnmatch
import os

from kapsulint.boundary import OUTSIDE
from kapsulint.kapsule.values_readers import gitops_readers
from kapsulint.model import engines
from kapsulint.model.project import Project
from kapsulint.model.variables import auto_loaded
from kapsulint.parsing.sources import SourceFile
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
        reasons.extend(f"read by {reader}" for reader in gitops_readers(project, path))
        return ", ".join(reasons) or "values file"
    if source.kind == "documents":
        return f"its content: {project.yaml_reasons.get(path, 'YAML documents')}"
    directory = os.path.dirname(path)
    module = project.modules.get(directory)
    if source.kind == "tfvars":
        if path in project.options.var_files:
            return "variables of the root modules (named with --var-file or var-files)"
        if not auto_loaded(path):
            return "not loaded (name it with --var-file)"
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


def engine_lines(project: Project, origin: str, cwd: str) -> list[str]:
    """``# engine: DIR read as OpenTofu (why)`` for each module evaluated on its own (a root
    module, a module no one calls), whose calls are read the same way; one line when the same
    setting, or the want of any sign of OpenTofu, decided for all of them."""
    tops = [(path, project.engines[path]) for path in sorted(project.modules)
            if project.modules[path].files and not project.modules[path].callers and path in project.engines]
    forced = bool(tops) and tops[0][1].reason.startswith("engine =")
    if tops and (forced or tops[0][1] == engines.DEFAULT) and all(choice == tops[0][1] for _, choice in tops):
        choice = tops[0][1]
        reason = f"{choice.reason}, {origin}" if forced else choice.reason
        return [f"# engine: {engines.NAMES[choice.engine]} for every module ({reason})"]
    return [f"# engine: {os.path.relpath(path, cwd)} read as {engines.NAMES[choice.engine]} ({_why(choice, cwd)})"
            for path, choice in tops]


def _why(choice: engines.Choice, cwd: str) -> str:
    return choice.reason if choice.tree is None else f"{choice.reason} {os.path.relpath(choice.tree, cwd)}"


def engine_left_out(project: Project, cwd: str) -> list[str]:
    """A line for each configuration file its module's engine does not read: a ``.tf`` file a
    ``.tofu`` twin replaces under OpenTofu, a ``.tofu`` file Terraform ignores."""
    lines = []
    for left_out in sorted(project.not_read):
        where = os.path.relpath(left_out.path, cwd)
        if left_out.replaced_by is not None:
            lines.append(f"# shadowed: {where} (replaced by {os.path.basename(left_out.replaced_by)} under OpenTofu)")
        else:
            lines.append(f"# not read: {where} (Terraform ignores .tofu files; --engine opentofu reads it)")
    return lines


def not_read(project: Project, cwd: str) -> list[str]:
    """What the scan did not read, one ``#`` line each: links it did not follow, files that are not
    regular ones, and module calls whose module it did not read, with the model's reason (the one
    KAP011 gives)."""
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
