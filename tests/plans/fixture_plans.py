"""The plans of the KAP6xx fixtures, built from the structure Terraform writes (the recordings of
``tests/plans/recorded/``) and the attributes of the providers' schemas (scaleway v2.81.0, helm
v3.1.2): no Scaleway account is needed to make them, and ``tests/test_plans.py`` checks that each
committed ``plan.json`` is what this file builds and that it validates against the plan schema.

    python tests/plans/fixture_plans.py      # (re)writes fixtures/KAP6*/*/plan.json

A plan is described by its changes: an address, the actions, the reason, and the values before and
after (what the case needs; every other attribute of the resource comes from ``SCHEMAS``). As
Terraform does, the builder writes ``after_unknown`` for the computed attributes a create or a
replacement recomputes, ``before_sensitive``/``after_sensitive`` for the schema's sensitive ones,
``prior_state`` from the values before, and ``configuration`` from the addresses.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
TIMESTAMP = "2026-08-20T10:00:00Z"
TERRAFORM = "1.11.4"
SCALEWAY = "registry.terraform.io/scaleway/scaleway"
HELM = "registry.terraform.io/hashicorp/helm"
CLUSTER_ID = "fr-par/6a1f3c2e-1b2d-4e5f-8a9b-0c1d2e3f4a5b"
POOL_ID = "fr-par/7b2e4d3f-2c3e-4f60-9bac-1d2e3f4a5b6c"
PN_ID = "fr-par/8c3f5e40-3d4f-4071-8cbd-2e3f4a5b6c7d"
IP_UUID = "9d406f51-4e50-4182-9dce-3f4a5b6c7d8e"

# Every attribute of each resource type (top level), with the value a plan shows when a case says
# nothing of it; None for the computed attributes a create leaves unknown (COMPUTED).
SCHEMAS: dict[str, dict[str, Any]] = {
    "scaleway_k8s_cluster": {
        "admission_plugins": None, "apiserver_cert_sans": None, "apiserver_url": "https://6a1f3c2e.api.k8s.fr-par.scw.cloud:6443",
        "auto_upgrade": [{"enable": False, "maintenance_window_day": "any", "maintenance_window_start_hour": 0}],
        "autoscaler_config": [{
            "balance_similar_node_groups": False, "disable_scale_down": False, "estimator": "binpacking",
            "expander": "random", "expendable_pods_priority_cutoff": 0, "ignore_daemonsets_utilization": False,
            "log_level": 2, "max_graceful_termination_sec": 0, "scale_down_delay_after_add": "10m",
            "scale_down_unneeded_time": "10m", "scale_down_utilization_threshold": 0.5,
            "skip_nodes_with_local_storage": False}],
        "cni": "cilium", "created_at": "2026-01-12T09:30:00Z", "delete_additional_resources": False,
        "description": "", "feature_gates": None, "id": CLUSTER_ID,
        "kubeconfig": [{"cluster_ca_certificate": "LS0tLS1CRUdJTi1FWEFNUExFLUNBLS0tLS0=",
                        "config_file": "apiVersion: v1\nkind: Config\n# example kubeconfig\n",
                        "host": "https://6a1f3c2e.api.k8s.fr-par.scw.cloud:6443",
                        "token": "example-admin-token-not-real"}],
        "name": "prod", "open_id_connect_config": [], "organization_id": "11111111-2222-4333-8444-555555555555",
        "pod_cidr": "100.64.0.0/15", "private_network_id": PN_ID, "project_id": "11111111-2222-4333-8444-555555555555",
        "region": "fr-par", "service_cidr": "10.32.0.0/20", "service_dns_ip": "10.32.0.10",
        "srn": "srn:scaleway:k8s:fr-par:11111111-2222-4333-8444-555555555555:cluster/6a1f3c2e",
        "status": "ready", "tags": None, "timeouts": None, "type": "kapsule", "updated_at": "2026-08-01T08:00:00Z",
        "upgrade_available": False, "upgrade_pools": True, "version": "1.35.3", "wildcard_dns": "*.6a1f3c2e.nodes.k8s.fr-par.scw.cloud",
    },
    "scaleway_k8s_pool": {
        "autohealing": True, "autoscaling": False, "cluster_id": CLUSTER_ID, "container_runtime": "containerd",
        "created_at": "2026-01-12T09:40:00Z", "current_size": 3, "id": POOL_ID, "kubelet_args": None, "labels": None,
        "max_size": 3, "min_size": 1, "name": "apps", "node_type": "PRO2-S", "nodes": [],
        "placement_group_id": None, "public_ip_disabled": False, "region": "fr-par", "root_volume_size_in_gb": 20,
        "root_volume_type": "sbs_5k", "security_group_id": "fr-par-1/0a1b2c3d-4e5f-4061-8a7b-9c0d1e2f3a4b",
        "size": 3, "srn": "srn:scaleway:k8s:fr-par:11111111-2222-4333-8444-555555555555:pool/7b2e4d3f",
        "startup_taints": [], "status": "ready", "tags": None, "taints": [], "timeouts": None,
        "updated_at": "2026-08-01T08:00:00Z", "upgrade_policy": [{"max_surge": 0, "max_unavailable": 1}],
        "version": "1.35.3", "wait_for_pool_ready": True, "zone": "fr-par-1",
    },
    "scaleway_lb_ip": {
        "id": f"fr-par-1/{IP_UUID}", "ip_address": "51.159.10.20", "is_ipv6": False, "lb_id": "",
        "organization_id": "11111111-2222-4333-8444-555555555555", "project_id": "11111111-2222-4333-8444-555555555555",
        "region": "fr-par", "reverse": "51-159-10-20.lb.fr-par.scw.cloud", "tags": None, "timeouts": None,
        "zone": "fr-par-1",
    },
    "scaleway_vpc_private_network": {
        "created_at": "2026-01-12T09:00:00Z", "enable_default_route_propagation": True, "id": PN_ID,
        "ipv4_subnet": [{"address": "172.16.0.0", "created_at": "2026-01-12T09:00:00Z", "id": "c0ffee00-0000-4000-8000-000000000001",
                         "prefix_length": 22, "subnet": "172.16.0.0/22", "subnet_mask": "255.255.252.0",
                         "updated_at": "2026-01-12T09:00:00Z"}],
        "ipv6_subnets": [], "is_regional": True, "name": "k8s", "organization_id": "11111111-2222-4333-8444-555555555555",
        "project_id": "11111111-2222-4333-8444-555555555555", "region": "fr-par", "tags": None, "updated_at": "2026-01-12T09:00:00Z",
        "vpc_id": "fr-par/c0ffee00-0000-4000-8000-000000000002", "zone": None,
    },
    "helm_release": {
        "atomic": False, "chart": "ingress-nginx", "cleanup_on_fail": False, "create_namespace": True,
        "dependency_update": False, "description": None, "devel": None, "disable_crd_hooks": False,
        "disable_openapi_validation": False, "disable_webhooks": False, "force_update": False, "id": "ingress-nginx",
        "keyring": None, "lint": False, "max_history": 0,
        "metadata": {"app_version": "1.15.1", "chart": "ingress-nginx", "first_deployed": 1768210000,
                     "last_deployed": 1768210000, "name": "ingress-nginx", "namespace": "ingress-nginx",
                     "notes": "", "revision": 1, "values": "{}", "version": "4.15.1"},
        "name": "ingress-nginx", "namespace": "ingress-nginx", "pass_credentials": False, "postrender": None,
        "recreate_pods": False, "render_subchart_notes": True, "replace": False,
        "repository": "https://kubernetes.github.io/ingress-nginx", "repository_ca_file": None,
        "repository_cert_file": None, "repository_key_file": None, "repository_password": None,
        "repository_username": None, "reset_values": False, "reuse_values": False, "set": None, "set_list": None,
        "set_sensitive": None, "set_wo": None, "skip_crds": False, "status": "deployed", "timeout": 300,
        "upgrade_install": None, "values": None, "verify": False, "version": "4.15.1", "wait": True,
        "wait_for_jobs": False,
    },
}
# Attributes the provider computes: unknown after a create or a replacement (and updated_at after an update).
COMPUTED = {
    "scaleway_k8s_cluster": ("apiserver_url", "created_at", "id", "kubeconfig", "organization_id", "srn", "status",
                             "updated_at", "upgrade_available", "wildcard_dns"),
    "scaleway_k8s_pool": ("created_at", "current_size", "id", "nodes", "srn", "status", "updated_at", "version"),
    "scaleway_lb_ip": ("id", "ip_address", "lb_id", "organization_id", "region", "reverse"),
    "scaleway_vpc_private_network": ("created_at", "id", "organization_id", "updated_at"),
    "helm_release": ("id", "metadata"),
}
SENSITIVE = {"scaleway_k8s_cluster": ("kubeconfig",), "helm_release": ("repository_password",)}
PROVIDER = {"helm_release": HELM}


class Change(NamedTuple):
    """One resource change of a fixture plan. ``before``/``after`` override the schema's values
    (None: no object on that side); ``unknown`` adds attributes unknown after."""

    address: str
    actions: tuple[str, ...]
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    reason: str | None = None
    replace_paths: tuple[tuple[str | int, ...], ...] = ()
    unknown: tuple[str, ...] = ()


def _parts(address: str) -> tuple[str, str, str, str | None, Any]:
    """(module address, type, name, mode, index) of a fixture address (root or one module level)."""
    module = None
    rest = address
    if rest.startswith("module."):
        head, rest = rest.split(".", 2)[1], rest.split(".", 2)[2]
        module = f"module.{head}"
    index: Any = None
    if rest.endswith("]"):
        rest, key = rest[:-1].split("[", 1)
        index = json.loads(key)
    kind, name = rest.split(".")
    return module or "", kind, name, "managed", index


def _values(kind: str, overrides: dict[str, Any]) -> dict[str, Any]:
    values = {k: v for k, v in SCHEMAS[kind].items()}
    values.update(overrides)
    return dict(sorted(values.items()))


def _sensitive(kind: str, values: dict[str, Any] | None) -> dict[str, Any]:
    return {name: True for name in SENSITIVE.get(kind, ()) if values is not None and values.get(name) is not None}


def resource_change(change: Change) -> dict[str, Any]:
    module, kind, name, mode, index = _parts(change.address)
    creates = "create" in change.actions
    before = _values(kind, change.before) if change.before is not None else None
    after: dict[str, Any] | None = None
    unknown: dict[str, Any] = {}
    if change.after is not None:
        after = _values(kind, {**(before or {}), **change.after} if before and not creates else change.after)
        updates = "update" in change.actions and "updated_at" in SCHEMAS[kind]
        recomputed = set(COMPUTED[kind]) if creates else {"updated_at"} if updates else set()
        for attribute in sorted(recomputed | set(change.unknown)):
            after.pop(attribute, None)
            unknown[attribute] = True
    entry: dict[str, Any] = {"address": change.address}
    if module:
        entry["module_address"] = module
    entry.update({"mode": mode, "type": kind, "name": name})
    if index is not None:
        entry["index"] = index
    entry["provider_name"] = PROVIDER.get(kind, SCALEWAY)
    body: dict[str, Any] = {"actions": list(change.actions), "before": before, "after": after,
                            "after_unknown": unknown}
    body["before_sensitive"] = _sensitive(kind, before) if before is not None else False
    body["after_sensitive"] = _sensitive(kind, after) if after is not None else False
    if change.replace_paths:
        body["replace_paths"] = [list(path) for path in change.replace_paths]
    entry["change"] = body
    if change.reason is not None:
        entry["action_reason"] = change.reason
    return entry


def _state_resource(change: Change) -> dict[str, Any]:
    module, kind, name, mode, index = _parts(change.address)
    resource: dict[str, Any] = {"address": change.address, "mode": mode, "type": kind, "name": name}
    if index is not None:
        resource["index"] = index
    resource.update({"provider_name": PROVIDER.get(kind, SCALEWAY), "schema_version": 0,
                     "values": _values(kind, change.before or {}),
                     "sensitive_values": _sensitive(kind, _values(kind, change.before or {}))})
    return resource


def plan(changes: list[Change], configured: list[str] | None = None) -> dict[str, Any]:
    """A whole plan: ``configured`` lists the addresses the configuration holds (by default every
    change that does not delete its object for want of configuration)."""
    entries = [resource_change(c) for c in changes]
    in_state = [c for c in changes if c.before is not None]
    roots: dict[str, list[dict[str, Any]]] = {}
    for c in in_state:
        roots.setdefault(_parts(c.address)[0], []).append(_state_resource(c))
    state_root: dict[str, Any] = {"resources": roots.pop("", [])}
    if roots:
        state_root["child_modules"] = [{"resources": rs, "address": m} for m, rs in sorted(roots.items())]
    gone = ("delete_because_no_resource_config", "delete_because_no_module")
    addresses = configured if configured is not None else [c.address for c in changes if c.reason not in gone]
    config_root: dict[str, Any] = {"resources": []}
    for address in dict.fromkeys(addresses):
        module, kind, name, mode, index = _parts(address)
        resource = {"address": f"{kind}.{name}", "mode": mode, "type": kind, "name": name,
                    "provider_config_key": "helm" if kind == "helm_release" else "scaleway",
                    "expressions": {}, "schema_version": 0}
        if module:
            calls = config_root.setdefault("module_calls", {})
            call = calls.setdefault(module.split(".", 1)[1], {"source": "./modules/" + module.split(".", 1)[1],
                                                              "module": {"resources": []}})
            if all(r["address"] != resource["address"] for r in call["module"]["resources"]):
                call["module"]["resources"].append(resource)
        elif all(r["address"] != resource["address"] for r in config_root["resources"]):
            config_root["resources"].append(resource)
    planned = [{"address": e["address"], "mode": e["mode"], "type": e["type"], "name": e["name"],
                "provider_name": e["provider_name"], "schema_version": 0,
                "values": e["change"]["after"], "sensitive_values": e["change"]["after_sensitive"] or {}}
               for e in entries if e["change"]["after"] is not None and "forget" not in e["change"]["actions"]]
    document: dict[str, Any] = {
        "format_version": "1.2",
        "terraform_version": TERRAFORM,
        "planned_values": {"root_module": {"resources": planned}},
        "resource_changes": entries,
    }
    if in_state:
        document["prior_state"] = {"format_version": "1.0", "terraform_version": TERRAFORM,
                                   "values": {"root_module": state_root}}
    document["configuration"] = {
        "provider_config": {"scaleway": {"name": "scaleway", "full_name": SCALEWAY},
                            "helm": {"name": "helm", "full_name": HELM}},
        "root_module": config_root,
    }
    document.update({"timestamp": TIMESTAMP, "applyable": True, "complete": True, "errored": False})
    return document


NOOP = ("no-op",)
CREATE = ("create",)
UPDATE = ("update",)
DELETE = ("delete",)
DELETE_FIRST = ("delete", "create")
CREATE_FIRST = ("create", "delete")
CANNOT_UPDATE = "replace_because_cannot_update"
NO_CONFIG = "delete_because_no_resource_config"
CLUSTER = "scaleway_k8s_cluster.main"
POOL = "scaleway_k8s_pool.apps"
NETWORK = "scaleway_vpc_private_network.k8s"


def noop(address: str, values: dict[str, Any] | None = None) -> Change:
    values = values or {}
    return Change(address, NOOP, values, values)


def replaced(address: str, before: dict[str, Any], after: dict[str, Any], first: tuple[str, ...] = DELETE_FIRST,
             paths: tuple[tuple[str | int, ...], ...] = (), reason: str = CANNOT_UPDATE) -> Change:
    return Change(address, first, before, {**SCHEMAS[_parts(address)[1]], **before, **after}, reason, paths)


def _days_before(days: int) -> str:
    import datetime

    moment = datetime.datetime.fromisoformat(TIMESTAMP.replace("Z", "+00:00")) - datetime.timedelta(days=days)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


ONLY_CREATES = plan([
    Change(NETWORK, CREATE, None, {"name": "k8s"}),
    Change(CLUSTER, CREATE, None, {"name": "prod", "delete_additional_resources": True, "private_network_id": None},
           unknown=("private_network_id",)),
    Change(POOL, CREATE, None, {"name": "apps", "cluster_id": None}, unknown=("cluster_id",)),
])

# fixture directory -> plan
CASES: dict[str, dict[str, Any]] = {
    "KAP601/fires-node-type-change-deletes-first": plan([
        noop(NETWORK), noop(CLUSTER),
        replaced(POOL, {"node_type": "PRO2-S"}, {"node_type": "PRO2-M"}, paths=(("node_type",),)),
    ]),
    "KAP601/silent-create-before-destroy": plan([
        noop(NETWORK), noop(CLUSTER),
        replaced(POOL, {"node_type": "PRO2-S", "name": "apps-pro2-s"}, {"node_type": "PRO2-M", "name": None},
                 first=CREATE_FIRST, paths=(("node_type",),)),
    ]),
    "KAP601/silent-external-pool-of-kosmos": plan([
        noop(CLUSTER, {"type": "multicloud", "cni": "kilo", "private_network_id": None}),
        replaced(POOL, {"node_type": "external", "size": 0, "min_size": 0}, {"node_type": "external", "zone": "nl-ams-1"},
                 paths=(("zone",),)),
    ]),
    "KAP601/silent-only-creates": ONLY_CREATES,
    "KAP602/fires-same-name-created-first": plan([
        noop(NETWORK), noop(CLUSTER),
        replaced(POOL, {"node_type": "PRO2-S", "name": "apps"}, {"node_type": "PRO2-M", "name": "apps"},
                 first=CREATE_FIRST, paths=(("node_type",),)),
    ]),
    "KAP602/silent-generated-name": plan([
        noop(NETWORK), noop(CLUSTER),
        Change(POOL, CREATE_FIRST, {"node_type": "PRO2-S", "name": "pool-elegant-hopper"},
               {**SCHEMAS["scaleway_k8s_pool"], "node_type": "PRO2-M"}, CANNOT_UPDATE, (("node_type",),), ("name",)),
    ]),
    "KAP602/silent-deletes-first": plan([
        noop(NETWORK), noop(CLUSTER),
        replaced(POOL, {"node_type": "PRO2-S", "name": "apps"}, {"node_type": "PRO2-M", "name": "apps"},
                 paths=(("node_type",),)),
    ]),
    "KAP603/fires-cni-change": plan([
        noop(NETWORK),
        replaced(CLUSTER, {"cni": "cilium"}, {"cni": "calico"}, paths=(("cni",),)),
        Change(POOL, DELETE_FIRST, {}, SCHEMAS["scaleway_k8s_pool"], CANNOT_UPDATE, (("cluster_id",),), ("cluster_id",)),
    ]),
    "KAP603/fires-autoscaler-log-level-at-2-78": plan([
        noop(NETWORK),
        replaced(CLUSTER, {"delete_additional_resources": True},
                 {"autoscaler_config": [{**SCHEMAS["scaleway_k8s_cluster"]["autoscaler_config"][0], "log_level": 4}]},
                 paths=(("autoscaler_config", 0, "log_level"),)),
    ]),
    "KAP603/fires-tainted": plan([
        noop(NETWORK),
        replaced(CLUSTER, {}, {}, reason="replace_because_tainted"),
    ]),
    "KAP603/silent-version-upgraded-in-place": plan([
        noop(NETWORK),
        Change(CLUSTER, UPDATE, {"version": "1.34.6"}, {"version": "1.35.3"}),
    ]),
    "KAP604/fires-cluster-removed-with-additional-resources": plan([
        noop(NETWORK),
        Change(CLUSTER, DELETE, {"delete_additional_resources": True}, None, NO_CONFIG),
        Change(POOL, DELETE, {}, None, NO_CONFIG),
    ]),
    "KAP604/fires-destroy-plan-keeps-volumes": plan([
        Change(NETWORK, DELETE, {}, None),
        Change(CLUSTER, DELETE, {"delete_additional_resources": False}, None),
        Change(POOL, DELETE, {}, None),
    ], configured=[NETWORK, CLUSTER, POOL]),
    "KAP604/fires-last-pool-removed": plan([
        noop(NETWORK), noop(CLUSTER),
        Change(POOL, DELETE, {}, None, NO_CONFIG),
    ]),
    "KAP604/silent-pool-removed-another-remains": plan([
        noop(NETWORK), noop(CLUSTER),
        noop("scaleway_k8s_pool.web", {"name": "web", "id": "fr-par/5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b"}),
        Change(POOL, DELETE, {}, None, NO_CONFIG),
    ]),
    "KAP604/silent-only-creates": ONLY_CREATES,
    "KAP605/fires-cluster-renamed": plan([
        noop(NETWORK),
        Change(CLUSTER, UPDATE, {"name": "prod"}, {"name": "production"}),
    ]),
    "KAP605/silent-description-changed": plan([
        noop(NETWORK),
        Change(CLUSTER, UPDATE, {"description": ""}, {"description": "production cluster"}),
    ]),
    "KAP606/fires-ip-removed-while-annotation-names-it": plan([
        noop(NETWORK), noop(CLUSTER), noop(POOL), noop("helm_release.ingress"),
        Change("scaleway_lb_ip.ingress", DELETE, {}, None, NO_CONFIG),
    ]),
    "KAP606/fires-ip-zone-change-replaces-it": plan([
        noop(NETWORK), noop(CLUSTER), noop(POOL),
        replaced("scaleway_lb_ip.ingress", {"zone": "fr-par-1"}, {"zone": "fr-par-2"}, paths=(("zone",),)),
        Change("helm_release.ingress", UPDATE, {}, {"values": None}, unknown=("values",)),
    ]),
    "KAP606/silent-ip-not-used": plan([
        noop(NETWORK), noop(CLUSTER), noop(POOL), noop("helm_release.ingress"),
        Change("scaleway_lb_ip.spare", DELETE, {"id": "fr-par-1/0f1e2d3c-4b5a-4968-8776-655443322110",
                                                "ip_address": "51.159.10.99"}, None, NO_CONFIG),
    ]),
    "KAP606/silent-ip-tags-updated": plan([
        noop(NETWORK), noop(CLUSTER), noop(POOL), noop("helm_release.ingress"),
        Change("scaleway_lb_ip.ingress", UPDATE, {"tags": None}, {"tags": ["ingress"]}),
    ]),
    "KAP607/fires-two-minors-at-once": plan([
        noop(NETWORK),
        Change(CLUSTER, UPDATE, {"version": "1.33.10"}, {"version": "1.35.3"}),
    ]),
    "KAP607/fires-downgrade": plan([
        noop(NETWORK),
        Change(CLUSTER, UPDATE, {"version": "1.35.3"}, {"version": "1.34.6"}),
    ]),
    "KAP607/silent-one-minor-up": plan([
        noop(NETWORK),
        Change(CLUSTER, UPDATE, {"version": "1.34.6"}, {"version": "1.35.3"}),
    ]),
    "KAP607/silent-minor-with-auto-upgrade": plan([
        noop(NETWORK),
        Change(CLUSTER, UPDATE, {"version": "1.34", "auto_upgrade": [{"enable": True, "maintenance_window_day": "sunday",
                                                                       "maintenance_window_start_hour": 3}]},
               {"version": "1.35"}),
    ]),
    "KAP608/fires-dedicated-lowered-12-days-after-creation": plan([
        noop(NETWORK),
        replaced(CLUSTER, {"type": "kapsule-dedicated-8", "created_at": _days_before(12)},
                 {"type": "kapsule-dedicated-4"}, paths=(("type",),)),
    ]),
    "KAP608/fires-update-refused-within-commitment": plan([
        noop(NETWORK),
        Change(CLUSTER, UPDATE, {"type": "kapsule-dedicated-4", "created_at": _days_before(29)}, {"type": "kapsule"}),
    ]),
    "KAP608/silent-after-the-commitment": plan([
        noop(NETWORK),
        Change(CLUSTER, UPDATE, {"type": "kapsule-dedicated-8", "created_at": _days_before(45)},
               {"type": "kapsule-dedicated-4"}),
    ]),
    "KAP608/silent-moved-to-a-higher-offer": plan([
        noop(NETWORK),
        Change(CLUSTER, UPDATE, {"type": "kapsule-dedicated-4", "created_at": _days_before(3)},
               {"type": "kapsule-dedicated-8"}),
    ]),
    "KAP609/fires-namespace-change-replaces-release": plan([
        noop(NETWORK), noop(CLUSTER), noop(POOL),
        replaced("helm_release.ingress", {"namespace": "ingress-nginx"}, {"namespace": "ingress"},
                 paths=(("namespace",),)),
    ]),
    "KAP609/silent-release-with-reserved-ip": plan([
        noop(NETWORK), noop(CLUSTER), noop(POOL), noop("scaleway_lb_ip.ingress"),
        replaced("helm_release.ingress", {"namespace": "ingress-nginx"}, {"namespace": "ingress"},
                 paths=(("namespace",),)),
    ]),
    "KAP609/silent-release-updated-in-place": plan([
        noop(NETWORK), noop(CLUSTER), noop(POOL),
        Change("helm_release.ingress", UPDATE, {"version": "4.15.0"}, {"version": "4.15.1"}, unknown=("metadata",)),
    ]),
}


def text(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2) + "\n"


def main() -> int:
    for case, document in CASES.items():
        target = FIXTURES / case / "plan.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text(document), encoding="utf-8")
        print(target.relative_to(ROOT), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
