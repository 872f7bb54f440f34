"""The Kapsule questions about a plan (``--plan``): the planned changes of clusters, pools,
reserved load-balancer IPs and Helm releases, what forces a replacement (the plan's
``replace_paths``, explained by the replacement facts of the provider version in use), what goes
with a destroyed cluster, which Services name a reserved IP, and the order of control-plane offers.

The plan is the engine's (:func:`kapsulint.api.plan_binding`): each change is bound to its block
(and instance). Changes whose block is not in the code (KAP018) or lies behind a module that was not
read are left out here: only ``INSTANCE``, ``BLOCK`` and ``GONE`` (a block removed from the code,
judged from the plan alone) are judged.

Sources: Scaleway, "Kubernetes control plane offers" (dedicated offers of 4, 8 and 16 GB; "Downgrading
a cluster type is not allowed during the commitment period" of 30 days,
https://www.scaleway.com/en/docs/kubernetes/reference-content/kubernetes-control-plane-offers/);
"How to delete a Kubernetes Kapsule cluster" (https://www.scaleway.com/en/docs/kubernetes/how-to/delete-cluster/);
the provider's ``delete_additional_resources``
(https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_cluster.md).
"""

from __future__ import annotations

import datetime
import re
from typing import NamedTuple

from kapsulint.api import (
    BLOCK, GONE, INSTANCE, BoundChange, Loc, PlanBinding, Project, Related, ResourceInstance, Val, Version,
    plan_binding, shown,
)
from kapsulint.kapsule import cluster_types, lb_annotation_keys, lb_ips, replacement_facts, service
from kapsulint.kapsule.provider_releases import provider_version
from kapsulint.kapsule.replacement_facts import CLUSTER, HELM_RELEASE, LB_IP, POOL, Regression, Replacing

JUDGED = (INSTANCE, BLOCK, GONE)
_PROVIDERS = {CLUSTER: ("scaleway", "scaleway/scaleway"), POOL: ("scaleway", "scaleway/scaleway"),
              LB_IP: ("scaleway", "scaleway/scaleway"), HELM_RELEASE: ("helm", "hashicorp/helm")}


def binding(project: Project) -> PlanBinding | None:
    return plan_binding(project)


def changes(project: Project, resource_type: str) -> list[BoundChange]:
    """The judged changes of managed ``resource_type`` resources, in the plan's order."""
    bound = plan_binding(project)
    if bound is None:
        return []
    return [b for b in bound.of_type(resource_type) if b.status in JUDGED]


def version_of(project: Project, bound: BoundChange) -> Version | None:
    """The version of the provider of the change's resource the module uses (its root's lock
    file, else its constraints)."""
    names = _PROVIDERS.get(bound.change.address.type)
    plan = plan_binding(project)
    module = bound.module if bound.module is not None else plan.root if plan is not None else None
    if names is None or module is None:
        return None
    return provider_version(module, *names)


def value_at(value: Val, path: tuple[str | int, ...]) -> Val:
    """The value at an attribute path (names and list indexes); null when absent."""
    current = value
    for step in path:
        if not current.known:
            return current
        if isinstance(step, str):
            current = current.get(step)
        elif isinstance(current.raw, list) and 0 <= step < len(current.raw):
            current = current.raw[step]
        else:
            return Val(None, current.loc)
    return current


def text_of(value: Val) -> str | None:
    """A known string (or number) of a planned value; None when Unknown, null, or a structure."""
    if not value.known or value.raw is None or isinstance(value.raw, (dict, list, bool)):
        return None
    return value.text()


# -- what forces a replacement ---------------------------------------------------------------------


class Forcing(NamedTuple):
    """One path of ``replace_paths``: the argument, its values before and after, where the block
    writes it, and the fact (and regression) of the provider version that makes it replace."""

    argument: str  # a dotted path without list indexes: "autoscaler_config.log_level"
    before: Val
    after: Val
    loc: Loc | None
    fact: Replacing | None
    regression: Regression | None

    def describe(self) -> str:
        """``node_type "PRO2-S" -> "PRO2-M"`` (sensitive values masked), with the fact's condition
        or the regression when one explains it."""
        change = f"{self.argument} {_shown(self.before)} -> {_shown(self.after)}"
        if self.regression is not None:
            since = replacement_facts.version_text(self.regression.since)
            change += f" (ForceNew by a provider regression of {since} and later, {self.regression.fixed})"
        elif self.fact is not None and self.fact.when is not None:
            change += f" ({self.fact.when})"
        return change


def _shown(value: Val) -> str:
    if not value.known:
        return "(known after apply)"
    return "null" if value.raw is None and not value.contains_sensitive() else shown(value)


