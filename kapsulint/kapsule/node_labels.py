"""Node labels and taints: those every Kapsule node carries, and those Kapsule derives from a
pool's ``tags``."""

from __future__ import annotations

import re
from collections.abc import Iterable

from kapsulint.kapsule.node_types import INSTANCE_TYPES, is_external_node_type, normalize_node_type
from kapsulint.kapsule.zones import region_of_zone
from kapsulint.text import lazy_pattern

# The pool name label: set on every Kapsule node, used by the CCM's own tests
# (https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/scaleway/loadbalancers_test.go, ``TestFilterNodes``); no prose page documents it.
POOL_NAME_LABEL = "k8s.scaleway.com/pool-name"
# Prefix of the labels and taints made from pool tags (``labelsPrefix``/``taintsPrefix`` in
# https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/scaleway/sync.go; https://www.scaleway.com/en/docs/kubernetes/api-cli/managing-tags/).
TAG_LABEL_PREFIX = "k8s.scaleway.com/"
TAINT_TAG_PREFIX = "taint="
NOPREFIX_TAG_PREFIX = "noprefix="
# Labels set by the CCM from instance metadata (https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/scaleway/instances.go,
# ``InstanceMetadata``) and by the block CSI driver (``ZoneTopologyKey``,
# https://github.com/scaleway/scaleway-csi/blob/v0.3.6/pkg/driver/driver.go).
INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type"
ZONE_LABEL = "topology.kubernetes.io/zone"
REGION_LABEL = "topology.kubernetes.io/region"
CSI_ZONE_LABEL = "topology.csi.scaleway.com/zone"
# Labels the kubelet sets on every node (https://kubernetes.io/docs/reference/node/node-labels/).
OS_LABEL = "kubernetes.io/os"
ARCH_LABEL = "kubernetes.io/arch"
# The tag the CCM turns into this label with this value (https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/tags.md).
EXCLUDE_FROM_LB_LABEL = "node.kubernetes.io/exclude-from-external-load-balancers"
EXCLUDE_FROM_LB_LABEL_VALUE = "managed-by-scaleway-ccm"

# Taint effects accepted in ``taint=`` tags (``tagTaintParser`` in
# https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/scaleway/sync.go).
TAINT_EFFECTS: tuple[str, ...] = ("NoSchedule", "PreferNoSchedule", "NoExecute")

