"""Helm releases: which controller they install, their effective values, and their cluster.

Effective values follow the Helm provider: the ``values`` documents merged in order (maps
merge deeply, a null deletes a key), then ``set``/``set_list``/``set_sensitive`` entries. Helm
provider v2 writes ``set`` as blocks, an unordered set: two entries for one name give Unknown.
v3 writes them as an ordered list. Sources: https://github.com/hashicorp/terraform-provider-helm/blob/v3.1.2/helm/resource_helm_release.go, https://helm.sh/docs/chart_template_guide/values_files/.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property

from kapsulint.api import (
    UNKNOWN,
    Loc,
    Project,
    ResourceInstance,
    Val,
    decode_located,
    provider_config,
)
from kapsulint.kapsule import chart_versions, strvals
from kapsulint.kapsule.charts import Chart, registry
from kapsulint.kapsule.clusters import Cluster, cluster_of, clusters
from kapsulint.kapsule.gitops import releases as gitops_releases
from kapsulint.kapsule.helm_values import apply_set, merge

RELEASE = "helm_release"
VALUES_FILE = "values file"
_KUBERNETES_ARGS = ("host", "token", "cluster_ca_certificate", "config_path", "client_certificate", "client_key")


class Release:
    instance: ResourceInstance
    project: Project

    def __init__(self, instance: ResourceInstance, project: Project) -> None:
        self.instance = instance
        self.project = project

    @property
    def chart(self) -> Val:
        return self.instance.arg("chart")

    @cached_property  # asked by rule after rule, of the same release object (see releases())
    def controller(self) -> Chart | None:
        chart, repository = self.chart, self.instance.arg("repository")
        if not chart.known or chart.text() is None:
            return None
        return registry.controller_for_chart(chart.text(), repository.text() if repository.known else None)

    @property
    def chart_version(self) -> chart_versions.ChartVersion | None:
        """The chart ``version`` as Helm reads it (one version, or a range); None when absent,
        Unknown, or a text Helm refuses."""
        if not hasattr(self, "_chart_version"):
            version = self.instance.arg("version")
            text = version.text() if version.known and version.raw is not None else None
            self._chart_version = chart_versions.parse(text) if text is not None else None
        return self._chart_version

    @property
    def header(self) -> Loc:
        return self.instance.block.loc

    def values(self) -> Val:
        """The effective values of this release (an open object when a source is Unknown)."""
        cached = getattr(self, "_values", None)
        if cached is None:
            cached = effective_values(self.instance, self.project)
            self._values = cached
        return cached

    def cluster(self) -> Cluster | None:
        """The cluster this release installs into: its helm provider's connection, else the only
        cluster of its root module tree (the root and the modules it calls). A cluster of another
        root module is another ``terraform apply``: a release there is never linked to it."""
        if "_cluster" not in self.__dict__:
            self.__dict__["_cluster"] = self._find_cluster()
        cluster: Cluster | None = self.__dict__["_cluster"]
        return cluster

    def _find_cluster(self) -> Cluster | None:
        instance = self.instance
        alias = instance.provider_alias
        found = provider_config(instance.module, "helm", alias)
        if found is not None:
            module, block = found
            values: list[Val] = []
            for kubernetes in block.children("kubernetes"):
                values.extend(module.eval_attr(kubernetes, name) for name in _KUBERNETES_ARGS)
            attribute = module.eval_attr(block, "kubernetes")
            values.extend(attribute.get(name) for name in _KUBERNETES_ARGS if attribute.is_object)
            for value in values:
                linked = cluster_of(value)
                if linked is not None:
                    return Cluster(linked)
        every = clusters_by_root(self.project).get(id(instance.module.root), [])
        return every[0] if len(every) == 1 else None


class ValuesSubject:
    """What a values rule judges: a release's effective values (a ``helm_release``, an Argo CD
    Application's chart source, a Flux HelmRelease, a helmfile release), or a standalone values
    file. ``source`` says which (``"helm_release"``, ``"values file"``, or the tool's release,
    ``gitops.release.ARGOCD``...); ``release`` is the ``helm_release`` (None for the others), and
    ``chart_version`` and :meth:`cluster` answer for every kind."""

    values: Val
    controller: Chart | None
    anchor: Loc  # the release header or object's first line, or the values file's first line
    name: str  # "helm_release.ingress", "HelmRelease ingress/web", or the file's project-relative path
    release: Release | None
    instance_address: str | None
    source: str
    _chart_version: chart_versions.ChartVersion | None

    def __init__(
        self,
        values: Val,
        controller: Chart | None,
        anchor: Loc,
        name: str,
        release: Release | None = None,
        instance_address: str | None = None,
        source: str | None = None,
        chart_version: chart_versions.ChartVersion | None = None,
    ) -> None:
        self.values = values
        self.controller = controller
        self.anchor = anchor
        self.name = name
        self.release = release
        self.instance_address = instance_address
        self.source = source if source is not None else (RELEASE if release is not None else VALUES_FILE)
        self._chart_version = chart_version

    @property
    def chart_version(self) -> chart_versions.ChartVersion | None:
        """The chart version the release pins (one version or a range); None for a values file,
        or when absent, Unknown or refused."""
        return self.release.chart_version if self.release is not None else self._chart_version

    def cluster(self) -> Cluster | None:
        """The cluster the values are installed into, when the repository ties it unambiguously:
        a ``helm_release``'s (:meth:`Release.cluster`); never a values file's or a GitOps
        release's, which name no ``scaleway_k8s_cluster`` of the scan."""
        return self.release.cluster() if self.release is not None else None


