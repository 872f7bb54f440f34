"""Argo CD ``Application``s (``argoproj.io/v1alpha1``) that install a Helm chart.

A chart source is a ``spec.source``, or each of ``spec.sources`` (which replaces ``source`` when
set), with ``chart`` (a chart of the Helm repository ``repoURL``, whose version is
``targetRevision``), or with a ``path`` holding a chart in a Git repository (``helm`` options, or a
``Chart.yaml`` there). Its values, lowest precedence first, as Argo CD's documentation orders them
("parameters > valuesObject > values > valueFiles > helm repository values.yaml",
https://argo-cd.readthedocs.io/en/stable/user-guide/helm/#helm-value-precedence):

* ``helm.valueFiles``, in order: relative to the source's ``path`` in the repository, or
  ``$name/file`` relative to the top of the source whose ``ref`` is ``name``
  (https://argo-cd.readthedocs.io/en/stable/user-guide/multiple_sources/#helm-value-files-from-external-git-repository);
  a file of a repository that is not this one, or inside the chart's package, is not read (KAP019);
  ``ignoreMissingValueFiles`` skips a file that does not exist;
* ``helm.valuesObject``, else ``helm.values`` (a YAML string): Argo CD passes one of them, the
  object when both are set (``ApplicationSourceHelm.ValuesYAML``,
  https://github.com/argoproj/argo-cd/blob/v3.1.0/pkg/apis/application/v1alpha1/types.go);
* ``helm.parameters``: ``--set name=value``, then ``--set-string`` for those with
  ``forceString``, a value's commas escaped (one string, unless written ``{a,b}``); then
  ``helm.fileParameters`` (``--set-file``), whose file is not read: Unknown.

An ``ApplicationSet`` (same group) makes Applications from ``spec.template``, an Application's
``metadata`` and ``spec`` whose strings may hold ``{{...}}`` parameters its generators fill in
(https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Template/): the template
is read as one Application with every string that holds a parameter Unknown (a key that holds one
leaves its map open), except a ``helm.values`` string, read as a values file is with its template
expressions Unknown. A ``templatePatch`` may change any field of the Applications, so an
ApplicationSet with one is not judged (KAP019 at the patch), and neither is one whose template is
not a map.

A repository URL is this repository when the repository's Git remotes name it, or when nothing
says (no remote is known): the files are then read relative to the repository's top. The
Application names no cluster kapsulint can tie to a ``scaleway_k8s_cluster``: its ``destination``
is a cluster registered in Argo CD.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

from kapsulint.api import UNKNOWN, Loc, Project, Val
from kapsulint.kapsule.gitops import reading
from kapsulint.kapsule.gitops.release import ARGOCD, GitopsRelease, Unread, Version
from kapsulint.kapsule.helm_values import merge, set_line
from kapsulint.text import lazy_pattern

GROUP = "argoproj.io"
KIND = "Application"
APPLICATION_SET = "ApplicationSet"
_PARAMETER = "{{"
_REMOTE_URL = lazy_pattern(r"^\s*url\s*=\s*(\S+)\s*$", re.MULTILINE)


def releases(project: Project, unread: list[Unread]) -> Iterator[GitopsRelease]:
    for application in reading.of_kind(project, GROUP, KIND):
        yield from _application(project, application, unread)
    for application_set in reading.of_kind(project, GROUP, APPLICATION_SET):
        yield from _application_set(project, application_set, unread)


def _label(application: Val, kind: str = KIND) -> str:
    metadata = application.get("metadata")
    name = reading.text(metadata.get("name")) or "?"
    namespace = reading.text(metadata.get("namespace"))
    return f"{kind} {namespace}/{name}" if namespace else f"{kind} {name}"


def _application_set(project: Project, application_set: Val, unread: list[Unread]) -> Iterator[GitopsRelease]:
    """The template of an ApplicationSet, read as one Application with its parameters Unknown."""
    spec = application_set.get("spec")
    if not spec.known or not spec.is_object:
        return
    label = f"{_label(application_set, APPLICATION_SET)} template"
    patch = spec.get("templatePatch")
    if patch.raw is not None:
        loc = spec.key_loc("templatePatch") or application_set.loc or Loc("?", 1, 1, 1, 2)
        unread.append(Unread(loc, "templatePatch not read: it may change any field of the Applications, their "
                                  "Helm values included, so the template is not judged", label))
        return
    template = spec.get("template")
    if not template.known or not template.is_object or template.open:
        return
    application = _parameters_unknown(template, ())
    anchor = spec.key_loc("template") or template.loc or application_set.loc
    yield from _application(project, application.replaced(loc=anchor), unread, label=label)


def _parameters_unknown(value: Val, path: tuple[str, ...]) -> Val:
    """``value`` with every string holding a ``{{...}}`` parameter Unknown, and every map with
    such a key open, except a source's ``helm.values`` string (read with its template
    expressions Unknown)."""
    raw = value.raw
    if isinstance(raw, str):
        if _PARAMETER not in raw or path[-2:] == ("helm", "values"):
            return value
        return Val(UNKNOWN, value.loc)
    if isinstance(raw, list):
        return value.replaced(raw=[_parameters_unknown(item, (*path, "[]")) for item in raw])
    if isinstance(raw, dict):
        kept = {key: _parameters_unknown(item, (*path, key)) for key, item in raw.items() if _PARAMETER not in key}
        keylocs = {key: loc for key in kept if (loc := value.key_loc(key)) is not None}
        return value.replaced(raw=kept, keylocs=keylocs, open=value.open or len(kept) != len(raw))
    return value


def _application(project: Project, application: Val, unread: list[Unread],
                 label: str | None = None) -> Iterator[GitopsRelease]:
    spec = application.get("spec")
    listed = spec.get("sources")
    if listed.known and listed.is_list and listed.elements():
        sources = [s for s in listed.elements() if s.known and s.is_object]
        multiple = True
    else:
        single = spec.get("source")
        sources = [single] if single.known and single.is_object else []
        multiple = False
    refs = {name: source for source in sources if (name := reading.text(source.get("ref")))}
    label = label or _label(application)
    for index, source in enumerate(sources):
        chart = _chart_of(project, source)
        if chart is None:
            continue
        name = f"{label} sources[{index}]" if multiple and len(sources) > 1 else label
        anchor = (source.loc if multiple else application.loc) or Loc("?", 1, 1, 1, 2)
        files: set[str] = set()
        values = _values(project, source, chart, refs, name, files, unread, anchor)
        yield GitopsRelease(ARGOCD, name, chart.name, chart.repository, Version(chart.version, False),
                            chart.directory is None and chart.from_repository, values, anchor, frozenset(files))


class _Chart:
    """What a source installs: the chart's name, repository and version as written (null when
    absent), whether it is a chart of a Helm repository (``chart``), and the directory of the
    repository its value files are relative to (None when the chart is not in this repository)."""

    name: str | None
    repository: str | None
    version: Val
    from_repository: bool
    directory: str | None

    def __init__(self, name: str | None, repository: str | None, version: Val, from_repository: bool,
                 directory: str | None) -> None:
        self.name = name
        self.repository = repository
        self.version = version
        self.from_repository = from_repository
        self.directory = directory


def _chart_of(project: Project, source: Val) -> _Chart | None:
    repository = reading.text(source.get("repoURL"))
    chart = reading.text(source.get("chart"))
    if chart:
        return _Chart(chart, repository, source.get("targetRevision"), True, None)
    path = reading.text(source.get("path"))
    if path is None or (source.get("helm").raw is None and not _holds_chart(project, path)):
        return None
    directory = reading.joined(reading.repository_root(project), path) if this_repository(project, repository) \
        else None
    name, version = _chart_file(project, directory) if directory is not None else (None, Val(None))
    return _Chart(name or os.path.basename(os.path.normpath(path)), repository, version, False, directory)


def _holds_chart(project: Project, path: str) -> bool:
    chart_file = reading.joined(reading.joined(reading.repository_root(project), path), "Chart.yaml")
    return project.boundary.kind(chart_file) == "file"


def _chart_file(project: Project, directory: str) -> tuple[str | None, Val]:
    """The ``name`` and ``version`` of the chart's ``Chart.yaml``, when it is read."""
    found = reading.values_file(project, reading.joined(directory, "Chart.yaml"))
    if found.value is None or not found.value.is_object:
        return None, Val(None)
    return reading.text(found.value.get("name")), found.value.get("version")