# Tag parsing rules, from ``tagLabelParser`` in the same sync.go: the tag is split
# on runs of ':', '=' or ' '; the key must be a qualified name (<= 63 chars),
# the value a valid label value; ``noprefix=`` keeps the key unprefixed and may
# carry one DNS-subdomain prefix (``noprefix=node.kubernetes.io/role=x``).
_TAG_SPLIT = re.compile(r"[:= ]+")
_NAME_RE = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")
_DNS_SUBDOMAIN_RE = lazy_pattern(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")


def _parse_label_tag(tag: str, *, require_equals: bool) -> tuple[str, str] | None:
    """Parse ``k=v`` or ``noprefix=[p/]k=v`` into (key, value), or None."""
    prefix = TAG_LABEL_PREFIX
    body = tag
    if body.startswith(NOPREFIX_TAG_PREFIX):
        prefix = ""
        body = body[len(NOPREFIX_TAG_PREFIX):]
        parts = body.split("/")
        if len(parts) > 2:
            return None
        if len(parts) == 2:
            dns_prefix, body = parts
            if not dns_prefix or len(dns_prefix) > 253 or not _DNS_SUBDOMAIN_RE.match(dns_prefix):
                return None
            prefix = dns_prefix + "/"
    # Kapsule documents only the ``foo=bar`` form as producing a label
    # (https://www.scaleway.com/en/docs/kubernetes/api-cli/managing-tags/); a plain tag such as
    # "terraform" gives none.
    if require_equals and "=" not in body:
        return None
    pieces = _TAG_SPLIT.split(body)
    key = pieces[0]
    if not key or len(key) > 63 or not _NAME_RE.match(key):
        return None
    value = pieces[1] if len(pieces) > 1 else ""
    if value and (len(value) > 63 or not _NAME_RE.match(value)):
        return None
    return prefix + key, value


def labels_from_tags(tags: Iterable[str]) -> dict[str, str]:
    """Node labels Kapsule derives from a pool's ``tags``.

    ``k=v`` -> ``k8s.scaleway.com/k=v``; ``noprefix=k=v`` -> ``k=v``;
    the ``node.kubernetes.io/exclude-from-external-load-balancers`` tag -> that
    label with value ``managed-by-scaleway-ccm``. Plain tags, ``taint=`` tags
    and malformed keys or values give no label. Later tags win on a repeated
    key. Sources: https://www.scaleway.com/en/docs/kubernetes/api-cli/managing-tags/,
    https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/tags.md and ``scaleway/sync.go``.
    """
    out: dict[str, str] = {}
    for tag in tags:
        if not isinstance(tag, str):
            continue
        tag = tag.strip()
        if not tag or tag.startswith(TAINT_TAG_PREFIX):
            continue
        if tag == EXCLUDE_FROM_LB_LABEL:
            out[EXCLUDE_FROM_LB_LABEL] = EXCLUDE_FROM_LB_LABEL_VALUE
            continue
        parsed = _parse_label_tag(tag, require_equals=True)
        if parsed is not None:
            out[parsed[0]] = parsed[1]
    return out


def taints_from_tags(tags: Iterable[str]) -> list[tuple[str, str, str]]:
    """Node taints Kapsule derives from a pool's ``tags``, as (key, value, effect).

    ``taint=k=v:Effect`` -> ``k8s.scaleway.com/k=v:Effect``;
    ``taint=noprefix=k=v:Effect`` -> ``k=v:Effect``. The effect is the text
    after the last ``:`` and must be one of NoSchedule, PreferNoSchedule or
    NoExecute, otherwise the tag is ignored (``tagTaintParser`` in
    https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/scaleway/sync.go).
    """
    out: list[tuple[str, str, str]] = []
    for tag in tags:
        if not isinstance(tag, str):
            continue
        tag = tag.strip()
        if not tag.startswith(TAINT_TAG_PREFIX):
            continue
        body = tag[len(TAINT_TAG_PREFIX):]
        head, sep, effect = body.rpartition(":")
        if not sep or effect not in TAINT_EFFECTS:
            continue
        parsed = _parse_label_tag(head.replace(":", ""), require_equals=False)
        if parsed is None:
            continue
        item = (parsed[0], parsed[1], effect)
        if item not in out:
            out.append(item)
    return out


_ARCH_LABEL_VALUES = {"x86_64": "amd64", "arm64": "arm64"}


def automatic_node_labels(
    *,
    pool_name: str | None = None,
    node_type: str | None = None,
    zone: str | None = None,
) -> dict[str, str]:
    """The automatic labels (with values) known for the nodes of one pool.

    Only what the inputs determine is returned: the pool name label, the
    instance type (canonical spelling), zone, region and CSI zone, ``linux``
    for the OS and the architecture of a recorded node type. The hostname
    differs per node and is never included.
    """
    labels: dict[str, str] = {OS_LABEL: "linux"}
    if pool_name:
        labels[POOL_NAME_LABEL] = pool_name
    if node_type and not is_external_node_type(node_type):
        n = normalize_node_type(node_type)
        labels[INSTANCE_TYPE_LABEL] = n
        t = INSTANCE_TYPES.get(n)
        if t is not None:
            labels[ARCH_LABEL] = _ARCH_LABEL_VALUES[t.arch]
    if zone:
        z = zone.strip().lower()
        labels[ZONE_LABEL] = z
        labels[CSI_ZONE_LABEL] = z
        region = region_of_zone(z)
        if region:
            labels[REGION_LABEL] = region
    return labels

