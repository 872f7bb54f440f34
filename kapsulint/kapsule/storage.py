"""Storage on Kapsule: the block storage classes and the access modes block volumes support.

Sources: Scaleway documentation, "Managing storage" (the Block Storage CSI is installed on every
Kapsule and Kosmos cluster; ``sbs-default`` is the default class, ``sbs-5k`` and ``sbs-15k`` are
pre-configured, ``scw-bssd`` and ``scw-bssd-retain`` remain available;
https://www.scaleway.com/en/docs/kubernetes/how-to/manage-storage/); Scaleway Block Volume CSI
driver, ``pkg/driver/controller.go`` ``supportedAccessModes`` (single-node modes only, so
Kubernetes' ReadWriteOnce and ReadWriteOncePod;
https://github.com/scaleway/scaleway-csi/blob/v0.3.6/pkg/driver/controller.go); ReadWriteMany
needs the File Storage CSI (``filestorage.csi.scaleway.com``,
https://www.scaleway.com/en/docs/kubernetes/how-to/use-sfs-with-kubernetes/).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from kapsulint.api import Loc, Project, Val
from kapsulint.kapsule import clusters, helm

BLOCK_CLASS_PREFIXES = ("sbs-", "scw-bssd")
DEFAULT_CLASS = "sbs-default"
SHARED_ACCESS_MODES = frozenset({"ReadWriteMany", "ReadOnlyMany"})
PVC_RESOURCES = ("kubernetes_persistent_volume_claim", "kubernetes_persistent_volume_claim_v1")


def is_block_class(name: str) -> bool:
    return name.strip().lower().startswith(BLOCK_CLASS_PREFIXES)


class Claim(NamedTuple):
    """Access modes asked of one storage class."""

    modes: Val  # the list of access modes
    storage_class: str  # the class name; DEFAULT_CLASS when the claim names none
    defaulted: bool  # the class is the cluster's default, not written
    subject: str
    instance: str | None
    class_loc: Loc | None


def _text(value: Val) -> str | None:
    return value.text() if value.known and isinstance(value.raw, str) else None


def _pvc_resources(project: Project, on_kapsule: bool) -> Iterator[Claim]:
    for kind in PVC_RESOURCES:
        for instance in project.resources(kind):
            for spec in instance.nested("spec"):
                written = spec.arg("storage_class_name")
                name = _text(written)
                if written.known and written.raw is None:
                    if not on_kapsule:
                        continue
                    yield Claim(spec.arg("access_modes"), DEFAULT_CLASS, True, instance.resource.address,
                                instance.address, None)
                elif name is not None:
                    yield Claim(spec.arg("access_modes"), name, False, instance.resource.address,
                                instance.address, written.loc)


def _manifests(project: Project, on_kapsule: bool) -> Iterator[Claim]:
    for instance in project.resources("kubernetes_manifest"):
        manifest = instance.arg("manifest")
        if not manifest.known or not manifest.is_object or _text(manifest.get("kind")) != "PersistentVolumeClaim":
            continue
        spec = manifest.get("spec")
        if not spec.known or not spec.is_object:
            continue
        written = spec.get("storageClassName")
        name = _text(written)
        if written.known and written.raw is None and on_kapsule and not spec.open:
            yield Claim(spec.get("accessModes"), DEFAULT_CLASS, True, instance.resource.address, instance.address, None)
        elif name is not None:
            yield Claim(spec.get("accessModes"), name, False, instance.resource.address, instance.address, written.loc)


def _in_values(value: Val, subject: helm.ValuesSubject) -> Iterator[Claim]:
    """The claims anywhere in a values tree, in document order (iterative: a walk of every node
    of every release's values)."""
    pending = [(value, 0)]
    while pending:
        value, depth = pending.pop()
        if depth > 40 or not value.known:
            continue
        raw = value.raw
        if isinstance(raw, dict):
            modes = raw.get("accessModes")
            if modes is not None and modes.known and modes.is_list:
                for key in ("storageClass", "storageClassName"):
                    written = value.get(key)
                    name = _text(written)
                    if name:
                        yield Claim(modes, name, False, subject.name, subject.instance_address, written.loc)
                        break
            pending.extend((child, depth + 1) for child in reversed(raw.values()))
        elif isinstance(raw, list):
            pending.extend((child, depth + 1) for child in reversed(raw))


def claims(project: Project) -> Iterator[Claim]:
    """Every claim of access modes on a named storage class, or on the default class when the
    scan holds a Kapsule cluster (the default is then ``sbs-default``)."""
    on_kapsule = any(True for _ in clusters.clusters(project))
    yield from _pvc_resources(project, on_kapsule)
    yield from _manifests(project, on_kapsule)
    for subject in helm.values_subjects(project):
        yield from _in_values(subject.values, subject)


# StorageClass parameters of the Block Volume CSI driver (``parseCreateVolumeParams`` in
# https://github.com/scaleway/scaleway-csi/tree/v0.3.6/pkg/driver: any other key is refused with
# "invalid parameter key"); iops up to 15 000 (the driver's README, "It currently
# provides volumes with up to 15,000 IOPS"); encryption needs the node-stage secret
# (https://github.com/scaleway/scaleway-csi/blob/v0.3.6/examples/kubernetes/README.md).
BLOCK_PROVISIONER = "csi.scaleway.com"
CLASS_PARAMETERS = frozenset({"type", "encrypted", "iops"})
KUBERNETES_PARAMETER_PREFIX = "csi.storage.k8s.io/"
MAX_IOPS = 15_000
NODE_STAGE_SECRET = ("csi.storage.k8s.io/node-stage-secret-name", "csi.storage.k8s.io/node-stage-secret-namespace")
STORAGE_CLASS_RESOURCES = ("kubernetes_storage_class", "kubernetes_storage_class_v1")


class StorageClass(NamedTuple):
    parameters: Val
    subject: str
    instance: str | None


def block_storage_classes(project: Project) -> Iterator[StorageClass]:
    """StorageClasses of the Block Volume CSI driver: ``kubernetes_storage_class(_v1)`` and
    ``kubernetes_manifest`` objects of kind StorageClass."""
    for kind in STORAGE_CLASS_RESOURCES:
        for instance in project.resources(kind):
            if _text(instance.arg("storage_provisioner")) == BLOCK_PROVISIONER:
                yield StorageClass(instance.arg("parameters"), instance.resource.address, instance.address)
    for instance in project.resources("kubernetes_manifest"):
        manifest = instance.arg("manifest")
        if not manifest.known or not manifest.is_object:
            continue
        if _text(manifest.get("kind")) == "StorageClass" and _text(manifest.get("provisioner")) == BLOCK_PROVISIONER:
            yield StorageClass(manifest.get("parameters"), instance.resource.address, instance.address)
