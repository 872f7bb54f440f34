"""Facts a rule needed for a value and did not have: which value, which fact, which rules.

The rules ask the fact modules questions whose answer is None when the facts do not reach a
value: ``charts.covers`` (and ``Chart.default``, which asks it) for a chart version older
than every version the chart facts were checked against, ``version_calendar.knows`` (which
``status`` asks) for a Kubernetes minor the support calendar does not list, ``version_features.offered`` for a minor
whose Kapsule API offers were not recorded, ``provider_features.supports`` and
``helm_provider.is_helm_v3`` for a provider pre-release of the release that brought a feature.
:func:`missing_facts` asks the same questions of every value the rules read and records each
place where the answer was missing, so KAP013 reports what the rules could not judge without
knowing how they judge. A value only rules without facts would read (a chart no fact module
knows, a cluster without feature gates) is no missing fact.

``READERS`` names the rules that read each fact; ``tests/test_missing_facts.py`` checks it against
what the rules do with and without the fact.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from kapsulint.api import (
    Loc,
    ModuleInstance,
    Project,
    ProviderVersion,
    ResourceInstance,
    Val,
    resolve_provider_version,
)
from kapsulint.kapsule import (
    chart_versions,
    clusters,
    helm,
    helm_provider,
    provider_features,
    provider_releases,
    version_calendar,
    version_features,
)
from kapsulint.kapsule.charts import Chart, covers

# The rules that read each fact, by the fact (see the module docstring).
READERS: dict[str, tuple[str, ...]] = {
    "chart-defaults": ("KAP301", "KAP303", "KAP304", "KAP307", "KAP310", "KAP314"),
    "support-calendar": ("KAP110",),
    "feature_gates": ("KAP111",),
    "admission_plugins": ("KAP111",),
    "kubelet_args": ("KAP207",),
    "k8s_acl": ("KAP403",),
    "optional_pool_name": ("KAP201", "KAP202"),
    "helm-v3": ("KAP312",),
}

# Rules that read a fact for some charts only, by what the chart answers: KAP310 judges the charts
# with admin ports, KAP303 those whose traffic ports may require a PROXY header.
CHARTS_JUDGED: dict[str, Callable[[Chart], bool]] = {
    "KAP310": lambda chart: chart.has_admin_ports,
    "KAP303": lambda chart: chart.may_require_proxy,
}

# How the summary counts each kind of missing fact: (one, several).
CHART_TOO_OLD = ("chart version older than its facts", "chart versions older than their facts")
KUBERNETES_UNKNOWN = ("Kubernetes version the facts do not cover", "Kubernetes versions the facts do not cover")
PROVIDER_UNPLACED = ("provider pre-release the facts cannot place", "provider pre-releases the facts cannot place")
UNORDERABLE = ("version kapsulint cannot order", "versions kapsulint cannot order")

_WHAT = {  # what a provider feature is, in words
    "k8s_acl": "scaleway_k8s_acl",
    "optional_pool_name": "an optional pool name",
    "helm-v3": "the v3 schema",
}


class MissingFact(NamedTuple):
    """One written value a fact was missing for: where it is written, what the facts lack for it,
    and which facts (hence which rules) were missing for which subjects."""

    loc: Loc
    kind: tuple[str, str]  # how the summary counts it (one of the kinds above)
    said: str  # the value and what the facts lack: 'chart NAME version "v1.2.1" is older than ...'
    rules: tuple[str, ...]  # the rules that could not judge (readers of the missing facts)
    subjects: tuple[str, ...]  # the resources whose judgement needed it
    fix: str
    logical: str  # the value's address for fingerprints ("helm_release.ingress.version")


def judges(rule: str, chart: Chart) -> bool:
    """Whether ``rule`` reads the facts of ``chart`` (every rule does, but those of CHARTS_JUDGED)."""
    judged = CHARTS_JUDGED.get(rule)
    return judged is None or judged(chart)


def _readers(facts: Iterable[str], chart: Chart | None = None) -> tuple[str, ...]:
    """The rules that read ``facts`` (for ``chart``, those that judge it)."""
    found = {rule for fact in facts for rule in READERS[fact] if chart is None or judges(rule, chart)}
    return tuple(sorted(found))


def missing_facts(project: Project) -> list[MissingFact]:
    """Every written value some fact was missing for, one per place and kind, in order."""
    return project.memo("kapsule.missing-facts", lambda: _grouped(list(_found(project))))


def _found(project: Project) -> Iterator[MissingFact]:
    yield from _charts(project)
    yield from _kubernetes(project)
    yield from (item for item in _providers(project) if item is not None)


def _grouped(found: list[MissingFact]) -> list[MissingFact]:
    """One per written value and kind: a variable default read by two clusters is one note."""
    grouped: dict[tuple[Loc, tuple[str, str]], MissingFact] = {}
    for item in found:
        key = (item.loc, item.kind)
        kept = grouped.get(key)
        if kept is None:
            grouped[key] = item
            continue
        grouped[key] = kept._replace(rules=tuple(sorted(set(kept.rules + item.rules))),
                                     subjects=tuple(dict.fromkeys(kept.subjects + item.subjects)))
    return sorted(grouped.values(), key=lambda item: item.loc)


# -- chart versions ----------------------------------------------------------------------------


def _charts(project: Project) -> Iterator[MissingFact]:
    for release in helm.releases(project):
        controller = release.controller
        if controller is None:
            continue  # no fact module knows this chart: nothing was missing
        version = release.instance.arg("version")
        if not version.known or not isinstance(version.raw, str) or not version.raw.strip():
            continue
        loc = _written(release.instance, version)
        if loc is None:
            continue
        name = f"chart {controller.key} version {_quoted(version.raw)}"
        subject = release.instance.resource.address
        parsed = chart_versions.parse(version.raw)
        oldest = _text(controller.known_since)
        readers = _readers(("chart-defaults",), controller)
        if parsed is None:
            yield MissingFact(loc, UNORDERABLE, f"{name} is no version or range Helm reads", readers, (subject,),
                              f'write a version or range Helm reads, such as "{oldest}" or "~{oldest}"',
                              f"{subject}.version")
        elif covers(parsed, controller.known_since) is False:
            what = "is" if parsed.exact is not None else "admits only versions"
            yield MissingFact(
                loc, CHART_TOO_OLD,
                f"{name} {what} older than every version kapsulint's {controller.key} facts cover (from "
                f"{oldest}): its defaults are not known", readers, (subject,),
                f"nothing to fix if this chart is meant; one from {oldest} on is judged (upgrading changes the release)",
                f"{subject}.version")


# -- Kubernetes versions -----------------------------------------------------------------------


def _kubernetes(project: Project) -> Iterator[MissingFact]:
    kubelet = _clusters_with_kubelet_args(project)
    for cluster in clusters.clusters(project):
        value = cluster.instance.arg("version")
        if not value.known or not isinstance(value.raw, str) or value.raw.strip().lower() == "latest":
            continue
        loc, _ = cluster.version_location()
        if loc is None:
            continue
        subject = cluster.instance.resource.address
        written = f"Kubernetes version {_quoted(value.raw)}"
        version = cluster.kubernetes_version
        if version is None:
            yield MissingFact(loc, UNORDERABLE, f"{written} is no x.y or x.y.z version", _readers(("support-calendar",)),
                              (subject,), 'write the version as x.y or x.y.z, such as "1.34"', f"{subject}.version")
            continue
        minor = (version[0], version[1])
        facts = []
        if not version_calendar.knows(minor):
            facts.append("support-calendar")
        for table in ("feature_gates", "admission_plugins"):
            entries = cluster.instance.arg(table)
            if entries.known and entries.is_list and entries.elements() and version_features.offered(table, minor) is None:
                facts.append(table)
        subjects = [subject] if facts else []
        pools = kubelet.get(id(cluster.instance), [])
        if pools and version_features.offered("kubelet_args", minor) is None:
            facts.append("kubelet_args")
            subjects.extend(pools)  # KAP207 judges the pools' kubelet_args by their cluster's minor
        if facts:
            yield MissingFact(loc, KUBERNETES_UNKNOWN, f"{written} {_kubernetes_reason(minor, facts)}", _readers(facts),
                              tuple(subjects), "nothing to change here: a kapsulint whose facts hold this minor judges it",
                              f"{subject}.version")


def _kubernetes_reason(minor: tuple[int, int], facts: list[str]) -> str:
    """``is newer than the support calendar kapsulint knows (its newest minor is 1.36) and outside
    the minors whose Kapsule offers are known (1.31 to 1.35)``."""
    parts = []
    if "support-calendar" in facts:
        newest, oldest = version_calendar.NEWEST_LISTED, version_calendar.OLDEST_LISTED
        if minor[0] == 1:
            parts.append(f"newer than the support calendar kapsulint knows (its newest minor is {newest[0]}.{newest[1]})")
        else:
            parts.append(f"not a minor of the support calendar kapsulint knows ({oldest[0]}.{oldest[1]} to "
                         f"{newest[0]}.{newest[1]})")
    if any(fact != "support-calendar" for fact in facts):
        oldest, newest = version_features.RECORDED[0], version_features.RECORDED[-1]
        parts.append(f"outside the minors whose Kapsule offers are known ({oldest[0]}.{oldest[1]} to "
                     f"{newest[0]}.{newest[1]})")
    return "is " + " and ".join(parts)


def _clusters_with_kubelet_args(project: Project) -> dict[int, list[str]]:
    """The Kapsule pools writing ``kubelet_args``, by the id of their cluster instance."""
    found: dict[int, list[str]] = {}
    for pool in clusters.pools(project):
        args = pool.instance.arg("kubelet_args")
        if not (args.known and args.is_object and args.items()):
            continue
        if pool.in_kapsule_scope is True and pool.cluster_instance is not None:
            addresses = found.setdefault(id(pool.cluster_instance), [])
            if pool.instance.resource.address not in addresses:
                addresses.append(pool.instance.resource.address)
    return found


# -- provider versions -------------------------------------------------------------------------


def _providers(project: Project) -> Iterator[MissingFact | None]:
    releases = provider_releases.releases("scaleway/scaleway")

    def scaleway(module: ModuleInstance) -> ProviderVersion | None:
        return resolve_provider_version(module, "scaleway", "scaleway/scaleway", releases)

    for cluster in clusters.clusters(project):
        if cluster.is_kapsule is True:
            resolved = scaleway(cluster.instance.module)
            if resolved is not None and provider_features.supports("k8s_acl", resolved.version) is None:
                yield _provider("scaleway", resolved, "k8s_acl", provider_features.PROVIDER_FEATURES["k8s_acl"],
                                cluster.instance.resource.address)
    for pool in clusters.pools(project):
        if not pool.is_resource or pool.instance.block.attr("name") is None or pool.in_kapsule_scope is not True:
            continue
        resolved = scaleway(pool.instance.module)
        if resolved is not None and provider_features.supports("optional_pool_name", resolved.version) is None:
            yield _provider("scaleway", resolved, "optional_pool_name",
                            provider_features.PROVIDER_FEATURES["optional_pool_name"], pool.instance.resource.address)
    for module in helm_provider.module_instances(project):
        blocks = list(helm_provider.v2_blocks(module))
        if not blocks:
            continue
        resolved = helm_provider.helm_provider_version(module)
        if resolved is not None and helm_provider.is_helm_v3(resolved.version) is None:
            yield _provider("helm", resolved, "helm-v3", helm_provider.HELM_PROVIDER_V3, blocks[0].owner)


def _provider(name: str, resolved: ProviderVersion, fact: str, first: tuple[int, ...],
              subject: str) -> MissingFact | None:
    """The note of a pre-release provider; None when no place holds its version."""
    if resolved.loc is None:
        return None
    release = _text(first)
    return MissingFact(
        resolved.loc, PROVIDER_UNPLACED,
        f"{name} provider {resolved.text} ({resolved.origin}) is a pre-release of {release}, the first release "
        f"with {_WHAT[fact]}, which it may or may not have", _readers((fact,)), (subject,),
        f"pin a release ({release} or later, or one before it) for the rules to judge by the version",
        f"provider.{name}.version")


# -- words -------------------------------------------------------------------------------------


def _written(instance: ResourceInstance, value: Val) -> Loc | None:
    attribute = instance.block.attr("version")
    return value.loc or (attribute.value_loc if attribute is not None else None)


def _quoted(text: str) -> str:
    shown = text if len(text) <= 40 else text[:37] + "..."
    return f'"{shown}"'


def _text(version: tuple[int, ...]) -> str:
    return ".".join(str(part) for part in version)
