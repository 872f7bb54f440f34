"""Clusters and pools: the Kapsule questions rules ask about them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cached_property

from kapsulint.api import (
    UNKNOWN,
    Loc,
    ModuleInstance,
    NestedBlock,
    Project,
    Related,
    ResourceInstance,
    Val,
    Version,
    number,
)
from kapsulint.kapsule import cluster_types, k8s_versions, node_labels, node_types
from kapsulint.kapsule.provider_releases import provider_version

CLUSTER = "scaleway_k8s_cluster"
POOL = "scaleway_k8s_pool"
# The ``_beta`` resources of provider 1.x (removed in v2.0.0) still expose a kubeconfig, so the
# kubeconfig and state rules follow them; their arguments are another schema (no ``type``,
# ``private_network_id``, ``delete_additional_resources``...: provider v1.17.2
# https://github.com/scaleway/terraform-provider-scaleway/blob/v1.17.2/scaleway/resource_k8s_cluster_beta.go),
# so the rules that judge or recommend arguments, fed by clusters() and pools(), leave them out.
CLUSTER_RESOURCES = (CLUSTER, "scaleway_k8s_cluster_beta")


class Cluster:
    instance: ResourceInstance

    def __init__(self, instance: ResourceInstance) -> None:
        self.instance = instance

    @property
    def type_value(self) -> Val:
        return self.instance.arg("type")

    @property
    def cluster_type(self) -> str | None:
        """The control-plane type, lower-cased; "kapsule" when absent; None when Unknown."""
        value = self.type_value
        if value.raw is None:
            return cluster_types.DEFAULT_CLUSTER_TYPE
        text = value.text()
        return text.lower() if value.known and text is not None else None

    @property
    def is_kosmos(self) -> bool | None:
        kind = self.cluster_type
        return None if kind is None else cluster_types.is_kosmos_type(kind)

    @property
    def is_kapsule(self) -> bool | None:
        kosmos = self.is_kosmos
        return None if kosmos is None else not kosmos

    @property
    def provider_version(self) -> tuple[int, int, int] | None:
        """The scaleway provider version of the cluster's module (lock file, else constraints)."""
        return provider_version(self.instance.module, "scaleway", "scaleway/scaleway")

    @property
    def kubernetes_version(self) -> tuple[int, ...] | None:
        """The ``version`` as numbers ("1.34" -> (1, 34), "1.34.2" -> (1, 34, 2)); None when it is
        absent, Unknown, "latest" or not of the form x.y / x.y.z."""
        value = self.instance.arg("version")
        text = value.text() if value.known else None
        return parse_kubernetes_version(text) if text is not None else None

    def version_source(self) -> k8s_versions.VersionSource | None:
        """The ``scaleway_k8s_version`` attribute ``version`` is written as, if any."""
        return k8s_versions.version_source(self.instance)

    def version_is_minor(self) -> bool | None:
        """Whether ``version`` is a minor version "x.y", by the provider's own test (exactly two
        parts on "."); None when the version is Unknown or absent. A data source's ``name`` is the
        release x.y.z the provider resolved (False), its ``major_minor_only`` an x.y (True)."""
        source = self.version_source()
        if source is not None:
            return not source.is_release
        value = self.instance.arg("version")
        text = value.text() if value.known else None
        return None if text is None else len(text.split(".")) == 2

    def auto_upgrade(self) -> tuple[bool | None, Val | None]:
        """(enabled?, the ``enable`` value): True when enabled, False when certainly off (no block,
        or ``enable = false``), None when Unknown (a dynamic block, an Unknown or missing enable)."""
        block = self.instance.block
        if block.attr("auto_upgrade") is not None:
            return None, None  # attribute syntax: not the provider's schema, left to Terraform
        if any(d.labels[:1] == ["auto_upgrade"] for d in block.children("dynamic")):
            return None, None
        blocks = self.instance.nested("auto_upgrade")
        if not blocks:
            return False, None
        enable = blocks[0].arg("enable")
        if not enable.known or enable.raw is None:
            return None, enable
        if enable.is_true():
            return True, enable
        return (False, enable) if enable.is_false() else (None, enable)

    def version_location(self) -> tuple[Loc | None, list[Related]]:
        """Where the version is written, and the cluster's own ``version`` line when that differs."""
        version = self.instance.arg("version")
        written = self.instance.block.attr("version")
        loc = version.loc or (written.value_loc if written is not None else None)
        related = []
        if loc is not None and written is not None and written.value_loc != loc:
            related.append(Related(written.value_loc, "the version the cluster uses"))
        return loc, related

    @property
    def private_network_set(self) -> bool | None:
        """Whether ``private_network_id`` holds an id: True for a non-empty literal or another
        resource's ``id`` (never null once applied), False when absent, null or "", None when
        Unknown."""
        value = self.instance.arg("private_network_id")
        if value.known:
            if value.raw is None:
                return False
            text = value.text()
            if text is None:
                return None  # not a string: left to Terraform
            return bool(text.strip())
        if value.ref is not None and value.ref[1] == "id":
            return True
        return None

    def auto_upgrade_blocks(self) -> list[NestedBlock]:
        """The ``auto_upgrade`` blocks as written: static ones, and those a ``dynamic`` block makes
        when its ``for_each`` is known (blocks of an Unknown ``for_each`` are left out)."""
        return [block for block in self.instance.nested("auto_upgrade") if not block.count_unknown]

    def pools(self, project: Project) -> list[Pool]:
        return pools_by_cluster(project).get(id(self.instance), [])