def forcing(project: Project, bound: BoundChange) -> list[Forcing]:
    """What forces the replacement of a change: one entry per ``replace_paths`` path; for a plan
    that gives none (a format or tool that does not write them) while the provider could not update,
    the top-level arguments whose value changes and that the replacement facts of the provider
    version say replace the resource."""
    change = bound.change
    version = version_of(project, bound)
    resource = change.address.type
    paths: tuple[tuple[str | int, ...], ...] = change.replace_paths
    if not paths and change.is_replacement and change.reason in (None, "replace_because_cannot_update"):
        paths = tuple((name,) for name in sorted(replacement_facts.replacing_arguments(resource, version) or ())
                      if _changes(bound, name))
    found = []
    for path in paths:
        top = path[0]
        if not isinstance(top, str):
            continue
        dotted = ".".join(step for step in path if isinstance(step, str))
        before = value_at(bound.before(top), path[1:])
        after = value_at(bound.after(top), path[1:])
        found.append(Forcing(dotted, before, after, bound.argument_loc(top),
                             replacement_facts.fact_for(resource, dotted, version),
                             replacement_facts.regression_for(resource, dotted, version)))
    return found


def _changes(bound: BoundChange, name: str) -> bool:
    """Whether a top-level argument certainly changes (both values known and different)."""
    before, after = bound.before(name), bound.after(name)
    return before.known and after.known and _plain(before) != _plain(after)


def _plain(value: Val) -> object:
    raw = value.raw
    if isinstance(raw, dict):
        return {k: _plain(v) for k, v in raw.items()}
    if isinstance(raw, list):
        return [_plain(v) for v in raw]
    return raw


_REASONS = {
    "replace_because_tainted": "it is tainted, an earlier create or apply of it having failed",
    "replace_by_request": "the plan was made with -replace",
    "replace_by_triggers": "a resource in its lifecycle replace_triggered_by changes",
}


def why_replaced(project: Project, bound: BoundChange) -> tuple[str, list[Related]]:
    """What forces a replacement, in words ("forced by node_type ...", "because it is tainted..."),
    and the places of the arguments that force it."""
    forces = forcing(project, bound)
    related = [Related(f.loc, f"{f.describe()} forces the replacement") for f in forces if f.loc is not None]
    if forces:
        return "forced by " + "; ".join(f.describe() for f in forces), related
    reason = _REASONS.get(bound.change.reason or "")
    if reason is not None:
        return "because " + reason, related
    return "forced by a change the provider cannot make in place", related


# -- clusters ----------------------------------------------------------------------------------------


def same_id(left: Val, right: Val) -> bool:
    """Two known ids naming one object (``fr-par/<uuid>`` and ``<uuid>`` name the same)."""
    a, b = text_of(left), text_of(right)
    if a is None or b is None:
        return False
    return a.rsplit("/", 1)[-1].lower() == b.rsplit("/", 1)[-1].lower()


def pools_going_with(project: Project, cluster: BoundChange) -> list[BoundChange]:
    """The pools of a cluster that the plan destroys too (their ``cluster_id`` before is its id)."""
    cluster_id = cluster.before("id")
    return [pool for pool in changes(project, POOL)
            if pool.change.deletes and same_id(pool.before("cluster_id"), cluster_id)]


def pools_kept(project: Project, cluster_id: Val, leaving: BoundChange) -> list[BoundChange]:
    """The pools of a cluster that exist after the plan, but ``leaving``."""
    kept = []
    for pool in changes(project, POOL):
        if pool is leaving or pool.change.is_delete or pool.change.is_forget:
            continue
        target = pool.after("cluster_id") if pool.change.creates else pool.before("cluster_id")
        if same_id(target, cluster_id):
            kept.append(pool)
    return kept


def minor_of(text: str | None) -> tuple[int, int, int | None] | None:
    """``"1.34.2"`` -> (1, 34, 2), ``"1.34"`` -> (1, 34, None); None for anything else."""
    if text is None:
        return None
    match = re.fullmatch(r"\s*v?(\d+)\.(\d+)(?:\.(\d+))?\s*", text)
    if match is None:
        return None
    patch = match.group(3)
    return int(match.group(1)), int(match.group(2)), int(patch) if patch is not None else None


class Offer(NamedTuple):
    """A control-plane offer's place: its family (Kapsule or Kosmos) and rank (0 mutualized, else
    the dedicated offer's memory in GB: 4, 8, 16)."""

    family: str
    rank: int


