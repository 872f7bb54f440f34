"""How the Terraform Helm provider reads a ``helm_release``: set entries, chart pinning, v2/v3 syntax.

Sources (https://github.com/hashicorp/terraform-provider-helm/blob/v3.1.2/docs/guides/v3-upgrade-guide.md, https://github.com/hashicorp/terraform-provider-helm/blob/v3.1.2/helm/resource_helm_release.go):

* hashicorp/terraform-provider-helm ``docs/guides/v3-upgrade-guide.md`` (v3.0.0): ``set``,
  ``set_list`` and ``set_sensitive`` became lists of objects, ``kubernetes`` a single nested
  object; the v2 block syntax no longer parses.
* ``helm/resource_helm_release.go`` (v3.1.2) ``getValues``: a ``set``/``set_sensitive`` entry is
  handed to Helm's strvals parser as ``name=value`` (types ``auto`` and ``string``), a ``set_list``
  entry as ``name={v1,v2}``; ``literal`` (v3 only) goes through a YAML parser instead and assigns
  the top-level key named ``name`` (read from the code, not run). ``ModifyPlan``: without
  ``version`` the chart's latest version is planned.
* Helm's documentation, "The Format and Limitations of --set"
  (https://helm.sh/docs/intro/using_helm/#the-format-and-limitations-of---set): commas separate pairs,
  ``{a,b}`` is a list, a backslash escapes ``.`` and ``,``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import NamedTuple

from kapsulint.api import (
    Block,
    Loc,
    ModuleInstance,
    Project,
    ProviderVersion,
    ResourceInstance,
    Val,
    Version,
    resolve_provider_version,
)
from kapsulint.kapsule import chart_versions, strvals
from kapsulint.kapsule.charts import registry
from kapsulint.kapsule.provider_releases import reached, releases
from kapsulint.text import lazy_pattern

SET_KINDS = ("set", "set_list", "set_sensitive")

# Value maps whose keys are Kubernetes annotation, label or selector keys: flat maps of strings,
# whose keys often hold a DNS prefix with dots (``service.beta.kubernetes.io/...``,
# ``app.kubernetes.io/name``, ``kubernetes.io/os``). Also any camelCase ``...Annotations`` or
# ``...Labels`` key (``podAnnotations``, ``commonLabels``) and the maps a chart names as such
# (``Chart.flat_key_maps``).
FLAT_KEY_MAPS: frozenset[str] = frozenset(
    {"annotations", "labels", "nodeSelector", "podAnnotations", "podLabels", "matchLabels"}
)
_CAMEL_FLAT_MAP = lazy_pattern(r"^[a-z][A-Za-z0-9]*(Annotations|Labels)$")


def is_flat_key_map(segment: str) -> bool:
    return segment in FLAT_KEY_MAPS or segment in _chart_flat_key_maps() or bool(_CAMEL_FLAT_MAP.match(segment))


@cache
def _chart_flat_key_maps() -> frozenset[str]:
    return frozenset(key for chart in registry.charts() for key in chart.flat_key_maps)


class SetEntry:
    """One ``set``/``set_list``/``set_sensitive`` entry of a release, as a v2 block or a v3 list item."""

    kind: str  # "set", "set_list" or "set_sensitive"
    name: Val
    value: Val
    type: Val
    as_block: bool
    anchor: Loc  # the block header, or the list element
    _name_attr: Loc | None
    _value_attr: Loc | None

    def __init__(
        self,
        kind: str,
        name: Val,
        value: Val,
        type: Val,
        as_block: bool,
        anchor: Loc,
        _name_attr: Loc | None = None,
        _value_attr: Loc | None = None,
    ) -> None:
        self.kind = kind
        self.name = name
        self.value = value
        self.type = type
        self.as_block = as_block
        self.anchor = anchor
        self._name_attr = _name_attr
        self._value_attr = _value_attr

    @property
    def type_text(self) -> str | None:
        """``auto`` when unset; None when Unknown."""
        if self.type.raw is None:
            return "auto"
        return self.type.text() if self.type.known else None

    @property
    def name_loc(self) -> Loc:
        return self.name.loc or self._name_attr or self.anchor

    @property
    def value_loc(self) -> Loc:
        return self.value.loc or self._value_attr or self.anchor


def set_entries(instance: ResourceInstance) -> Iterator[SetEntry]:
    """Every set entry of a release: v2 blocks (``dynamic`` ones expanded) and v3 list items."""
    for kind in SET_KINDS:
        for block in instance.nested(kind):
            name_attr, value_attr = block.attr("name"), block.attr("value")
            yield SetEntry(kind, block.arg("name"), block.arg("value"), block.arg("type"), True, block.loc,
                           name_attr.value_loc if name_attr is not None else None,
                           value_attr.value_loc if value_attr is not None else None)
        listed = instance.arg(kind)
        if not listed.known or not listed.is_list:
            continue
        for item in listed.elements():
            if not item.known or not item.is_object:
                continue
            anchor = item.loc or listed.loc or instance.block.loc
            yield SetEntry(kind, item.get("name"), item.get("value"), item.get("type"), False, anchor,
                           item.key_loc("name"), item.key_loc("value"))


# -- escaping (Helm strvals) -----------------------------------------------------------------


class SplitKey(NamedTuple):
    """A set name whose annotation, label or selector key is cut by unescaped dots."""

    map_key: str  # the map segment: "annotations", "nodeSelector"...
    key: str  # the key as meant: "service.beta.kubernetes.io/scw-loadbalancer-zone"
    escaped_name: str  # the name with the key's dots escaped (strvals form, single backslashes)


def split_flat_key(name: str) -> SplitKey | None:
    """The first annotation, label or selector key of ``name`` that unescaped dots would split,
    as Helm's strvals parser reads the name (kapsule.strvals); None for a name it refuses."""
    read = strvals.parse(f"{name}=")
    if read is None or len(read) != 1:
        return None
    path = read[0].path
    for index, step in enumerate(path[:-1]):
        rest = path[index + 1:]
        if not isinstance(step, str) or not is_flat_key_map(step) or not all(isinstance(r, str) for r in rest):
            continue
        if len(rest) < 2:
            return None
        escaped = _written(path[: index + 1]) + "." + "\\.".join(_escaped(str(r)) for r in rest)
        return SplitKey(step, ".".join(str(r) for r in rest), escaped)
    return None


