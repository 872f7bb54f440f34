"""Flux ``HelmRelease``s (``helm.toolkit.fluxcd.io``, v2 and v2beta1/v2beta2).

The chart is ``spec.chart.spec`` (``chart``, ``version``, ``sourceRef`` to a ``HelmRepository``
whose ``spec.url`` is the repository, or a ``GitRepository`` holding the chart at a path), or
``spec.chartRef`` to an ``OCIRepository`` (the chart's ``oci://`` URL, its version ``spec.ref.tag``
or ``semver``) or a ``HelmChart``; each source object is looked up among the repository's objects
by name, in the HelmRelease's namespace unless the reference names another.

Values: each ``spec.valuesFrom`` entry in order, then ``spec.values`` last
(https://fluxcd.io/flux/components/helm/helmreleases/#values-references). An entry names a
``ConfigMap`` or ``Secret`` of the HelmRelease's namespace and a key (``valuesKey``, by default
``values.yaml``) holding a YAML document merged over what came before, or, with ``targetPath``,
one value set at that path as ``--set`` sets it. The object is one of the repository's
(``data``, and a Secret's ``stringData`` over its base64 ``data``) or one a Kustomize generator
makes (:mod:`kapsulint.kapsule.gitops.kustomize`). An entry that cannot be read is skipped when
``optional``, else a blind spot (KAP019) at the entry, and the values stay open. Values read from
a Secret are sensitive. The HelmRelease names no cluster kapsulint can tie to a
``scaleway_k8s_cluster`` (Flux applies it to the cluster it runs in).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator

from kapsulint.api import UNKNOWN, Loc, Project, Val
from kapsulint.kapsule.gitops import kustomize, reading
from kapsulint.kapsule.gitops.release import FLUX, GitopsRelease, Unread, Version
from kapsulint.kapsule.helm_values import merge, set_line

GROUP = "helm.toolkit.fluxcd.io"
SOURCE_GROUP = "source.toolkit.fluxcd.io"
KIND = "HelmRelease"
DEFAULT_VALUES_KEY = "values.yaml"


def releases(project: Project, unread: list[Unread]) -> Iterator[GitopsRelease]:
    for release in reading.of_kind(project, GROUP, KIND):
        metadata = release.get("metadata")
        name = reading.text(metadata.get("name")) or "?"
        namespace = reading.text(metadata.get("namespace"))
        label = f"{KIND} {namespace}/{name}" if namespace else f"{KIND} {name}"
        anchor = release.loc or Loc("?", 1, 1, 1, 2)
        spec = release.get("spec")
        chart, repository, version, from_repository = _chart(project, spec, namespace)
        files: set[str] = set()
        values = _values(project, spec, namespace, label, files, unread, anchor)
        yield GitopsRelease(FLUX, label, chart, repository, version, from_repository, values, anchor,
                            frozenset(files))


def _source(project: Project, reference: Val, namespace: str | None) -> Val | None:
    """The source object a ``sourceRef``/``chartRef`` names, when exactly one matches."""
    kind = reading.text(reference.get("kind"))
    name = reading.text(reference.get("name"))
    if not kind or not name:
        return None
    wanted = reading.text(reference.get("namespace")) or namespace
    found = [o for o in reading.of_kind(project, SOURCE_GROUP, kind)
             if reading.text(o.get("metadata").get("name")) == name
             and _same_namespace(reading.text(o.get("metadata").get("namespace")), wanted)]
    return found[0] if len(found) == 1 else None


def _same_namespace(written: str | None, wanted: str | None) -> bool:
    """An object without a namespace may be applied to any (a Kustomization sets it)."""
    return written is None or wanted is None or written == wanted


def _chart(project: Project, spec: Val, namespace: str | None) -> tuple[str | None, str | None, Version, bool]:
    """(chart name or reference, repository URL, version, from a chart repository) as written."""
    template = spec.get("chart").get("spec")
    if template.known and template.is_object and template.raw:
        return _chart_template(project, template, namespace)
    reference = spec.get("chartRef")
    source = _source(project, reference, reading.text(reference.get("namespace")) or namespace)
    if source is None:
        return None, None, Version(Val(None), False), False
    kind = reading.text(source.get("kind"))
    if kind == "OCIRepository":
        url = reading.text(source.get("spec").get("url"))
        ref = source.get("spec").get("ref")
        # no tag nor semver: the registry's latest tag (https://fluxcd.io/flux/components/source/ocirepositories/#reference)
        version = ref.get("semver") if ref.get("semver").raw is not None else ref.get("tag")
        return url, None, Version(version, True), True
    return _chart_template(project, source.get("spec"), reading.text(source.get("metadata").get("namespace"))
                           or namespace)


def _chart_template(project: Project, template: Val, namespace: str | None) -> tuple[str | None, str | None,
                                                                                     Version, bool]:
    chart = reading.text(template.get("chart"))
    source = _source(project, template.get("sourceRef"), namespace)
    kind = reading.text(template.get("sourceRef").get("kind"))
    repository = None
    if source is not None and kind == "HelmRepository":
        repository = reading.text(source.get("spec").get("url"))
    # an absent version is "*", the newest (https://fluxcd.io/flux/components/helm/helmreleases/#chart-template);
    # a chart of a GitRepository or Bucket is a path, its version ignored
    return chart, repository, Version(template.get("version"), True), kind == "HelmRepository"


def _values(project: Project, spec: Val, namespace: str | None, label: str, files: set[str], unread: list[Unread],
            anchor: Loc) -> Val:
    merged = Val({}, anchor, keylocs={})
    listed = spec.get("valuesFrom")
    if listed.raw is not None and not (listed.known and listed.is_list):
        merged = reading.open_values(anchor)
    for entry in listed.elements() if listed.known and listed.is_list else ():
        merged = _values_from(project, entry, namespace, label, files, unread, merged)
    inline = spec.get("values")
    if inline.raw is not None:
        merged = merge(merged, inline if inline.is_object or not inline.known else Val({}, inline.loc))
    return merged


def _values_from(project: Project, entry: Val, namespace: str | None, label: str, files: set[str],
                 unread: list[Unread], merged: Val) -> Val:
    loc = entry.get("name").loc or entry.loc or merged.loc or Loc("?", 1, 1, 1, 2)
    kind = reading.text(entry.get("kind"))
    name = reading.text(entry.get("name"))
    key = reading.text(entry.get("valuesKey")) or DEFAULT_VALUES_KEY
    optional = entry.get("optional").is_true()
    if kind not in ("ConfigMap", "Secret") or not name:
        if not optional:
            unread.append(Unread(loc, "valuesFrom entry not read: it names no ConfigMap or Secret by name", label))
        return reading.open_values(merged.loc)
    found = _key_text(project, kind, name, namespace, key, files)
    target = entry.get("targetPath")
    if isinstance(found, str):
        if optional:
            return merged
        unread.append(Unread(loc, f"values from {kind} {name} (key {key}) not read: {found}", label))
        path = reading.text(target)
        if path:  # the source sets that one value: Unknown there, the rest as it was
            return set_line(merged, path, Val(UNKNOWN, loc), name_loc=target.loc)
        return reading.open_values(merged.loc)
    value, sensitive = found
    if target.raw is not None:
        path = reading.text(target)
        if path is None:
            return reading.open_values(merged.loc)
        # a quoted value is set as a string, quotes trimmed (``ReplacePathValue``,
        # https://github.com/fluxcd/pkg/blob/main/chartutil/values.go)
        written = reading.text(value)
        as_string = written is not None and len(written) >= 2 and written[0] == written[-1] and written[0] in "'\""
        if as_string and written is not None:
            value = Val(written.strip("'\""), value.loc)
        return set_line(merged, path, value.with_sensitive() if sensitive else value, as_string=as_string,
                        name_loc=target.loc)
    if value.is_object or not value.known:
        document = value
    else:
        decoded = reading.yaml_string(project, value)
        if decoded is None or (decoded.known and not decoded.is_object):
            unread.append(Unread(loc, f"values from {kind} {name} (key {key}) not read: it is not a YAML map "
                                      "of values", label))
            return reading.open_values(merged.loc)
        document = decoded
    return merge(merged, document.with_sensitive() if sensitive else document)


def _key_text(project: Project, kind: str, name: str, namespace: str | None, key: str,
              files: set[str]) -> tuple[Val, bool] | str:
    """The text (or, from a generator's file, the values) at ``key`` of the object, and whether it
    is sensitive; or why it is not read."""
    written = [o for o in reading.objects(project)
               if reading.text(o.get("kind")) == kind and reading.text(o.get("apiVersion")) == "v1"
               and reading.text(o.get("metadata").get("name")) == name
               and _same_namespace(reading.text(o.get("metadata").get("namespace")), namespace)]
    generated = [g for g in kustomize.generated(project)
                 if g.kind == kind and g.name == name and _same_namespace(g.namespace, namespace)]
    if len(written) + len(generated) > 1:
        return f"{len(written) + len(generated)} objects of that name are written in the repository"
    if written:
        return _object_key(written[0], kind, key)
    if not generated:
        return "no such object is written in the repository, nor generated by a kustomization"
    item = generated[0].keys.get(key)
    if item is None:
        return "its generator has no such key"
    if item.literal is not None:
        return item.literal, kind == "Secret"
    if item.path is None:
        return "its generator has no such key"
    read = reading.values_file(project, item.path)
    if read.regular:
        files.add(item.path)
    if read.value is None:
        return read.why
    return read.value, kind == "Secret"


def _object_key(found: Val, kind: str, key: str) -> tuple[Val, bool] | str:
    if kind == "Secret":
        string_data = found.get("stringData").get(key)
        if string_data.raw is not None:
            return string_data, True
        encoded = found.get("data").get(key)
        text = reading.text(encoded)
        if text is None:
            return "the Secret has no such key" if encoded.raw is None else "its value is not known"
        try:
            plain = base64.b64decode(text, validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            return "its data is not base64 UTF-8 text"
        return Val(plain, encoded.loc), True
    value = found.get("data").get(key)
    if value.raw is None:
        return "the ConfigMap has no such key"
    if not value.known:
        return Val(UNKNOWN, value.loc), False
    return value, False