class Pool:
    """A node pool: a ``scaleway_k8s_pool`` instance, or a legacy cluster's ``default_pool`` block."""

    instance: ResourceInstance | DefaultPoolInstance
    project: Project

    def __init__(self, instance: ResourceInstance | DefaultPoolInstance, project: Project) -> None:
        self.instance = instance
        self.project = project

    @property
    def is_resource(self) -> bool:
        """False for a ``default_pool`` block, which has no lifecycle of its own."""
        return not isinstance(self.instance, DefaultPoolInstance)

    @property
    def node_type(self) -> Val:
        return self.instance.arg("node_type")

    @property
    def normalized_node_type(self) -> str | None:
        value = self.node_type
        text = value.text()
        return node_types.normalize_node_type(text) if value.known and text else None

    @cached_property
    def is_external(self) -> bool | None:  # a pool's answers are asked by rule after rule: kept
        text = self.node_type.text()
        if not self.node_type.known or text is None:
            return None
        return node_types.is_external_node_type(text)

    @cached_property
    def cluster_instance(self) -> ResourceInstance | None:
        """The cluster this pool's ``cluster_id`` refers to, when the scan holds it."""
        if isinstance(self.instance, DefaultPoolInstance):
            return self.instance.cluster
        return cluster_of(self.instance.arg("cluster_id"))

    @property
    def cluster(self) -> Cluster | None:
        instance = self.cluster_instance
        return Cluster(instance) if instance is not None else None

    @cached_property
    def in_kapsule_scope(self) -> bool | None:
        """Kapsule (not Kosmos) and not ``external``; an Unknown cluster counts as Kapsule."""
        if self.is_external:
            return False
        cluster = self.cluster
        if cluster is None:
            return True
        kapsule = cluster.is_kapsule
        return kapsule

    @property
    def provider_version(self) -> Version | None:
        return provider_version(self.instance.module, "scaleway", "scaleway/scaleway")

    def node_capacity(self) -> tuple[int | None, Val]:
        """How many nodes this pool may hold, and the value that says so.

        ``max_size`` when ``autoscaling`` is on (the provider defaults it to ``size``), else
        ``size``; with ``autoscaling`` Unknown, the smaller of the two. None when Unknown.
        """
        size = self.instance.arg("size")
        maximum = self.instance.arg("max_size")
        if maximum.raw is None:
            maximum = size
        autoscaling = self.instance.arg("autoscaling")
        if autoscaling.known:
            candidates = [maximum] if autoscaling.is_true() else [size]
        else:
            candidates = [size, maximum]
        counted: list[tuple[int, Val]] = []
        for value in candidates:
            amount = number(value) if value.known else None
            if amount is None:
                return None, value
            counted.append((int(amount), value))
        return min(counted, key=lambda pair: pair[0])

    def instance_of(self, cluster: Cluster) -> bool:
        """Whether this pool instance certainly exists once per instance of ``cluster``: False
        when its own ``count``/``for_each`` key, or that of a module instance between it and the
        cluster's module, is Unknown."""
        if self.instance.key is UNKNOWN:
            return False
        cluster_modules = set()
        module: ModuleInstance | None = cluster.instance.module
        while module is not None:
            cluster_modules.add(id(module))
            module = module.parent
        module = self.instance.module
        while module is not None and id(module) not in cluster_modules:
            if module.address.endswith("[?]"):
                return False
            module = module.parent
        return True

    def labels(self) -> tuple[dict[str, str | object], bool]:
        """The node labels this pool's nodes carry, and whether that set is complete.

        Values are strings, or UNKNOWN when the label exists with a value kapsulint cannot know.
        """
        labels: dict[str, str | object] = {}
        complete = True
        name = self.instance.arg("name")
        if name.known and name.text() is not None:
            labels[node_labels.POOL_NAME_LABEL] = name.text()
        else:
            labels[node_labels.POOL_NAME_LABEL] = UNKNOWN
        node_type = self.normalized_node_type
        zone = self.instance.arg("zone")
        automatic = node_labels.automatic_node_labels(
            node_type=node_type, zone=zone.text() if zone.known and zone.raw is not None else None
        )
        labels.update(automatic)
        if node_type is None:
            labels[node_labels.INSTANCE_TYPE_LABEL] = UNKNOWN
        if not zone.known or zone.raw is None:
            for key in (node_labels.ZONE_LABEL, node_labels.REGION_LABEL, node_labels.CSI_ZONE_LABEL):
                labels.setdefault(key, UNKNOWN)
        tags = self.instance.arg("tags")
        if tags.known:
            texts = [t.text() for t in tags.elements()]
            if any(not t.known for t in tags.elements()):
                complete = False
            labels.update(node_labels.labels_from_tags([t for t in texts if t is not None]))
        else:
            complete = False
        written = self.instance.arg("labels")
        if written.known and written.is_object:
            for key, value in written.items():
                labels[key] = value.text() if value.known and value.text() is not None else UNKNOWN
            complete = complete and not written.open
        elif not written.known:
            complete = False
        return labels, complete

    def taints(self) -> tuple[list[tuple[str, str, str]], bool]:
        """(key, value, effect) taints of this pool's nodes, and whether the list is complete."""
        found: list[tuple[str, str, str]] = []
        complete = True
        tags = self.instance.arg("tags")
        if tags.known:
            found.extend(node_labels.taints_from_tags([text for t in tags.elements() if (text := t.text()) is not None]))
        else:
            complete = False
        for block in self.instance.nested("taints"):
            key, value, effect = (self.instance.eval_in(block, n) for n in ("key", "value", "effect"))
            if all(v.known for v in (key, value, effect)):
                found.append((key.text() or "", value.text() or "", effect.text() or ""))
            else:
                complete = False
        written = self.instance.arg("taints")
        if written.raw is not None:
            if not written.known:
                complete = False
            for item in written.elements():
                key, value, effect = item.get("key"), item.get("value"), item.get("effect")
                if all(v.known for v in (key, value, effect)):
                    found.append((key.text() or "", value.text() or "", effect.text() or ""))
                else:
                    complete = False
        return found, complete