_NAME_SPECIAL = frozenset("\\.[],=")


def _escaped(step: str) -> str:
    """A map key as a strvals name writes it: its special characters behind a backslash."""
    return "".join("\\" + char if char in _NAME_SPECIAL else char for char in step)


def _written(path: tuple[strvals.Step, ...]) -> str:
    """A strvals name for ``path``: keys joined by dots, indexes as ``[n]``."""
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else ("." if text else "") + _escaped(step)
    return text


def unescaped_commas(value: str) -> bool:
    """True when Helm's strvals parser would cut ``value`` at a comma and read what follows as
    another ``name=value`` (a ``{a,b}`` list aside). A ``{`` list never closed, which strvals
    refuses, counts when it holds a comma."""
    end = strvals.value_end(value)
    if end is None:
        return "," in value
    return end < len(value) and value[end] == ","


def hcl_escaped(strvals_text: str) -> str:
    """A strvals string as written in an HCL string literal (each backslash doubled)."""
    return strvals_text.replace("\\", "\\\\")


# -- chart version pinning ---------------------------------------------------------------------

def is_version_range(text: str) -> bool:
    """True when ``version`` is a range Helm resolves against the repository (``~1.52``,
    ``1.52.x``, ``1.2``) rather than one exact chart version (:mod:`chart_versions`)."""
    parsed = chart_versions.parse(text)
    return parsed is not None and parsed.exact is None


def exact_chart_version(text: str) -> Version | None:
    """The one chart version ``version`` pins (``"1.52.1"``, ``"=1.52.1"``, ``"v1.52.1"``,
    ``"1.0.0-rc.1"``); None when it is empty, a range, or a text Helm refuses."""
    parsed = chart_versions.parse(text)
    return parsed.exact if parsed is not None else None


def chart_from_repository(instance: ResourceInstance) -> bool | None:
    """Whether a release's chart comes from a repository (``repository`` set, or an ``oci://``
    chart) rather than a local path or a chart archive URL; None when that is Unknown."""
    chart, repository = instance.arg("chart"), instance.arg("repository")
    chart_text = chart.text() if chart.known else None
    if chart_text is not None and chart_text.strip().lower().startswith("oci://"):
        return True
    if chart_text is not None and "://" in chart_text:
        return False  # a chart archive URL is one file: its version is in the URL
    if not repository.known:
        return None
    text = repository.text()
    if repository.raw is None or text is None or not text.strip():
        return False
    return True


# -- v2 syntax on v3 ---------------------------------------------------------------------------