def clusters_by_root(project: Project) -> dict[int, list[Cluster]]:
    """The clusters that exist (no ``written``-only block) in each root module instance's tree,
    keyed by the id of that root instance, computed once."""

    def collect() -> dict[int, list[Cluster]]:
        grouped: dict[int, list[Cluster]] = {}
        for cluster in clusters(project):
            if not cluster.instance.written:
                grouped.setdefault(id(cluster.instance.module.root), []).append(cluster)
        return grouped

    return project.memo("kapsule.clusters-by-root", collect)


def releases(project: Project) -> list[Release]:
    """Every helm_release instance (the same objects for every rule: values are computed once)."""
    return project.memo("kapsule.releases", lambda: [Release(i, project) for i in project.resources(RELEASE)])


def values_subjects(project: Project) -> list[ValuesSubject]:
    """Every release (whatever it installs): ``helm_release``s, then the releases of Argo CD, Flux
    and helmfile written in the repository (:mod:`kapsulint.kapsule.gitops`), and every standalone
    values file none of them reads."""
    return project.memo("kapsule.values-subjects", lambda: list(_values_subjects(project)))


def _values_subjects(project: Project) -> Iterator[ValuesSubject]:
    referenced: set[str] = set()
    for release in releases(project):
        values = release.values()
        referenced.update(_files_of(values))
        referenced.update(files_read_by(release.instance))
        yield ValuesSubject(values, release.controller, release.header, release.instance.resource.address,
                            release, release.instance.address)
    gitops = gitops_releases.found(project)
    referenced.update(gitops.files)
    for gitops_release in gitops.releases:
        yield ValuesSubject(gitops_release.values, gitops_release.controller, gitops_release.anchor,
                            gitops_release.name, source=gitops_release.tool,
                            chart_version=gitops_release.chart_version)
    for values_file in project.values_files:
        value = values_file.value() if values_file.path not in referenced else None
        if value is None or not value.is_object:
            continue
        plain = {k: v.plain() for k, v in value.items()}
        controller = registry.controller_from_values(plain)
        anchor = Loc(values_file.path, 1, 1, 1, 2)
        yield ValuesSubject(value, controller, anchor, project.relative(values_file.path))


def _files_of(value: Val) -> set[str]:
    files: set[str] = set()
    stack = [value]
    while stack:
        current = stack.pop()
        if current.loc is not None and current.loc.path.endswith((".yaml", ".yml")):
            files.add(current.loc.path)
        if isinstance(current.raw, dict):
            stack.extend(current.raw.values())
        elif isinstance(current.raw, list):
            stack.extend(current.raw)
    return files


def files_read_by(instance: ResourceInstance) -> set[str]:
    """The files a release's ``values`` documents are read from (``file()``, ``templatefile()``),
    even when a later Unknown document leaves the merged values without their locations."""
    files: set[str] = set()
    values = instance.arg("values")
    for item in values.elements() if values.known else ():
        if item.origin is not None:
            files.add(item.origin[0])
        if item.encoded is not None:
            files.update(_files_of(item.encoded))
    return files


# -- effective values ---------------------------------------------------------------------------


def effective_values(instance: ResourceInstance, project: Project) -> Val:
    merged = Val({}, instance.block.loc, keylocs={})
    for document in _documents(instance, project):
        merged = merge(merged, document)
        if document.sensitive:  # a sensitive document's keys and values are all sensitive
            merged = merged.with_sensitive()
    for entry_kind in ("set", "set_list", "set_sensitive"):
        entries, ordered = _set_entries(instance, entry_kind)
        if not ordered:
            names = [name.text() for name, _, _ in entries if name.known]
            duplicated = {n for n in names if names.count(n) > 1}
        else:
            duplicated = set()
        for name, value, kind in entries:
            if not name.known or name.text() is None:
                merged = Val(merged.raw, merged.loc, keylocs=merged.keylocs, open=True)
                continue
            if name.text() in duplicated:
                value = Val(UNKNOWN, value.loc)
            if entry_kind == "set_sensitive":  # the provider marks these values sensitive
                value = value.with_sensitive()  # (set_sensitive_values tells the reports)
            merged = _apply_entry(merged, name.text() or "", value, kind, entry_kind, name.loc)  # a known text
    return merged