def this_repository(project: Project, url: str | None) -> bool:
    """Whether ``url`` is this repository: one of its Git remotes, or any URL when no remote is
    known (nothing says it is another)."""
    remotes = project.memo("kapsule.gitops.remotes", lambda: _remotes(project))
    if not remotes or url is None:
        return True
    return _normalised(url) in remotes


def _remotes(project: Project) -> set[str]:
    config = os.path.join(reading.repository_root(project), ".git", "config")
    written = project.read_text(config) if project.boundary.kind(config) == "file" else None
    return {_normalised(url) for url in _REMOTE_URL.findall(written or "")}


def _normalised(url: str) -> str:
    """``git@github.com:o/r.git``, ``https://github.com/o/r`` and ``ssh://git@github.com/o/r``
    as one text: ``github.com/o/r``."""
    text = url.strip().lower()
    text = re.sub(r"^[a-z+]+://", "", text)
    text = re.sub(r"^[^@/]+@", "", text)
    text = text.replace(":", "/", 1) if "/" not in text.split(":", 1)[0] and ":" in text else text
    return text.removesuffix("/").removesuffix(".git")


def _values(project: Project, source: Val, chart: _Chart, refs: dict[str, Val], name: str, files: set[str],
            unread: list[Unread], anchor: Loc) -> Val:
    helm = source.get("helm")
    merged = Val({}, anchor, keylocs={})
    if not helm.known:
        return reading.open_values(anchor)
    if not helm.is_object:
        return merged
    ignore_missing = helm.get("ignoreMissingValueFiles").is_true()
    listed = helm.get("valueFiles")
    for item in listed.elements() if listed.known and listed.is_list else ():
        merged = _value_file(project, item, chart, refs, name, files, unread, merged, ignore_missing)
    document = helm.get("valuesObject")
    if document.raw is None:
        written = helm.get("values")
        if written.raw is not None:
            decoded = reading.yaml_string(project, written) if isinstance(written.raw, str) else None
            if decoded is None and not written.known:  # a block holding template expressions
                decoded = reading.templated_block(project, written)
            if written.known and decoded is None:
                unread.append(Unread(written.loc or anchor, "helm.values not read: it is not a YAML map of values",
                                     name))
            document = decoded if decoded is not None else reading.open_values(written.loc)
    if document.raw is not None:
        merged = merge(merged, document if document.is_object or not document.known else Val({}, document.loc))
    parameters = helm.get("parameters")
    if parameters.raw is not None and not (parameters.known and parameters.is_list):
        return reading.open_values(anchor)
    listed_parameters = parameters.elements() if parameters.known else []
    # every --set, then every --set-string (forceString), then every --set-file
    for as_string in (False, True):
        for parameter in listed_parameters:
            if parameter.known and parameter.is_object and parameter.get("forceString").is_true() != as_string:
                continue
            merged = _parameter(merged, parameter, as_string)
    files_set = helm.get("fileParameters")
    for parameter in files_set.elements() if files_set.known and files_set.is_list else ():
        key = reading.text(parameter.get("name"))  # a file's content: not read
        merged = set_line(merged, key, Val(UNKNOWN, parameter.loc)) if key else reading.open_values(merged.loc)
    return merged