# Helm provider 3.0.0 (2025-06-18) moved to the Plugin Framework: ``set``, ``set_list`` and
# ``set_sensitive`` became lists of objects, ``kubernetes`` and ``experiments`` single nested
# objects, the ``registry`` blocks the ``registries`` list, and the v2 block syntax no longer
# parses (https://github.com/hashicorp/terraform-provider-helm/blob/v3.1.2/docs/guides/v3-upgrade-guide.md).
HELM_PROVIDER_V3: tuple[int, int, int] = (3, 0, 0)

# (block owner, block type) written as a block that v3 refuses, with the v3 form.
HELM_V2_BLOCKS_INVALID_ON_V3: Mapping[tuple[str, str], str] = {
    ("helm_release", "set"): "set = [{ name = ..., value = ... }]",
    ("helm_release", "set_list"): "set_list = [{ name = ..., value = [...] }]",
    ("helm_release", "set_sensitive"): "set_sensitive = [{ name = ..., value = ... }]",
    ("helm_release", "postrender"): "postrender = { binary_path = ..., args = [...] }",
    ("helm_template", "set"): "set = [{ name = ..., value = ... }]",
    ("helm_template", "set_list"): "set_list = [{ name = ..., value = [...] }]",
    ("helm_template", "set_sensitive"): "set_sensitive = [{ name = ..., value = ... }]",
    ("provider", "kubernetes"): "kubernetes = { host = ..., ... }",
    ("provider", "experiments"): "experiments = { manifest = ... }",
    ("provider", "registry"): "registries = [{ url = ..., username = ..., password = ... }]",
}


def is_helm_v3(version: tuple[int, ...] | None) -> bool | None:
    """True for helm provider 3.x or later; None when the version is unknown, or a pre-release
    of 3.0.0 (between 2.17.0 and 3.0.0: which schema it had is not known)."""
    return reached("hashicorp/helm", version, HELM_PROVIDER_V3)



def helm_provider_version(instance: ModuleInstance) -> ProviderVersion | None:
    """The hashicorp/helm provider version for a module instance and where it comes from (the
    lock file, else the newest known release the constraints admit)."""
    return resolve_provider_version(instance, "helm", "hashicorp/helm", releases("hashicorp/helm"))


class V2Block(NamedTuple):
    """A block the Helm provider v3 refuses, as written."""

    owner: str  # "helm_release.ingress", 'provider "helm"'
    resource: bool  # the owner is a resource or data source (not a provider block)
    block_type: str  # "set", "kubernetes"...
    loc: Loc  # the block header (or its ``dynamic`` header)
    v3_form: str


def v2_blocks(module: ModuleInstance) -> Iterator[V2Block]:
    """Blocks of a module's Helm resources and ``provider "helm"`` that only v2 accepts."""
    for resource in module.module.resources.values():
        kind = "helm_template" if resource.mode == "data" else resource.type
        if resource.type not in ("helm_release", "helm_template"):
            continue
        yield from _v2_children(resource.block, kind, resource.address, True)
    for provider in module.module.providers:
        if provider.labels and provider.labels[0] == "helm":
            yield from _v2_children(provider, "provider", 'provider "helm"', False)


def _v2_children(block: Block, owner_kind: str, owner: str, resource: bool) -> Iterator[V2Block]:
    for child in block.blocks:
        if child.path.endswith(".json"):
            continue  # JSON syntax has no block form of its own: Terraform reads it by the schema
        block_type = child.type
        if block_type == "dynamic":
            if not child.labels:
                continue
            block_type = child.labels[0]
        form = HELM_V2_BLOCKS_INVALID_ON_V3.get((owner_kind, block_type))
        if form is not None:
            yield V2Block(owner, resource, block_type, child.loc, form)


def module_instances(project: Project) -> Iterator[ModuleInstance]:
    return project.instances()


__all__ = [
    "FLAT_KEY_MAPS",
    "HELM_PROVIDER_V3",
    "HELM_V2_BLOCKS_INVALID_ON_V3",
    "SET_KINDS",
    "SetEntry",
    "SplitKey",
    "V2Block",
    "chart_from_repository",
    "exact_chart_version",
    "hcl_escaped",
    "helm_provider_version",
    "is_flat_key_map",
    "is_helm_v3",
    "is_version_range",
    "module_instances",
    "set_entries",
    "split_flat_key",
    "unescaped_commas",
    "v2_blocks",
]
