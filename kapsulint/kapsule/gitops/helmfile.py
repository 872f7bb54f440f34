"""helmfile releases (``helmfile.yaml``, ``helmfile.d/*.yaml``, helmfile v1's
``helmfile.yaml.gotmpl``: a document with ``releases``).

Each entry of ``releases`` installs ``chart`` (``alias/name`` of a ``repositories`` entry's
``url``, an ``oci://`` reference, or a local path) at ``version``. Its values, in order: each item
of ``values`` (a file path relative to the helmfile's directory, or an inline map), then each
``set`` entry (``name`` and ``value``, escaped by helmfile and read as ``helm --set`` reads them;
``file`` and ``values`` too); a release with ``installed: false`` is not installed
(https://helmfile.readthedocs.io/en/latest/#configuration). A values file ending in ``.gotmpl`` is
a template helmfile renders: it is read with its template expressions Unknown
(https://helmfile.readthedocs.io/en/latest/templating/). A helmfile is a Go template itself only
when it holds ``{{``: such expressions are Unknown where they stand, and a file whose template
actions change its YAML structure is not read (KAP019 at that action). A values file that is
not read (missing, outside the repository, not YAML) is a blind spot (KAP019) at the item naming
it, and so is a values item whose file name is a template expression (``{{ .Environment.Name
}}.yaml``: which file depends on the environment helmfile is run with). ``environments`` give the
values templates read (``.Values``, ``.Environment``): an expression reading them is Unknown where
it stands, so no rule fires on it. ``bases`` are helmfiles merged under this one
(https://helmfile.readthedocs.io/en/latest/#layering-release-values): they are not read, and each
is a blind spot (KAP019) at its entry, since a base may add releases, repositories and values. A
helmfile names no cluster kapsulint can tie to a ``scaleway_k8s_cluster`` (its
``kubeContext`` is the user's kubeconfig).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from kapsulint.api import UNKNOWN, Loc, Project, Val
from kapsulint.kapsule import yaml_kinds
from kapsulint.kapsule.gitops import reading
from kapsulint.kapsule.gitops.release import HELMFILE, GitopsRelease, Unread, Version
from kapsulint.kapsule.helm_values import merge, set_line


def releases(project: Project, unread: list[Unread]) -> Iterator[GitopsRelease]:
    for documents in project.yaml_documents:
        if not documents.reason.startswith(yaml_kinds.HELMFILE):
            continue
        shown = project.relative(documents.path)
        parsed = documents.documents()
        left_out = documents.source.left_out
        if not parsed and left_out is not None:  # a parse error is KAP001's
            why, line, column, end_column, _ = left_out
            unread.append(Unread(Loc(documents.path, line, column, line, end_column),
                                 f"helmfile {shown} not read: it is not YAML once its template expressions are seen "
                                 f"({why}), so none of its releases is judged", shown))
            continue
        repositories = _repositories(parsed)
        directory = os.path.dirname(documents.path)
        for document in parsed:
            if not document.known or not document.is_object:
                continue
            _bases(document, shown, unread)
            listed = document.get("releases")
            for entry in listed.elements() if listed.known and listed.is_list else ():
                if entry.known and entry.is_object and not entry.get("installed").is_false():
                    yield _release(project, entry, shown, directory, repositories, unread)


def _bases(document: Val, shown: str, unread: list[Unread]) -> None:
    """Each ``bases`` entry: a helmfile merged under this one, not read."""
    listed = document.get("bases")
    if listed.raw is None:
        return
    entries = listed.elements() if listed.known and listed.is_list else [listed]
    for entry in entries:
        written = reading.text(entry)
        loc = entry.loc or listed.loc or document.key_loc("bases") or document.loc or Loc("?", 1, 1, 1, 2)
        named = f"base {written}" if written else "a base"
        unread.append(Unread(loc, f"helmfile {named} not read: the releases, repositories and values it merges "
                                  "under this helmfile are not judged", shown))


def _repositories(documents: list[Val]) -> dict[str, str]:
    found: dict[str, str] = {}
    for document in documents:
        listed = document.get("repositories") if document.is_object else Val(None)
        for entry in listed.elements() if listed.known and listed.is_list else ():
            name, url = reading.text(entry.get("name")), reading.text(entry.get("url"))
            if name and url:
                found[name] = url
    return found


def _release(project: Project, entry: Val, shown: str, directory: str, repositories: dict[str, str],
             unread: list[Unread]) -> GitopsRelease:
    name = reading.text(entry.get("name")) or "?"
    label = f"{shown} release {name}"
    anchor = entry.loc or Loc("?", 1, 1, 1, 2)
    chart = reading.text(entry.get("chart"))
    repository = None
    if chart and "://" not in chart and "/" in chart:
        repository = repositories.get(chart.split("/", 1)[0])
    version = entry.get("version")
    files: set[str] = set()
    merged = Val({}, anchor, keylocs={})
    listed = entry.get("values")
    if listed.raw is not None and not (listed.known and listed.is_list):
        merged = reading.open_values(anchor)
    for item in listed.elements() if listed.known and listed.is_list else ():
        merged = _values_item(project, item, directory, label, files, unread, merged)
    entries = entry.get("set")
    if entries.raw is not None and not (entries.known and entries.is_list):
        merged = reading.open_values(anchor)
    for item in entries.elements() if entries.known and entries.is_list else ():
        merged = _set_entry(merged, item)
    from_repository = repository is not None or (chart or "").lower().startswith("oci://")
    # without a version, helm installs the repository's newest chart
    return GitopsRelease(HELMFILE, label, chart, repository, Version(version, True), from_repository, merged,
                         anchor, frozenset(files))


def _escaped(text: str) -> str:
    """A ``set`` name or value as helmfile writes it after ``--set``: ``{``, ``}`` and ``,``
    escaped, so it is one string (``escape`` in helmfile's ``pkg/state/state.go``,
    https://github.com/helmfile/helmfile/blob/main/pkg/state/state.go)."""
    return text.replace("{", "\\{").replace("}", "\\}").replace(",", "\\,")


def _set_entry(merged: Val, item: Val) -> Val:
    """One ``set`` entry: ``value`` (``--set``; an empty one sets nothing), else ``file``
    (``--set-file``: its content is not read, Unknown), else ``values`` (``--set name={a,b}``)."""
    name = item.get("name")
    key = reading.text(name)
    if not item.known or not item.is_object or key is None:
        return reading.open_values(merged.loc)
    value = item.get("value")
    key = _escaped(key)
    if not value.known:
        return set_line(merged, key, value, name_loc=name.loc)
    written = reading.scalar_text(value)
    if written:
        escaped = _escaped(written)
        return set_line(merged, key, value if escaped == written else Val(escaped, value.loc), name_loc=name.loc)
    if item.get("file").raw is not None:
        return set_line(merged, key, Val(UNKNOWN, item.get("file").loc), name_loc=name.loc)
    listed = item.get("values")
    if listed.raw is None:
        return merged
    texts = [reading.scalar_text(v) for v in listed.elements()] if listed.known and listed.is_list else [None]
    if None in texts:
        return set_line(merged, key, Val(UNKNOWN, listed.loc), name_loc=name.loc)
    joined = ",".join(_escaped(t) for t in texts if t is not None)
    return set_line(merged, key, Val("{" + joined + "}", listed.loc), name_loc=name.loc)


def _values_item(project: Project, item: Val, directory: str, label: str, files: set[str], unread: list[Unread],
                 merged: Val) -> Val:
    if not item.known:
        if item.loc is not None and getattr(item.type, "name", None) == "string":  # a file name, not a map
            unread.append(Unread(item.loc, "values file named by a template expression not read: which file "
                                           "depends on the environment helmfile runs with", label))
        return reading.open_values(merged.loc)
    if item.is_object:
        return merge(merged, item)
    written = reading.text(item)
    if written is None:
        return merged if item.raw is None else reading.open_values(merged.loc)
    loc = item.loc or merged.loc or Loc("?", 1, 1, 1, 2)
    if "://" in written:
        unread.append(Unread(loc, f"values file {written} not read: a remote file is not read", label))
        return reading.open_values(merged.loc)
    path = reading.joined(directory, written)
    found = reading.values_file(project, path)
    if found.regular:
        files.add(path)
    if found.value is None:
        unread.append(Unread(loc, f"values file {written} not read: {found.why}", label))
        return reading.open_values(merged.loc)
    return merge(merged, found.value)