def clusters(project: Project) -> Iterator[Cluster]:
    """Every ``scaleway_k8s_cluster`` (never the 1.x ``_beta`` resource, see CLUSTER_RESOURCES)."""
    for instance in project.resources(CLUSTER):
        yield Cluster(instance)


def pools(project: Project) -> list[Pool]:
    """Every pool: ``scaleway_k8s_pool`` resources, then the ``default_pool`` blocks of legacy
    clusters (never the 1.x ``_beta`` resources, see CLUSTER_RESOURCES)."""

    def collect() -> list[Pool]:
        found = [Pool(instance, project) for instance in project.resources(POOL)]
        for cluster in clusters(project):
            for index, block in enumerate(cluster.instance.nested("default_pool")):
                found.append(Pool(DefaultPoolInstance(cluster.instance, block, index), project))
        return found

    return project.memo("kapsule.pools", collect)


def pools_by_cluster(project: Project) -> dict[int, list[Pool]]:
    """The pools of each cluster instance (keyed by the instance's id), computed once."""

    def collect() -> dict[int, list[Pool]]:
        grouped: dict[int, list[Pool]] = {}
        for pool in pools(project):
            if pool.instance.written:  # count = 0: not a pool of the cluster (KAP105 sums, KAP301)
                continue
            instance = pool.cluster_instance
            if instance is not None:
                grouped.setdefault(id(instance), []).append(pool)
        return grouped

    return project.memo("kapsule.pools-by-cluster", collect)


class DefaultPoolInstance:
    """A cluster's ``default_pool`` block (provider 1.x), read like a pool."""

    def __init__(self, cluster: ResourceInstance, block: NestedBlock, index: int) -> None:
        self.cluster = cluster
        self.nested_block = block
        self.block = block.block
        self.module = cluster.module
        self.resource = cluster.resource
        self.type = POOL
        self.key = cluster.key
        self.written = cluster.written  # the cluster has no instance: neither has its default pool
        self.address = f"{cluster.address}.default_pool[{index}]"

    def arg(self, name: str) -> Val:
        return self.nested_block.arg(name)

    def nested(self, block_type: str) -> list[NestedBlock]:
        return self.nested_block.nested(block_type)

    def eval_in(self, block: NestedBlock, name: str) -> Val:
        return block.arg(name)


def parse_kubernetes_version(text: str) -> tuple[int, ...] | None:
    """ "1.34" -> (1, 34), "1.34.2" -> (1, 34, 2); None for "latest" or any other form."""
    match = re.fullmatch(r"\s*(\d+)\.(\d+)(?:\.(\d+))?\s*", text)
    if match is None:
        return None
    return tuple(int(part) for part in match.groups() if part is not None)


def cluster_of(value: Val) -> ResourceInstance | None:
    """The cluster instance a value (``cluster_id``, a kubeconfig host) comes from, if any."""
    seen = 0
    while value.ref is not None and seen < 8:
        seen += 1
        instance: ResourceInstance
        instance, _ = value.ref
        if instance.type in CLUSTER_RESOURCES and instance.resource.mode == "managed":
            return instance
        if instance.type == CLUSTER and instance.resource.mode == "data":
            for argument in ("cluster_id", "name"):
                nested = instance.arg(argument)
                if nested.ref is not None:
                    value = nested
                    break
            else:
                return None
            continue
        return None
    return None