def offer(type_name: str | None) -> Offer | None:
    """The offer of a cluster ``type`` (absent or "" is the mutualized default); None when unknown."""
    facts = cluster_types.cluster_type(type_name)
    if facts is None:
        return None
    family = "multicloud" if facts.kosmos else "kapsule"
    if not facts.dedicated:
        return Offer(family, 0)
    match = re.search(r"-(\d+)$", facts.name)
    return Offer(family, int(match.group(1))) if match else None


def commitment_days(type_name: str | None) -> int:
    """The days a (dedicated) offer commits to from its start; 0 for the mutualized ones."""
    facts = cluster_types.cluster_type(type_name)
    return facts.commitment_days if facts is not None else 0


def parse_time(value: Val) -> datetime.datetime | None:
    """An RFC 3339 time of a planned value (``created_at``), in UTC; None when not one."""
    text = text_of(value)
    if text is None:
        return None
    try:
        moment = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return moment.astimezone(datetime.timezone.utc)


# -- reserved IPs and the Services that use them ------------------------------------------------------


class IpUse(NamedTuple):
    """A Service that names a reserved IP, and the value that names it."""

    service: service.ControllerService
    value: Val
    how: str  # "the scw-loadbalancer-ip-ids annotation" or "loadBalancerIP"


def services_using(project: Project, ip: BoundChange) -> list[IpUse]:
    """The Services of the configuration that name the reserved IP of a change: by a reference to
    its block (its ``id`` or ``ip_address``), or by its id or address written out."""
    uses = []
    ip_id = ip.before("id")
    address = text_of(ip.before("ip_address"))
    for svc in service.services(project):
        ids = svc.annotation(lb_annotation_keys.LB_IP_IDS)
        if ids.raw is not None and _names_ip(ids, ip, ip_id, None):
            uses.append(IpUse(svc, ids, "the scw-loadbalancer-ip-ids annotation"))
            continue
        written = svc.load_balancer_ip
        if written.raw is not None and _names_ip(written, ip, None, address):
            uses.append(IpUse(svc, written, "loadBalancerIP"))
    return uses


def _names_ip(value: Val, ip: BoundChange, ip_id: Val | None, address: str | None) -> bool:
    instance = lb_ips.lb_ip_of(value)
    if instance is not None:
        return _same_instance(instance, ip)
    text = text_of(value)
    if text is None:
        return False
    if ip_id is not None:
        wanted = text_of(ip_id)
        if wanted is None:
            return False
        uuid = wanted.rsplit("/", 1)[-1].lower()
        return any(item.rsplit("/", 1)[-1].lower() == uuid for item in lb_ips.ip_id_items(text))
    return address is not None and text.strip() == address


def _same_instance(instance: ResourceInstance, bound: BoundChange) -> bool:
    if bound.resource is None or instance.resource is not bound.resource:
        return False
    if bound.instance is None:
        return True  # the block is the same; its instance keys are not known
    return instance.key == bound.instance.key and instance.module is bound.instance.module


def release_service(project: Project, release: BoundChange) -> service.ControllerService | None:
    """The controller Service a planned ``helm_release`` renders (Kapsule evidence required)."""
    if release.resource is None:
        return None
    for svc in service.services(project):
        subject_release = svc.subject.release
        if subject_release is None or subject_release.instance.resource is not release.resource:
            continue
        if release.instance is None or subject_release.instance is release.instance:
            return svc
    return None


def reserves_no_ip(svc: service.ControllerService) -> bool | None:
    """Whether a LoadBalancer Service certainly reserves no IP (no ``ip-ids``, no
    ``loadBalancerIP``, not private, not externally managed): its load balancer's address goes
    with it. None when any of it is Unknown."""
    if svc.is_load_balancer is not True:
        return None if svc.is_load_balancer is None else False
    if not svc.annotations_known:
        return None
    for value in (svc.annotation(lb_annotation_keys.LB_IP_IDS), svc.load_balancer_ip):
        unset = _unset(value)
        if unset is not True:
            return unset
    for flag in (lb_annotation_keys.LB_PRIVATE, lb_annotation_keys.LB_EXTERNALLY_MANAGED):
        value = svc.annotation(flag)
        if value.raw is not None and not value.is_false():
            return None if not value.known else False
    return True


def _unset(value: Val) -> bool | None:
    if value.raw is None:
        return True
    if not value.known:
        return None
    text = value.text()
    return text is not None and not text.strip()


__all__ = [
    "Forcing",
    "IpUse",
    "JUDGED",
    "Offer",
    "binding",
    "changes",
    "commitment_days",
    "forcing",
    "minor_of",
    "offer",
    "parse_time",
    "pools_going_with",
    "pools_kept",
    "release_service",
    "reserves_no_ip",
    "same_id",
    "services_using",
    "text_of",
    "value_at",
    "version_of",
    "why_replaced",
]