def set_sensitive_values(project: Project) -> list[Val]:
    """The value of every ``set_sensitive`` entry of every release instance (the helm provider
    marks them sensitive), and every value a GitOps release reads from a Secret: no report prints
    them, whichever rules read them."""
    found: list[Val] = []
    try:
        instances = [release.instance for release in releases(project)]
    except Exception:
        return found
    for instance in instances:
        try:
            entries, _ = _set_entries(instance, "set_sensitive")
        except Exception:
            continue
        found.extend(value for _, value, _ in entries)
    try:
        gitops = gitops_releases.releases(project)
    except Exception:
        return found
    for gitops_release in gitops:  # values a Flux HelmRelease reads from a Secret
        found.extend(_sensitive_scalars(gitops_release.values))
    return found


def _sensitive_scalars(value: Val) -> list[Val]:
    """The sensitive scalars of a values tree (its keys are not secrets: they stay printable)."""
    found: list[Val] = []
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node.raw, dict):
            stack.extend(node.raw.values())
        elif isinstance(node.raw, list):
            stack.extend(node.raw)
        elif node.sensitive and node.known:
            found.append(node)
    return found


def _documents(instance: ResourceInstance, project: Project) -> Iterator[Val]:
    values = instance.arg("values")
    if values.raw is None:
        return
    if not values.known:
        yield Val(UNKNOWN, values.loc)
        return
    for item in values.elements():
        if item.encoded is not None:
            yield item.encoded
        elif not item.known:
            yield Val(UNKNOWN, item.loc)
        elif isinstance(item.raw, str):
            # nodes without a location stay without one (decode_located places them at loc)
            decoded = decode_located(item.raw, item.origin, item.loc, project)  # type: ignore[arg-type]
            if decoded is None:
                yield Val(UNKNOWN, item.loc)
            elif decoded.is_object:
                yield decoded.with_sensitive() if item.sensitive else decoded
            elif decoded.raw is not None:
                yield Val(UNKNOWN, item.loc)


def _set_entries(instance: ResourceInstance, kind: str) -> tuple[list[tuple[Val, Val, str | None]], bool]:
    """(name, value, type) of each entry, and whether the entries are ordered (v3 lists)."""
    entries: list[tuple[Val, Val, str | None]] = []
    for block in instance.nested(kind):
        name, value, entry_type = (instance.eval_in(block, key) for key in ("name", "value", "type"))
        entries.append((name, value, entry_type.text() if entry_type.known and entry_type.raw else "auto"))
    listed = instance.arg(kind)
    if listed.known:
        for item in listed.elements():
            entry_type = item.get("type")
            entries.append((item.get("name"), item.get("value"),
                            entry_type.text() if entry_type.known and entry_type.raw else "auto"))
        return entries, not instance.nested(kind)
    return entries + [(Val(UNKNOWN), Val(UNKNOWN), "auto")], False


def _apply_entry(merged: Val, name: str, value: Val, kind: str | None, entry_kind: str, name_loc: Loc | None) -> Val:
    """``merged`` with one set entry applied as Helm's strvals reads it (kapsule.strvals).

    A line strvals refuses fails the plan: the values are open (Unknown) from there. An Unknown
    value and a ``literal`` one (read as YAML by the provider, not by strvals) are set as they
    are, at the path the name gives.
    """
    opened = Val(merged.raw, merged.loc, keylocs=merged.keylocs, open=True)
    text = _entry_text(value, entry_kind)
    if text is None or kind == "literal":
        named = strvals.parse(f"{name}=")
        if named is None or len(named) != 1:
            return opened
        return apply_set(merged, named[0].path, value, name_loc)
    assignments = strvals.parse(f"{name}={text}", as_string=kind == "string")
    if assignments is None:
        return opened
    for assignment in assignments:
        merged = apply_set(merged, assignment.path, _located(assignment.value, text, value, entry_kind), name_loc)
    return merged


def _entry_text(value: Val, entry_kind: str) -> str | None:
    """What the provider writes after ``name=``: the value, or a ``set_list``'s items joined into
    ``{a,b}`` (null items left out); None when that is not known."""
    if not value.known:
        return None
    if entry_kind != "set_list":
        return value.text()
    if not value.is_list:
        return None
    items = [item for item in value.elements() if item.raw is not None]
    texts = [item.text() if item.known else None for item in items]
    known = [text for text in texts if text is not None]
    if len(known) != len(texts):
        return None
    return "{" + ",".join(known) + "}"


def _located(read: object, text: str, value: Val, entry_kind: str) -> Val:
    """A value strvals read, located where the entry's value is written (a ``set_list``'s items
    each at its own item when they map one to one)."""
    if read == text and isinstance(read, str):
        return value
    if isinstance(read, list):
        written = [i for i in value.elements() if i.raw is not None] if entry_kind == "set_list" else []
        locs = [i.loc for i in written] if len(written) == len(read) else [value.loc] * len(read)
        located = Val([Val(item, loc) for item, loc in zip(read, locs)], value.loc)
    else:
        located = Val(read, value.loc)
    # read from the text of every item: any sensitive part makes all of it sensitive
    return located.with_sensitive() if value.contains_sensitive() else located
