"""Reading what a GitOps release names: the objects of the repository's YAML, values written as
YAML text inside a YAML file, and values files, inside the repository boundary only."""

from __future__ import annotations

import os

from kapsulint.api import UNKNOWN, Loc, Project, Val, decode_located
from kapsulint.boundary import OUTSIDE
from kapsulint.text import lazy_pattern

_MAX_LIST_ITEMS = 10_000
_BLOCK_INDICATOR = lazy_pattern(r"\|[1-9]?[-+]?[1-9]?[ \t]*(?:#.*)?$")


def text(value: Val) -> str | None:
    """A known string's text; None for anything else."""
    return value.raw if value.known and isinstance(value.raw, str) else None


def scalar_text(value: Val) -> str | None:
    """A known scalar as the text a YAML reader gives a string field (``version: 1.2`` is
    ``"1.2"``); None for a structure, null or Unknown."""
    if not value.known or value.raw is None or value.is_object or value.is_list:
        return None
    return value.text()


def open_values(loc: Loc | None) -> Val:
    """Values with an unknown set of keys: what a source that was not read leaves."""
    return Val({}, loc, keylocs={}, open=True)


def objects(project: Project) -> list[Val]:
    """Every object of the YAML the scan read by content (a ``kind: List``'s items too), each
    located where it is written, computed once."""

    def collect() -> list[Val]:
        found: list[Val] = []
        for documents in project.yaml_documents:
            for document in documents.documents():
                if not document.known or not document.is_object:
                    continue
                if text(document.get("kind")) == "List":
                    found.extend(item for item in document.get("items").elements()[:_MAX_LIST_ITEMS]
                                 if item.known and item.is_object)
                else:
                    found.append(document)
        return found

    return project.memo("kapsule.gitops.objects", collect)


def of_kind(project: Project, group: str, kind: str) -> list[Val]:
    """The objects of ``kind`` whose ``apiVersion`` is in API group ``group`` (any version)."""
    return [o for o in objects(project)
            if text(o.get("kind")) == kind and (text(o.get("apiVersion")) or "").split("/")[0] == group]


def path_of(value: Val) -> str | None:
    return value.loc.path if value.loc is not None else None


def repository_root(project: Project) -> str:
    """The repository's top directory, spelled as the scan spells the project's paths."""
    root = str(project.root)
    relative = os.path.relpath(project.boundary.root, os.path.realpath(root))
    return os.path.normpath(os.path.join(root, relative))


def yaml_string(project: Project, value: Val) -> Val | None:
    """A YAML document written as a string (Argo CD's ``helm.values``, a ConfigMap's
    ``values.yaml``), as located values: inside a literal block scalar (``|``) every value keeps
    its line and column in the file; any other string places its values at the string. An empty
    string is an empty map; None when the text is not YAML."""
    written = text(value)
    if written is None:
        return None
    loc = value.loc or Loc("?", 1, 1, 1, 2)
    decoded = decode_located(written, _block_origin(project, value), loc, project)
    if decoded is None:
        return None
    return Val({}, loc, keylocs={}) if decoded.raw is None else decoded


def _block_origin(project: Project, value: Val) -> tuple[str, int, int] | None:
    """(path, line offset, column offset) of a literal block scalar's text in its file, when the
    file's lines are exactly the text indented (so each node maps to its own place)."""
    loc = value.loc
    written = text(value)
    if loc is None or written is None or not loc.path.endswith((".yaml", ".yml")):
        return None
    source = project.read_text(loc.path)
    if source is None:
        return None
    lines = source.split("\n")
    if loc.line > len(lines) or not _BLOCK_INDICATOR.match(lines[loc.line - 1][loc.column - 1:]):
        return None
    body = written.split("\n")
    if body and body[-1] == "":
        body.pop()
    following = lines[loc.line:loc.line + len(body)]
    first = next((line for line in following if line.strip()), None)
    if first is None or len(following) < len(body):
        return None
    indent = len(first) - len(first.lstrip(" "))
    for written_line, file_line in zip(body, following):
        if written_line == "" and not file_line.strip():
            continue
        if file_line != " " * indent + written_line:
            return None
    return loc.path, loc.line, indent


def templated_block(project: Project, value: Val) -> Val | None:
    """A literal block scalar (``|``) of a YAML file that the scan read as Unknown because it holds
    template expressions (an ApplicationSet's ``helm.values``), read again as a YAML document of
    its own with those expressions Unknown, each value at its place in the file; None when the
    value is not such a block, or its text is not YAML."""
    loc = value.loc
    if value.known or loc is None or not loc.path.endswith((".yaml", ".yml")):
        return None
    source = project.read_text(loc.path)
    if source is None:
        return None
    lines = source.split("\n")
    if loc.line > len(lines) or not _BLOCK_INDICATOR.match(lines[loc.line - 1][loc.column - 1:]):
        return None
    following = lines[loc.line:]
    first = next((line for line in following if line.strip()), None)
    if first is None:
        return None
    indent = len(first) - len(first.lstrip(" "))
    parent = len(lines[loc.line - 1]) - len(lines[loc.line - 1].lstrip(" "))
    if indent <= parent:
        return None
    body = []
    for line in following:
        if line.strip() and len(line) - len(line.lstrip(" ")) < indent:
            break
        body.append(line[indent:] if line.strip() else "")
    decoded = decode_located("\n".join(body) + "\n", (loc.path, loc.line, indent), loc, project)
    if decoded is None:
        return None
    return Val({}, loc, keylocs={}) if decoded.raw is None else decoded


class FileValues:
    """A values file read, or why it was not: ``value`` (None when not read) and ``why``;
    ``regular`` when it is a regular file inside the repository (read, or not YAML), which the
    scan then reads as a values file too (its parse error, its suppression comments)."""

    value: Val | None
    why: str
    regular: bool

    def __init__(self, value: Val | None, why: str = "", regular: bool = True) -> None:
        self.value = value
        self.why = why
        self.regular = regular


def values_file(project: Project, path: str) -> FileValues:
    """The first document of the values file at ``path`` as located values (an empty file is an
    empty map; template expressions are Unknown), or why it was not read: outside the
    repository, missing, not a regular file, too large, or not YAML."""
    kind = project.boundary.kind(path)
    shown = project.relative(path)
    if kind == "outside":
        return FileValues(None, f"{shown} {OUTSIDE}", False)
    if kind == "missing":
        return FileValues(None, f"{shown} does not exist", False)
    if kind != "file":
        return FileValues(None, f"{shown} is not a regular file", False)
    written = project.read_text(path)
    if written is None:
        return FileValues(None, f"{shown} cannot be read (or is above max-file-size)")
    decoded = decode_located(written, (path, 0, 0), Loc(path, 1, 1, 1, 2), project)
    if decoded is None:
        return FileValues(None, f"{shown} is not YAML (or not once its template expressions are seen)")
    if decoded.raw is None:
        return FileValues(Val({}, Loc(path, 1, 1, 1, 2), keylocs={}))
    if not decoded.known:
        return FileValues(Val(UNKNOWN, Loc(path, 1, 1, 1, 2)))
    if not decoded.is_object:
        return FileValues(None, f"{shown} does not hold a map of values")
    return FileValues(decoded)


def joined(directory: str, relative: str) -> str:
    return os.path.normpath(os.path.join(directory, relative))