def _parameter(merged: Val, parameter: Val, as_string: bool) -> Val:
    """One ``helm.parameters`` entry applied as Argo CD passes it: its value's commas escaped
    unless it is a ``{a,b}`` list (``cleanSetParameters``,
    https://github.com/argoproj/argo-cd/blob/v3.1.0/util/helm/cmd.go)."""
    name = parameter.get("name")
    key = reading.text(name)
    if key is None:
        return reading.open_values(merged.loc) if not parameter.known or name.raw is not None else merged
    value = parameter.get("value")
    written = reading.scalar_text(value)
    if written is not None and not (written.startswith("{") and written.endswith("}")):
        escaped = re.sub(r"(?<!\\),", r"\\,", written)
        if escaped != written:
            value = Val(escaped, value.loc)
    return set_line(merged, key, value, as_string=as_string, name_loc=name.loc)


def _value_file(project: Project, item: Val, chart: _Chart, refs: dict[str, Val], name: str, files: set[str],
                unread: list[Unread], merged: Val, ignore_missing: bool) -> Val:
    written = reading.text(item)
    loc = item.loc or merged.loc or Loc("?", 1, 1, 1, 2)
    if written is None:
        return reading.open_values(merged.loc)
    path, why = _value_file_path(project, written, chart, refs)
    if path is None:
        unread.append(Unread(loc, f"value file {written} not read: {why}", name))
        return reading.open_values(merged.loc)
    found = reading.values_file(project, path)
    if found.regular:
        files.add(path)
    if found.value is None:
        if ignore_missing and project.boundary.kind(path) == "missing":
            return merged
        unread.append(Unread(loc, f"value file {written} not read: {found.why}", name))
        return reading.open_values(merged.loc)
    return merge(merged, found.value)


def _value_file_path(project: Project, written: str, chart: _Chart, refs: dict[str, Val]) -> tuple[str | None, str]:
    """Where a value file is in this repository, or why it is not read."""
    if "://" in written:
        return None, "a URL is not read"
    if written.startswith("$"):
        ref, _, rest = written[1:].partition("/")
        source = refs.get(ref)
        if source is None:
            return None, f"no source of the Application has ref {ref}"
        if not this_repository(project, reading.text(source.get("repoURL"))):
            return None, "it is in another repository"
        return reading.joined(reading.repository_root(project), rest), ""
    if chart.directory is None:
        return None, "it is a file of the chart, which is not in this repository"
    return reading.joined(chart.directory, written), ""
