#!/usr/bin/env python3
"""kapsulint's benchmark: a synthetic Kapsule monorepo, the parse floor, kapsulint cold and warm.

    python benchmarks/bench.py [--scales 10,100,1000] [--runs 5] [--markdown BENCHMARKS.md]
                               [--workdir DIR] [--checkov PATH] [--variant base|registry] [--tree DIR]

For each scale (a number of modules) it generates a deterministic monorepo, then measures, each
figure the median of ``--runs`` runs (at most 3 at 1,000 modules and above), every run a fresh
subprocess so that imports count the same way everywhere. The timed figures of a scale are taken
in interleaved rounds (floor, cold, warm, ..., then again), so that a machine whose speed drifts
does not skew their ratios:

* floor: one process that parses every ``.tf`` file with python-hcl2 to a raw lark tree and loads
  every values file with ruamel.yaml (round-trip loader), python-hcl2's grammar cache present;
* kapsulint cold (grammar cache present, parse cache empty), warm (cache filled by a previous
  run), warm after one edit (one file changed since the run before), first run after install
  (empty cache directory), ``--jobs 1`` cold, ``--no-cache``; with ``--variant registry``, one
  root warm with and without ``--plan``;
* peak memory: the peak of the summed RSS of the process tree (kapsulint and its workers),
  sampled every 10 ms in separate runs so that sampling does not slow the timed ones;
* a bare ``python -c pass`` and a small project (examples/production), warm;
* Checkov, when ``checkov`` is on PATH or given with ``--checkov`` (reported, not a target).

``--tree DIR`` measures a real tree the same way (the floor counting the files that fail to
parse). It prints a Markdown table with the ratios to the floor and the targets of issues 6 and
27 with a verdict each, and writes the same document to ``--markdown FILE``. The generator and
the memory sampler are importable (``generate_monorepo``, ``tree_rss_bytes``, ``PeakRssSampler``)
for the test suite.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
SMALL_PROJECT = REPO_ROOT / "examples" / "production"
SEED = 6
SAMPLE_INTERVAL = 0.010
MB = 1_000_000

# --------------------------------------------------------------------------------------------
# The synthetic monorepo
# --------------------------------------------------------------------------------------------

TEAMS = ["payments", "search", "platform", "data", "checkout", "identity", "media", "ads", "crm", "ml"]
ENVIRONMENTS = ["dev", "staging", "prod"]
REGIONS = ["fr-par", "nl-ams", "pl-waw"]
DEDICATED_TYPES = ["POP2-4C-16G", "POP2-8C-32G", "POP2-HC-8C-16G", "POP2-HM-4C-32G"]
SHARED_TYPES = ["DEV1-M", "PLAY2-MICRO", "PRO2-S", "GP1-S"]  # shared vCPUs: a KAP301 footgun
APP_TYPES = ["PRO2-S", "PRO2-M", "PRO2-L", "POP2-8C-32G", "GP1-M"]
CONTROL_PLANES = ["kapsule", "kapsule-dedicated-4", "kapsule-dedicated-8", "kapsule-dedicated-16"]
K8S_VERSIONS = ["1.30", "1.31", "1.32"]
DAYS = ["monday", "tuesday", "wednesday", "thursday", "sunday"]

CHARTS = {
    "haproxytech": ("https://haproxytech.github.io/helm-charts", "kubernetes-ingress", ["1.41.0", "1.43.1", "1.44.3"]),
    "ingress-nginx": ("https://kubernetes.github.io/ingress-nginx", "ingress-nginx", ["4.10.1", "4.11.3", "4.12.0"]),
    "traefik": ("https://traefik.github.io/charts", "traefik", ["28.3.0", "32.1.0", "33.2.1"]),
}


@dataclass
class CorpusStats:
    modules: int = 0
    tf_files: int = 0
    tf_bytes: int = 0
    values_files: int = 0
    values_bytes: int = 0
    tfvars_files: int = 0
    tfvars_bytes: int = 0
    json_files: int = 0  # plans and modules.json (registry variant)
    json_bytes: int = 0
    downloaded_tf_files: int = 0  # of tf_files, those under .terraform/modules

    @property
    def files(self) -> int:
        return self.tf_files + self.values_files + self.tfvars_files + self.json_files

    @property
    def bytes(self) -> int:
        return self.tf_bytes + self.values_bytes + self.tfvars_bytes + self.json_bytes

    def add(self, path: Path, text: str) -> None:
        size = len(text.encode("utf-8"))
        if path.name.endswith(".json"):
            self.json_files += 1
            self.json_bytes += size
        elif path.name.endswith(".tf"):
            self.downloaded_tf_files += ".terraform" in path.parts
            self.tf_files += 1
            self.tf_bytes += size
        elif path.name.endswith(".tfvars"):
            self.tfvars_files += 1
            self.tfvars_bytes += size
        else:
            self.values_files += 1
            self.values_bytes += size


def module_name(index: int) -> str:
    team = TEAMS[index % len(TEAMS)]
    env = ENVIRONMENTS[(index // len(TEAMS)) % len(ENVIRONMENTS)]
    return f"{team}-{env}-{index:04d}"


def generate_monorepo(root: Path, modules: int, seed: int = SEED, variant: str = "base") -> CorpusStats:
    """Write a monorepo of ``modules`` Kapsule root modules under ``root``; the same every time.

    Layout: ``clusters/<team>-<env>-<nnnn>/`` (versions.tf, network.tf, cluster.tf, pools.tf,
    ingress.tf, values/ingress-values.yaml, terraform.tfvars on most) and one shared local module
    ``modules/pool`` that every fourth cluster calls.

    The ``registry`` variant writes the same files and, per root, ``registry.tf`` (two registry
    module calls with ``version``, one of them calling a third registry module), ``addons.tf`` (a
    ``helm_release`` reading ``helm/monitoring-values.yaml``), a standalone
    ``helm/values-<env>.yaml``, about half of those values files holding quoted ``{{ }}`` template
    expressions; ``.terraform/modules/`` as ``terraform init`` lays it out (``modules.json`` and
    every module) on four roots in five, the fifth left without it (KAP011); and
    ``plans/<name>.json``, the ``terraform show -json`` of a plan, for every fiftieth root.
    """
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r} (one of {', '.join(VARIANTS)})")
    root = Path(root)
    stats = CorpusStats(modules=modules)

    def write(relative: str, text: str) -> None:
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        stats.add(path, text)

    for name, text in _pool_module().items():
        write(f"modules/pool/{name}", text)
    for index in range(modules):
        rng = random.Random(f"{seed}:{index}")
        name = module_name(index)
        spec = _cluster_spec(index, name, rng)
        files = _cluster_files(spec, rng)
        if variant == "registry":
            extra = _registry_spec(spec, seed)
            files.update(_registry_root_files(spec, extra))
            if has_terraform_dir(index):
                files.update(_downloaded_modules(spec, extra))
            if index % PLAN_EVERY == 0:
                write(f"plans/{name}.json", _plan_json(spec, extra))
        for file_name, text in files.items():
            write(f"clusters/{name}/{file_name}", text)
    return stats


def monorepo_name(scale: int, variant: str = "base") -> str:
    """The monorepo's directory name in the work directory: ``monorepo-100``, ``monorepo-registry-100``."""
    return f"monorepo-{scale}" if variant == "base" else f"monorepo-{variant}-{scale}"


def _pool_module() -> dict[str, str]:
    variables = '''\
variable "cluster_id" {
  description = "The Kapsule cluster the pool belongs to."
  type        = string
}

variable "name" {
  description = "Pool name prefix; the node type is appended so a replacement gets a new name."
  type        = string
}

variable "node_type" {
  description = "Instance type of the nodes."
  type        = string
  default     = "POP2-4C-16G"
}

variable "size" {
  type    = number
  default = 2
}

variable "min_size" {
  type    = number
  default = 1
}

variable "max_size" {
  type    = number
  default = 5
}

variable "zone" {
  type    = string
  default = null
}

variable "tags" {
  type    = list(string)
  default = []
}
'''
    main = '''\
# A node pool with the settings every team should use: autohealing, autoscaling and a name that
# changes with the node type so that create_before_destroy can replace it.
resource "scaleway_k8s_pool" "this" {
  cluster_id          = var.cluster_id
  name                = "${var.name}-${lower(replace(var.node_type, "-", "_"))}"
  node_type           = var.node_type
  size                = var.size
  min_size            = var.min_size
  max_size            = var.max_size
  zone                = var.zone
  autoscaling         = true
  autohealing         = true
  container_runtime   = "containerd"
  wait_for_pool_ready = true
  tags                = concat(var.tags, ["pool=${var.name}"])

  upgrade_policy {
    max_surge       = 1
    max_unavailable = 0
  }

  lifecycle {
    create_before_destroy = true
    ignore_changes        = [size]
  }
}
'''
    outputs = '''\
output "id" {
  value = scaleway_k8s_pool.this.id
}

output "name" {
  value = scaleway_k8s_pool.this.name
}
'''
    return {"variables.tf": variables, "main.tf": main, "outputs.tf": outputs}


def _cluster_spec(index: int, name: str, rng: random.Random) -> dict:
    team, env = name.split("-")[0], ENVIRONMENTS[(index // len(TEAMS)) % len(ENVIRONMENTS)]
    region = rng.choice(REGIONS)
    chart_kind = rng.choice(list(CHARTS))
    footgun_node = rng.random() < 0.25  # the ingress lands on a shared-vCPU pool
    footgun_open = rng.random() < 0.3  # PROXY protocol / ACL trusting 0.0.0.0/0
    has_backend = rng.random() < 0.75
    uses_values_file = rng.random() < 0.5
    calls_shared_pool = index % 4 == 3
    fixed_pool_name = rng.random() < 0.1  # KAP202: create_before_destroy with a name that never changes
    stats_port_open = rng.random() < 0.2  # KAP310 on haproxytech
    spec = dict(
        index=index, name=name, team=team, env=env, region=region, chart=chart_kind,
        footgun_node=footgun_node, footgun_open=footgun_open, has_backend=has_backend,
        uses_values_file=uses_values_file, calls_shared_pool=calls_shared_pool,
        control_plane=rng.choice(CONTROL_PLANES), k8s=rng.choice(K8S_VERSIONS),
        day=rng.choice(DAYS), hour=rng.randrange(0, 6), octet=index % 250,
        system_type=rng.choice(SHARED_TYPES if footgun_node else DEDICATED_TYPES),
        app_type=rng.choice(APP_TYPES), scw_version=f"~> 2.{rng.randrange(60, 81)}",
        helm_version=rng.choice(["~> 3.0", "~> 3.1"]), chart_version=rng.choice(CHARTS[chart_kind][2]),
        gpu=rng.random() < 0.3, replicas=rng.randrange(2, 5),
        fixed_pool_name=fixed_pool_name, stats_port_open=stats_port_open,
    )
    return spec


def _cluster_files(spec: dict, rng: random.Random) -> dict[str, str]:
    """The files of one cluster; ``_pools_tf`` records the app pools it drew in ``spec``."""
    files = {
        "versions.tf": _versions_tf(spec),
        "network.tf": _network_tf(spec),
        "cluster.tf": _cluster_tf(spec),
        "pools.tf": _pools_tf(spec, rng),
        "ingress.tf": _ingress_tf(spec),
        "values/ingress-values.yaml": _values_yaml(spec, rng),
    }
    if spec["index"] % 3 != 2:
        files["terraform.tfvars"] = _tfvars(spec)
    return files


def _versions_tf(s: dict) -> str:
    backend = ""
    if s["has_backend"]:
        backend = f'''
  backend "s3" {{
    bucket                      = "tfstate-{s["team"]}"
    key                         = "kapsule/{s["name"]}.tfstate"
    region                      = "fr-par"
    endpoints                   = {{ s3 = "https://s3.fr-par.scw.cloud" }}
    skip_credentials_validation = true
    skip_region_validation      = true
    skip_requesting_account_id  = true
    skip_s3_checksum            = true
  }}
'''
    return f'''\
terraform {{
  required_version = ">= 1.6"

  required_providers {{
    scaleway = {{
      source  = "scaleway/scaleway"
      version = "{s["scw_version"]}"
    }}
    helm = {{
      source  = "hashicorp/helm"
      version = "{s["helm_version"]}"
    }}
  }}
{backend}}}

provider "scaleway" {{
  region     = var.region
  zone       = "${{var.region}}-1"
  project_id = var.project_id
}}

provider "helm" {{
  kubernetes = {{
    host                   = scaleway_k8s_cluster.main.kubeconfig[0].host
    token                  = scaleway_k8s_cluster.main.kubeconfig[0].token
    cluster_ca_certificate = base64decode(scaleway_k8s_cluster.main.kubeconfig[0].cluster_ca_certificate)
  }}
}}
'''


def _network_tf(s: dict) -> str:
    return f'''\
locals {{
  vpc_cidr     = "10.{s["octet"]}.0.0/16"
  nodes_subnet = cidrsubnet(local.vpc_cidr, 6, 1)
}}

resource "scaleway_vpc" "main" {{
  name   = "${{local.name}}-vpc"
  region = var.region
  tags   = local.common_tags
}}

resource "scaleway_vpc_private_network" "nodes" {{
  name   = "${{local.name}}-nodes"
  vpc_id = scaleway_vpc.main.id
  tags   = local.common_tags

  ipv4_subnet {{
    subnet = local.nodes_subnet
  }}
}}

resource "scaleway_vpc_public_gateway_ip" "egress" {{
  zone = "${{var.region}}-1"
}}

resource "scaleway_vpc_public_gateway" "egress" {{
  name  = "${{local.name}}-egress"
  type  = "VPC-GW-S"
  zone  = "${{var.region}}-1"
  ip_id = scaleway_vpc_public_gateway_ip.egress.id
  tags  = local.common_tags
}}

resource "scaleway_vpc_gateway_network" "nodes" {{
  gateway_id         = scaleway_vpc_public_gateway.egress.id
  private_network_id = scaleway_vpc_private_network.nodes.id
  enable_masquerade  = true

  ipam_config {{
    push_default_route = true
  }}
}}

resource "scaleway_lb_ip" "ingress" {{
  zone = "${{var.region}}-1"
  tags = local.common_tags
}}
'''


def _cluster_tf(s: dict) -> str:
    acl_source = "0.0.0.0/0" if s["footgun_open"] else f"198.51.100.{s['octet'] % 200}/32"
    return f'''\
variable "region" {{
  description = "Scaleway region of the cluster and its network."
  type        = string
  default     = "{s["region"]}"
}}

variable "environment" {{
  type    = string
  default = "{s["env"]}"
}}

variable "project_id" {{
  description = "Scaleway project; the provider's default project when null."
  type        = string
  default     = null
}}

variable "kubernetes_version" {{
  description = "Minor version; patches are applied by auto-upgrade."
  type        = string
  default     = "{s["k8s"]}"
}}

variable "apps_node_type" {{
  type    = string
  default = "{s["app_type"]}"
}}

variable "system_node_type" {{
  description = "Nodes of the system pool, where the ingress controller runs."
  type        = string
  default     = "{s["system_type"]}"
}}

locals {{
  name        = "{s["team"]}-${{var.environment}}-{s["index"]:04d}"
  common_tags = ["team={s["team"]}", "env=${{var.environment}}", "managed-by=terraform"]
}}

resource "scaleway_k8s_cluster" "main" {{
  name                        = local.name
  type                        = "{s["control_plane"]}"
  version                     = var.kubernetes_version
  cni                         = "cilium"
  private_network_id          = scaleway_vpc_private_network.nodes.id
  delete_additional_resources = false
  tags                        = local.common_tags

  auto_upgrade {{
    enable                        = true
    maintenance_window_start_hour = {s["hour"]}
    maintenance_window_day        = "{s["day"]}"
  }}

  depends_on = [scaleway_vpc_gateway_network.nodes]
}}

resource "scaleway_k8s_acl" "main" {{
  cluster_id = scaleway_k8s_cluster.main.id

  acl_rules {{
    ip          = "{acl_source}"
    description = "operators"
  }}

  acl_rules {{
    scaleway_ranges = true
    description     = "Scaleway services"
  }}
}}

output "cluster_id" {{
  value = scaleway_k8s_cluster.main.id
}}

output "kubeconfig" {{
  value     = scaleway_k8s_cluster.main.kubeconfig[0].config_file
  sensitive = true
}}
'''


def _pools_tf(s: dict, rng: random.Random) -> str:
    app_pools = []
    s["app_pools"] = drawn = []
    for pool in ("web", "workers", "batch")[: rng.randrange(1, 4)]:
        low = rng.randrange(1, 3)
        node_type = rng.choice(APP_TYPES)
        high = low + rng.randrange(2, 8)
        drawn.append((pool, node_type, low, high))
        app_pools.append(
            f'    {pool} = {{\n      node_type = "{node_type}"\n'
            f"      min_size  = {low}\n      max_size  = {high}\n    }}"
        )
    system_name = '"system"' if s["fixed_pool_name"] else '"system-${lower(replace(var.system_node_type, "-", "_"))}"'
    text = f'''\
locals {{
  app_pools = {{
{chr(10).join(app_pools)}
  }}
}}

# Ingress and cluster add-ons run here.
resource "scaleway_k8s_pool" "system" {{
  cluster_id  = scaleway_k8s_cluster.main.id
  name        = {system_name}
  node_type   = var.system_node_type
  size        = 2
  min_size    = 2
  max_size    = 3
  autoscaling = true
  autohealing = true
  tags        = concat(local.common_tags, ["noprefix=workload=system"])

  lifecycle {{
    create_before_destroy = true
  }}
}}

# Application pods, one pool per workload class.
resource "scaleway_k8s_pool" "apps" {{
  for_each = local.app_pools

  cluster_id  = scaleway_k8s_cluster.main.id
  name        = "${{each.key}}-${{lower(replace(each.value.node_type, "-", "_"))}}"
  node_type   = each.value.node_type
  size        = each.value.min_size
  min_size    = each.value.min_size
  max_size    = each.value.max_size
  autoscaling = true
  autohealing = true
  tags        = concat(local.common_tags, ["noprefix=workload=${{each.key}}"])

  lifecycle {{
    create_before_destroy = true
  }}
}}
'''
    if s["gpu"]:
        text += '''
resource "scaleway_k8s_pool" "gpu" {
  cluster_id  = scaleway_k8s_cluster.main.id
  node_type   = "L4-1-24G"
  size        = 0
  min_size    = 0
  max_size    = 2
  autoscaling = true
  autohealing = true
  tags        = concat(local.common_tags, ["taint=nvidia.com/gpu=true:NoSchedule"])

  lifecycle {
    create_before_destroy = true
  }
}
'''
    if s["calls_shared_pool"]:
        text += f'''
module "extra_pool" {{
  source = "../../modules/pool"

  cluster_id = scaleway_k8s_cluster.main.id
  name       = "extra"
  node_type  = var.apps_node_type
  size       = 2
  min_size   = 1
  max_size   = {3 + s["index"] % 5}
  tags       = local.common_tags
}}
'''
    return text


def _annotations(s: dict, indent: str) -> str:
    lines = [
        '"service.beta.kubernetes.io/scw-loadbalancer-ip-ids" = split("/", scaleway_lb_ip.ingress.id)[1]',
        '"service.beta.kubernetes.io/scw-loadbalancer-zone"   = scaleway_lb_ip.ingress.zone',
    ]
    return "\n".join(indent + line for line in lines)


def _ingress_tf(s: dict) -> str:
    repository, chart, _ = CHARTS[s["chart"]]
    values = []
    if s["uses_values_file"]:
        values.append('    file("${path.module}/values/ingress-values.yaml"),')
    if s["chart"] == "traefik":
        body = f'''    yamlencode({{
      deployment = {{ replicas = {s["replicas"]} }}
      nodeSelector = {{ workload = "system" }}
      service = {{
        spec = {{ externalTrafficPolicy = "Local" }}
        annotations = {{
{_annotations(s, "          ")}
        }}
      }}
    }}),'''
    else:
        body = f'''    yamlencode({{
      controller = {{
        replicaCount = {s["replicas"]}
        nodeSelector = {{ workload = "system" }}
        service = {{
          externalTrafficPolicy = "Local"
          annotations = {{
{_annotations(s, "            ")}
          }}
        }}
      }}
    }}),'''
    values.append(body)
    return f'''\
resource "helm_release" "ingress" {{
  name             = "{s["chart"]}"
  namespace        = "ingress"
  create_namespace = true
  repository       = "{repository}"
  chart            = "{chart}"
  version          = "{s["chart_version"]}"
  atomic           = true
  timeout          = 600

  values = [
{chr(10).join(values)}
  ]

  depends_on = [scaleway_k8s_pool.system]
}}
'''


def _values_yaml(s: dict, rng: random.Random) -> str:
    trusted = "0.0.0.0/0" if s["footgun_open"] else f"10.{s['octet']}.4.0/22"
    resources = f'''    requests:
      cpu: {rng.choice(["100m", "200m", "250m"])}
      memory: {rng.choice(["128Mi", "256Mi"])}
    limits:
      memory: {rng.choice(["256Mi", "512Mi"])}'''
    extra = "\n".join(
        f"    team.example.com/label-{k}: \"{s['team']}-{k}\"" for k in range(rng.randrange(1, 12))
    )
    if s["chart"] == "haproxytech":
        return f'''\
# Values for the HAProxy Kubernetes Ingress controller ({s["name"]}).
controller:
  kind: DaemonSet
  nodeSelector:
    workload: system
  tolerations:
    - key: workload
      operator: Equal
      value: system
      effect: NoSchedule
  resources:
{resources}
  service:
    type: LoadBalancer
    externalTrafficPolicy: Local
    annotations:
      service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2: "true"
      service.beta.kubernetes.io/scw-loadbalancer-health-check-type: tcp
    enablePorts:
      stat: {"true" if s["stats_port_open"] else "false"}
  config:
    proxy-protocol: "{trusted}"
    ssl-redirect: "true"
    timeout-client: "50s"
    timeout-server: "50s"
    max-connections: "{rng.randrange(1000, 5000)}"
  podLabels:
{extra}
  metrics:
    enabled: true
defaultBackend:
  enabled: true
  replicaCount: 1
'''
    if s["chart"] == "ingress-nginx":
        return f'''\
# Values for ingress-nginx ({s["name"]}).
controller:
  kind: Deployment
  replicaCount: {s["replicas"]}
  nodeSelector:
    workload: system
  resources:
{resources}
  service:
    type: LoadBalancer
    externalTrafficPolicy: Local
    annotations:
      service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2: "true"
      service.beta.kubernetes.io/scw-loadbalancer-health-check-type: tcp
  config:
    use-proxy-protocol: "true"
    proxy-real-ip-cidr: "{trusted}"
    use-forwarded-headers: "true"
    ssl-redirect: "true"
    client-body-buffer-size: "{rng.choice(["64k", "128k"])}"
  podLabels:
{extra}
  metrics:
    enabled: true
    serviceMonitor:
      enabled: false
  admissionWebhooks:
    enabled: true
defaultBackend:
  enabled: false
'''
    return f'''\
# Values for Traefik ({s["name"]}).
deployment:
  kind: Deployment
  replicas: {s["replicas"]}
nodeSelector:
  workload: system
resources:
{resources.replace("    ", "  ", 1).replace(chr(10) + "    ", chr(10) + "  ")}
service:
  type: LoadBalancer
  spec:
    externalTrafficPolicy: Local
  annotations:
    service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2: "true"
ports:
  web:
    proxyProtocol:
      trustedIPs:
        - "{trusted}"
    redirections:
      entryPoint:
        to: websecure
        scheme: https
  websecure:
    proxyProtocol:
      trustedIPs:
        - "{trusted}"
podLabels:
{extra.replace("    ", "  ")}
metrics:
  prometheus:
    entryPoint: metrics
logs:
  access:
    enabled: true
'''


def _tfvars(s: dict) -> str:
    return f'''\
region             = "{s["region"]}"
environment        = "{s["env"]}"
kubernetes_version = "{s["k8s"]}"
apps_node_type     = "{s["app_type"]}"
'''


# --------------------------------------------------------------------------------------------
# The registry variant: registry modules as `terraform init` lays them out, Helm values files, plans
# --------------------------------------------------------------------------------------------

VARIANTS = ("base", "registry")
REGISTRY_ORG = "kapsule-org"
POOLS_VERSIONS = ["1.4.2", "1.5.0", "1.5.3"]
CERT_MANAGER_VERSION = "0.9.4"
DNS_VERSION = "0.3.0"
PLAN_EVERY = 50  # roots index % PLAN_EVERY == 0 get a plan
NO_INIT_EVERY = 5  # roots index % NO_INIT_EVERY == NO_INIT_EVERY - 1 were never `terraform init`ed (KAP011)
PLAN_TIMESTAMP = "2026-11-20T10:15:00Z"


def has_terraform_dir(index: int) -> bool:
    """Whether the registry variant lays out ``.terraform/modules`` for root ``index``."""
    return index % NO_INIT_EVERY != NO_INIT_EVERY - 1


def plan_roots(modules: int) -> list[int]:
    """The roots the registry variant writes a plan for (``plans/<name>.json``)."""
    return [index for index in range(modules) if index % PLAN_EVERY == 0]


def _registry_spec(spec: dict, seed: int) -> dict:
    rng = random.Random(f"{seed}:{spec['index']}:registry")  # its own draws: the base files stay the same
    pools = []
    for pool in ("api", "jobs", "cache")[: rng.randrange(1, 4)]:
        low = rng.randrange(1, 3)
        pools.append((pool, rng.choice(APP_TYPES), low, low + rng.randrange(1, 6)))
    return dict(
        pools=pools, pools_version=rng.choice(POOLS_VERSIONS), templated=rng.random() < 0.5,
        retention=rng.choice(["7d", "15d", "30d"]), grafana_replicas=rng.randrange(1, 3),
        ingress_replicas=rng.randrange(2, 5), monitoring_version=rng.choice(["65.1.1", "66.2.2"]),
        new_system_type=rng.choice([t for t in DEDICATED_TYPES if t != spec["system_type"]]),
        ids=random.Random(f"{seed}:{spec['index']}:ids"),
    )


def _registry_root_files(s: dict, r: dict) -> dict[str, str]:
    pools = "\n".join(
        f'    {name} = {{\n      node_type = "{node_type}"\n      min_size  = {low}\n      max_size  = {high}\n'
        f'      labels    = {{ team = "{s["team"]}", workload = "{name}" }}\n    }}'
        for name, node_type, low, high in r["pools"])
    registry_tf = f'''\
# Shared modules of the platform team, from the private registry.
module "pools" {{
  source  = "{REGISTRY_ORG}/node-pools/scaleway"
  version = "~> {r["pools_version"].rsplit(".", 1)[0]}"

  cluster_id  = scaleway_k8s_cluster.main.id
  name_prefix = local.name
  tags        = local.common_tags
  pools = {{
{pools}
  }}
}}

module "cert_manager" {{
  source  = "{REGISTRY_ORG}/cert-manager/helm"
  version = "{CERT_MANAGER_VERSION}"

  namespace = "cert-manager"
  dns_zone  = "{s["team"]}.example.com"
  values = [yamlencode({{
    nodeSelector = {{ workload = "system" }}
  }})]

  depends_on = [scaleway_k8s_pool.system]
}}
'''
    addons_tf = f'''\
resource "helm_release" "monitoring" {{
  name             = "kube-prometheus-stack"
  namespace        = "monitoring"
  create_namespace = true
  repository       = "https://prometheus-community.github.io/helm-charts"
  chart            = "kube-prometheus-stack"
  version          = "{r["monitoring_version"]}"
  timeout          = 900

  values = [file("${{path.module}}/helm/monitoring-values.yaml")]

  depends_on = [module.pools]
}}
'''
    cluster_label = '"{{ .Release.Namespace }}-' + s["name"] + '"' if r["templated"] else f'"{s["name"]}"'
    monitoring = f'''\
# kube-prometheus-stack for {s["name"]}; read by helm_release.monitoring.
fullnameOverride: kps
prometheus:
  prometheusSpec:
    retention: {r["retention"]}
    externalLabels:
      cluster: {cluster_label}
    nodeSelector:
      workload: system
    resources:
      requests:
        cpu: 500m
        memory: 2Gi
grafana:
  replicas: {r["grafana_replicas"]}
  ingress:
    enabled: true
    hosts:
      - grafana.{s["team"]}.example.com
alertmanager:
  alertmanagerSpec:
    nodeSelector:
      workload: system
'''
    environment = '"{{ .Environment.Name }}"' if r["templated"] else f'"{s["env"]}"'
    if s["chart"] == "traefik":
        overrides = f'''\
deployment:
  replicas: {r["ingress_replicas"]}
  podAnnotations:
    environment: {environment}
service:
  annotations:
    service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2: "true"
'''
    else:
        overrides = f'''\
controller:
  replicaCount: {r["ingress_replicas"]}
  podAnnotations:
    environment: {environment}
  service:
    annotations:
      service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2: "true"
'''
    standalone = f"# Overrides of the {s['chart']} release for {s['env']}, applied by helmfile (not by Terraform).\n" + overrides
    return {
        "registry.tf": registry_tf,
        "addons.tf": addons_tf,
        "helm/monitoring-values.yaml": monitoring,
        f"helm/values-{s['env']}.yaml": standalone,
    }


def _node_pools_module() -> dict[str, str]:
    return {
        "variables.tf": '''\
variable "cluster_id" {
  type = string
}

variable "name_prefix" {
  type = string
}

variable "pools" {
  description = "Pools by name."
  type = map(object({
    node_type = string
    min_size  = number
    max_size  = number
    labels    = optional(map(string), {})
  }))
}

variable "tags" {
  type    = list(string)
  default = []
}

variable "zone" {
  type    = string
  default = null
}
''',
        "main.tf": '''\
module "naming" {
  source = "./modules/naming"
  prefix = var.name_prefix
}

resource "scaleway_k8s_pool" "this" {
  for_each = var.pools

  cluster_id          = var.cluster_id
  name                = "${module.naming.prefix}-${each.key}-${lower(replace(each.value.node_type, "-", "_"))}"
  node_type           = each.value.node_type
  size                = each.value.min_size
  min_size            = each.value.min_size
  max_size            = each.value.max_size
  zone                = var.zone
  autoscaling         = true
  autohealing         = true
  wait_for_pool_ready = true
  tags                = concat(var.tags, [for key, value in each.value.labels : "${key}=${value}"])

  upgrade_policy {
    max_surge       = 1
    max_unavailable = 0
  }

  lifecycle {
    create_before_destroy = true
    ignore_changes        = [size]
  }
}
''',
        "outputs.tf": '''\
output "ids" {
  value = { for key, pool in scaleway_k8s_pool.this : key => pool.id }
}
''',
        "modules/naming/main.tf": '''\
variable "prefix" {
  type = string
}

output "prefix" {
  value = lower(var.prefix)
}
''',
    }


def _cert_manager_module() -> dict[str, str]:
    return {
        "variables.tf": '''\
variable "namespace" {
  type    = string
  default = "cert-manager"
}

variable "chart_version" {
  type    = string
  default = "v1.15.3"
}

variable "dns_zone" {
  type = string
}

variable "values" {
  type    = list(string)
  default = []
}
''',
        "main.tf": f'''\
resource "helm_release" "this" {{
  name             = "cert-manager"
  namespace        = var.namespace
  create_namespace = true
  repository       = "https://charts.jetstack.io"
  chart            = "cert-manager"
  version          = var.chart_version

  values = concat([file("${{path.module}}/values/default-values.yaml")], var.values)
}}

module "dns" {{
  source  = "{REGISTRY_ORG}/dns-records/scaleway"
  version = "{DNS_VERSION}"

  zone = var.dns_zone
  records = {{
    "_acme-challenge" = {{ type = "TXT", data = "pending" }}
  }}
}}
''',
        "values/default-values.yaml": '''\
crds:
  enabled: true
replicaCount: 2
podDisruptionBudget:
  enabled: true
''',
    }


def _dns_records_module() -> dict[str, str]:
    return {
        "main.tf": '''\
variable "zone" {
  type = string
}

variable "records" {
  type = map(object({ type = string, data = string }))
}

resource "scaleway_domain_record" "this" {
  for_each = var.records

  dns_zone = var.zone
  name     = each.key
  type     = each.value.type
  data     = each.value.data
  ttl      = 300
}
''',
    }


def _downloaded_modules(s: dict, r: dict) -> dict[str, str]:
    """``.terraform/modules/`` as ``terraform init`` leaves it: modules.json and every module."""
    entries = [{"Key": "", "Source": "", "Dir": "."}]
    files: dict[str, str] = {}
    if s["calls_shared_pool"]:
        entries.append({"Key": "extra_pool", "Source": "../../modules/pool", "Dir": "../../modules/pool"})
    registry = "registry.terraform.io/" + REGISTRY_ORG
    entries += [
        {"Key": "cert_manager", "Source": f"{registry}/cert-manager/helm", "Version": CERT_MANAGER_VERSION,
         "Dir": ".terraform/modules/cert_manager"},
        {"Key": "cert_manager.dns", "Source": f"{registry}/dns-records/scaleway", "Version": DNS_VERSION,
         "Dir": ".terraform/modules/cert_manager.dns"},
        {"Key": "pools", "Source": f"{registry}/node-pools/scaleway", "Version": r["pools_version"],
         "Dir": ".terraform/modules/pools"},
        {"Key": "pools.naming", "Source": "./modules/naming", "Dir": ".terraform/modules/pools/modules/naming"},
    ]
    for key, module in (("cert_manager", _cert_manager_module()), ("cert_manager.dns", _dns_records_module()),
                        ("pools", _node_pools_module())):
        for name, text in module.items():
            files[f".terraform/modules/{key}/{name}"] = text
    files[".terraform/modules/modules.json"] = json.dumps({"Modules": entries}, separators=(",", ":"))
    return files


# -- plans: what `terraform show -json` writes for a root of the variant, built from its spec


def _uuid(rng: random.Random) -> str:
    value = rng.getrandbits(128)
    text = f"{value:032x}"
    return f"{text[:8]}-{text[8:12]}-4{text[13:16]}-8{text[17:20]}-{text[20:]}"


class _Instance:
    """One resource instance of a plan: where it is, its values before and after, its action."""

    def __init__(self, modules: tuple[str, ...], rtype: str, name: str, key: str | None, before: dict,
                 after: dict | None = None, actions: tuple[str, ...] = ("no-op",), replace: list | None = None,
                 sensitive: dict | None = None, provider: str = "scaleway") -> None:
        self.modules, self.type, self.name, self.key = modules, rtype, name, key
        self.before, self.after = before, before if after is None else after
        self.actions, self.replace, self.sensitive = actions, replace, sensitive or {}
        self.provider = f"registry.terraform.io/{'hashicorp/helm' if provider == 'helm' else 'scaleway/scaleway'}"

    @property
    def module_address(self) -> str:
        return ".".join(f"module.{name}" for name in self.modules)

    @property
    def block(self) -> str:
        return f"{self.type}.{self.name}"

    @property
    def address(self) -> str:
        key = "" if self.key is None else f'["{self.key}"]'
        own = f"{self.block}{key}"
        return f"{self.module_address}.{own}" if self.modules else own

    def resource(self, values: dict) -> dict:
        entry = {"address": self.address, "mode": "managed", "type": self.type, "name": self.name}
        if self.key is not None:
            entry["index"] = self.key
        entry.update(provider_name=self.provider, schema_version=0, values=values,
                     sensitive_values=self.sensitive)
        return entry

    def change(self) -> dict:
        entry = {"address": self.address}
        if self.modules:
            entry["module_address"] = self.module_address
        entry.update(mode="managed", type=self.type, name=self.name)
        if self.key is not None:
            entry["index"] = self.key
        entry["provider_name"] = self.provider
        after_unknown = {"id": True} if "create" in self.actions else {}
        entry["change"] = {"actions": list(self.actions), "before": self.before, "after": self.after,
                           "after_unknown": after_unknown, "before_sensitive": self.sensitive,
                           "after_sensitive": self.sensitive}
        if self.replace:
            entry["change"]["replace_paths"] = self.replace
            entry["action_reason"] = "replace_because_cannot_update"
        return entry


def _plan_instances(s: dict, r: dict) -> list[_Instance]:
    ids = r["ids"]
    region, zone = s["region"], f"{s['region']}-1"
    project = "11111111-2222-4333-8444-555555555555"
    name = f"{s['team']}-{s['env']}-{s['index']:04d}"
    tags = [f"team={s['team']}", f"env={s['env']}", "managed-by=terraform"]
    created = "2026-06-01T09:00:00Z"

    def zoned(kind_zone: str) -> str:
        return f"{kind_zone}/{_uuid(ids)}"

    vpc = zoned(region)
    network = zoned(region)
    gateway_ip, gateway = zoned(zone), zoned(zone)
    lb_ip = zoned(zone)
    cluster_id = zoned(region)
    host = f"https://{cluster_id[-36:-28]}.api.k8s.{region}.scw.cloud:6443"
    major, minor = s["k8s"].split(".")
    previous_minor = f"{major}.{int(minor) - 1}.9"  # the plan upgrades the cluster by one minor
    cluster = dict(
        id=cluster_id, name=name, type=s["control_plane"], version=previous_minor, cni="cilium",
        private_network_id=network, delete_additional_resources=False, tags=tags, region=region,
        project_id=project, apiserver_url=host, wildcard_dns=f"*.{cluster_id[-36:-28]}.nodes.k8s.{region}.scw.cloud",
        auto_upgrade=[dict(enable=True, maintenance_window_day=s["day"], maintenance_window_start_hour=s["hour"])],
        kubeconfig=[dict(config_file="apiVersion: v1\nkind: Config\n", host=host, token="example-token",
                         cluster_ca_certificate="LS0tLS1CRUdJTi0tLS0t")],
        created_at=created, updated_at=created, status="ready", upgrade_available=True)
    out = [
        _Instance((), "scaleway_vpc", "main", None, dict(
            id=vpc, name=f"{name}-vpc", region=region, project_id=project, tags=tags, enable_routing=True,
            is_default=False, created_at=created, updated_at=created)),
        _Instance((), "scaleway_vpc_private_network", "nodes", None, dict(
            id=network, name=f"{name}-nodes", vpc_id=vpc, region=region, project_id=project, tags=tags,
            ipv4_subnet=[dict(subnet=f"10.{s['octet']}.4.0/22", address=f"10.{s['octet']}.4.0", prefix_length=22,
                              created_at=created, updated_at=created)], ipv6_subnets=[], is_regional=True)),
        _Instance((), "scaleway_vpc_public_gateway_ip", "egress", None, dict(
            id=gateway_ip, zone=zone, address=f"51.15.{s['octet']}.{s['index'] % 200 + 1}", tags=[], reverse="")),
        _Instance((), "scaleway_vpc_public_gateway", "egress", None, dict(
            id=gateway, name=f"{name}-egress", type="VPC-GW-S", zone=zone, ip_id=gateway_ip, tags=tags,
            bastion_enabled=False, enable_smtp=False, status="running")),
        _Instance((), "scaleway_vpc_gateway_network", "nodes", None, dict(
            id=zoned(zone), gateway_id=gateway, private_network_id=network, enable_masquerade=True,
            ipam_config=[dict(push_default_route=True, ipam_ip_id="")], zone=zone)),
        _Instance((), "scaleway_lb_ip", "ingress", None, dict(
            id=lb_ip, zone=zone, ip_address=f"51.159.{s['octet']}.{s['index'] % 200 + 2}", is_ipv6=False, tags=tags,
            lb_id=zoned(zone), reverse="")),
        _Instance((), "scaleway_k8s_cluster", "main", None, cluster, dict(cluster, version=s["k8s"]), ("update",),
                  sensitive={"kubeconfig": True}),
        _Instance((), "scaleway_k8s_acl", "main", None, dict(
            id=cluster_id, cluster_id=cluster_id, region=region,
            acl_rules=[dict(ip="0.0.0.0/0" if s["footgun_open"] else f"198.51.100.{s['octet'] % 200}/32",
                            description="operators", scaleway_ranges=False),
                       dict(ip="", description="Scaleway services", scaleway_ranges=True)])),
    ]

    def pool(pool_name: str, node_type: str, low: int, high: int, pool_tags: list[str]) -> dict:
        return dict(id=zoned(region), cluster_id=cluster_id, name=pool_name, node_type=node_type, size=low,
                    min_size=low, max_size=high, autoscaling=True, autohealing=True, container_runtime="containerd",
                    zone=zone, region=region, tags=pool_tags, root_volume_type="sbs_5k", root_volume_size_in_gb=20,
                    public_ip_disabled=False, wait_for_pool_ready=True,
                    upgrade_policy=[dict(max_surge=1, max_unavailable=0)], status="ready", version=f"{s['k8s']}.4")

    def suffix(node_type: str) -> str:
        return node_type.lower().replace("-", "_")

    # The system pool moves to another node type: a replacement, created first (create_before_destroy).
    before = pool("system" if s["fixed_pool_name"] else f"system-{suffix(s['system_type'])}", s["system_type"], 2, 3,
                  tags + ["noprefix=workload=system"])
    after = dict(before, node_type=r["new_system_type"], id=None, status=None)
    if not s["fixed_pool_name"]:
        after["name"] = f"system-{suffix(r['new_system_type'])}"
    out.append(_Instance((), "scaleway_k8s_pool", "system", None, before, after, ("create", "delete"), [["node_type"]]))
    for key, node_type, low, high in s["app_pools"]:
        out.append(_Instance((), "scaleway_k8s_pool", "apps", key,
                             pool(f"{key}-{suffix(node_type)}", node_type, low, high,
                                  tags + [f"noprefix=workload={key}"])))
    if s["gpu"]:
        out.append(_Instance((), "scaleway_k8s_pool", "gpu", None,
                             pool("gpu", "L4-1-24G", 0, 2, tags + ["taint=nvidia.com/gpu=true:NoSchedule"])))
    if s["calls_shared_pool"]:
        out.append(_Instance(("extra_pool",), "scaleway_k8s_pool", "this", None,
                             pool(f"extra-{suffix(s['app_type'])}", s["app_type"], 2, 3 + s["index"] % 5,
                                  tags + ["pool=extra"])))
    for number, (key, node_type, low, high) in enumerate(r["pools"]):
        before = pool(f"{name}-{key}-{suffix(node_type)}", node_type, low, high,
                      tags + [f"team={s['team']}", f"workload={key}"])
        if number == 0:  # the first registry pool may grow: an update in place
            out.append(_Instance(("pools",), "scaleway_k8s_pool", "this", key, before, dict(before, max_size=high + 1),
                                 ("update",)))
        else:
            out.append(_Instance(("pools",), "scaleway_k8s_pool", "this", key, before))
    repository, chart, versions = CHARTS[s["chart"]]
    release = dict(id=s["chart"], name=s["chart"], namespace="ingress", create_namespace=True, repository=repository,
                   chart=chart, version=s["chart_version"], atomic=True, timeout=600, status="deployed",
                   values=["controller:\n  replicaCount: 2\n"], set=[], set_sensitive=[], wait=True,
                   metadata=[dict(app_version="", chart=chart, name=s["chart"], namespace="ingress", revision=3,
                                  version=s["chart_version"])])
    older = versions[max(0, versions.index(s["chart_version"]) - 1)]
    out.append(_Instance((), "helm_release", "ingress", None, dict(release, version=older), release,
                         ("update",) if older != s["chart_version"] else ("no-op",), provider="helm"))
    monitoring = dict(release, id="kube-prometheus-stack", name="kube-prometheus-stack", namespace="monitoring",
                      repository="https://prometheus-community.github.io/helm-charts", chart="kube-prometheus-stack",
                      version=r["monitoring_version"], atomic=False, timeout=900, values=["fullnameOverride: kps\n"])
    out.append(_Instance((), "helm_release", "monitoring", None, monitoring, provider="helm"))
    cert_manager = dict(release, id="cert-manager", name="cert-manager", namespace="cert-manager",
                        repository="https://charts.jetstack.io", chart="cert-manager", version="v1.15.3", atomic=False,
                        timeout=300, values=["crds:\n  enabled: true\n"])
    out.append(_Instance(("cert_manager",), "helm_release", "this", None, cert_manager, provider="helm"))
    out.append(_Instance(("cert_manager", "dns"), "scaleway_domain_record", "this", "_acme-challenge", dict(
        id=_uuid(ids), dns_zone=f"{s['team']}.example.com", name="_acme-challenge", type="TXT", data="pending",
        ttl=300, priority=0, fqdn=f"_acme-challenge.{s['team']}.example.com", project_id=project)))
    return out


def _plan_json(s: dict, r: dict) -> str:
    """A plan of root ``s`` as ``terraform show -json`` writes it (format 1.2, Terraform 1.11.4)."""
    instances = _plan_instances(s, r)

    def module_tree(values_of) -> dict:
        root: dict = {"resources": []}
        modules: dict[tuple[str, ...], dict] = {(): root}
        for instance in instances:
            for depth in range(1, len(instance.modules) + 1):
                path = instance.modules[:depth]
                if path not in modules:
                    child = {"resources": [], "address": ".".join(f"module.{n}" for n in path)}
                    modules[path] = child
                    modules[path[:-1]].setdefault("child_modules", []).append(child)
            modules[instance.modules]["resources"].append(instance.resource(values_of(instance)))
        return root

    sources = {("extra_pool",): ("../../modules/pool", None),
               ("pools",): (f"{REGISTRY_ORG}/node-pools/scaleway", f"~> {r['pools_version'].rsplit('.', 1)[0]}"),
               ("pools", "naming"): ("./modules/naming", None),
               ("cert_manager",): (f"{REGISTRY_ORG}/cert-manager/helm", CERT_MANAGER_VERSION),
               ("cert_manager", "dns"): (f"{REGISTRY_ORG}/dns-records/scaleway", DNS_VERSION)}
    configuration: dict = {"resources": []}
    config_modules: dict[tuple[str, ...], dict] = {(): configuration}
    calls = [path for path in sources if path[0] != "extra_pool" or s["calls_shared_pool"]]
    for path in sorted(calls, key=len):
        source, version = sources[path]
        call: dict = {"source": source}
        if version:
            call["version_constraint"] = version
        call["module"] = config_modules[path] = {"resources": []}
        config_modules[path[:-1]].setdefault("module_calls", {})[path[-1]] = call
    seen = set()
    for instance in instances:
        if (instance.modules, instance.block) in seen:
            continue
        seen.add((instance.modules, instance.block))
        config_modules[instance.modules]["resources"].append({
            "address": instance.block, "mode": "managed", "type": instance.type, "name": instance.name,
            "provider_config_key": "helm" if instance.type == "helm_release" else "scaleway", "schema_version": 0,
        })
    plan = {
        "format_version": "1.2",
        "terraform_version": "1.11.4",
        "planned_values": {"root_module": module_tree(lambda i: i.after)},
        "resource_changes": [instance.change() for instance in instances],
        "prior_state": {"format_version": "1.0", "terraform_version": "1.11.4",
                        "values": {"root_module": module_tree(lambda i: i.before)}},
        "configuration": {
            "provider_config": {
                "helm": {"name": "helm", "full_name": "registry.terraform.io/hashicorp/helm",
                         "version_constraint": s["helm_version"]},
                "scaleway": {"name": "scaleway", "full_name": "registry.terraform.io/scaleway/scaleway",
                             "version_constraint": s["scw_version"]},
            },
            "root_module": configuration,
        },
        "relevant_attributes": [{"resource": "scaleway_k8s_cluster.main", "attribute": ["id"]}],
        "timestamp": PLAN_TIMESTAMP,
        "applyable": True,
        "complete": True,
        "errored": False,
    }
    return json.dumps(plan, indent=2) + "\n"


# --------------------------------------------------------------------------------------------
# Peak memory of a process tree
# --------------------------------------------------------------------------------------------


def _children_map() -> dict[int, list[int]]:
    """ppid -> pids, read from /proc/*/stat."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.scandir("/proc")
    except OSError:
        return children
    with entries:
        for entry in entries:
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as handle:
                    data = handle.read()
            except OSError:
                continue
            # The command name is in parentheses and may hold spaces: split after the last ')'.
            fields = data[data.rfind(b")") + 2 :].split()
            if len(fields) > 1:
                children.setdefault(int(fields[1]), []).append(int(entry.name))
    return children


def descendants(pid: int) -> list[int]:
    """The pids below ``pid`` in the process tree (children, grandchildren...)."""
    children = _children_map()
    found: list[int] = []
    stack = list(children.get(pid, ()))
    while stack:
        child = stack.pop()
        found.append(child)
        stack.extend(children.get(child, ()))
    return found


def rss_bytes(pid: int) -> int:
    """VmRSS of one process in bytes; 0 when it is gone or a zombie."""
    try:
        with open(f"/proc/{pid}/status", "rb") as handle:
            for line in handle:
                if line.startswith(b"VmRSS:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0


def tree_rss_bytes(pid: int) -> int:
    """The summed RSS of ``pid`` and all its descendants, in bytes."""
    return rss_bytes(pid) + sum(rss_bytes(child) for child in descendants(pid))


class PeakRssSampler:
    """Samples the summed RSS of a process tree every ``interval`` seconds in a thread."""

    def __init__(self, pid: int, interval: float = SAMPLE_INTERVAL) -> None:
        self.pid = pid
        self.interval = interval
        self.peak = 0
        self.samples = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> PeakRssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while True:
            value = tree_rss_bytes(self.pid)
            self.samples += 1
            self.peak = max(self.peak, value)
            if self._stop.wait(self.interval):
                return


# --------------------------------------------------------------------------------------------
# Running and timing
# --------------------------------------------------------------------------------------------

FLOOR_CODE = r"""
import os, sys, time
start = time.perf_counter()
import hcl2
from ruamel.yaml import YAML
root, mode = sys.argv[1], sys.argv[2]
catch = sys.argv[3:] == ["catch"]  # a real tree holds files that fail to parse: count them, go on
tf, values = [], []
for directory, dirs, files in os.walk(root):
    dirs[:] = sorted(d for d in dirs if d != ".git")
    for name in sorted(files):
        path = os.path.join(directory, name)
        if name.endswith(".tf"):
            tf.append(path)
        elif name.endswith(("-values.yaml", "-values.yml")) or (name.startswith("values") and name.endswith((".yaml", ".yml"))):
            values.append(path)
parse = hcl2.parses_to_tree if mode == "tree" else hcl2.parses
yaml = YAML(typ="rt")
failed = 0
for path, load in [(p, parse) for p in tf] + [(p, yaml.load) for p in values]:
    try:
        with open(path, encoding="utf-8") as handle:
            load(handle.read())
    except Exception:
        if not catch:
            raise
        failed += 1
print(len(tf), len(values), failed, time.perf_counter() - start)
"""


@dataclass
class RunResult:
    seconds: float
    peak: int | None
    returncode: int
    stdout_path: Path | None = None


def run_command(cmd: list[str], env: dict | None = None, sample_memory: bool = False,
                stdout_path: Path | None = None, ok_codes=(0,), cwd: Path | None = None) -> RunResult:
    """Run ``cmd`` once; wall time from spawn to exit, and the peak tree RSS when sampled."""
    out = open(stdout_path, "wb") if stdout_path else subprocess.DEVNULL  # noqa: SIM115 (closed in finally)
    try:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE, env=env, cwd=cwd)
        if sample_memory:
            with PeakRssSampler(proc.pid) as sampler:
                _, err = proc.communicate()
            peak = sampler.peak
        else:
            _, err = proc.communicate()
            peak = None
        seconds = time.perf_counter() - start
    finally:
        if stdout_path:
            out.close()
    if proc.returncode not in ok_codes:
        raise RuntimeError(f"{shlex.join(cmd)} exited {proc.returncode}:\n{err.decode(errors='replace')[-3000:]}")
    return RunResult(seconds, peak, proc.returncode, stdout_path)


@dataclass
class Measurement:
    key: str
    label: str
    command: str = ""
    seconds: float | None = None
    peak: int | None = None
    runs: int = 0
    note: str = ""
    all_seconds: list[float] = field(default_factory=list)
    inner: float | None = None  # the floor's own clock: imports and parsing, no interpreter start


@dataclass
class Spec:
    """One command to measure: what runs, where, and what each run needs first."""

    key: str
    label: str
    cmd: list[str]
    prepare: Callable[[], dict] | None = None  # returns the run's environment (untimed)
    sample_memory: bool = False
    ok_codes: tuple[int, ...] = (0,)
    stdout_path: Path | None = None
    shown: str | None = None
    cwd: Path | None = None
    inner: bool = False
    finish: Callable[[], None] | None = None  # run after each run, timed or not (restores an edit)


class OneEdit:
    """Edits one ``.tf`` file before each run and restores it after: a warm run that finds one
    file changed since the run before it. Each edit appends a different ``locals`` block, so that
    no cache holds the edited text from an earlier run."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.original = path.read_bytes()
        self.count = 0

    def apply(self) -> None:
        self.count += 1
        self.path.write_bytes(self.original + f"\nlocals {{\n  kapsulint_bench_edit = {self.count}\n}}\n".encode())

    def restore(self) -> None:
        self.path.write_bytes(self.original)


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.python = sys.executable
        self.kapsulint = args.kapsulint or _find_kapsulint()
        self.checkov = args.checkov or shutil.which("checkov")
        self.workdir = Path(args.workdir).resolve() if args.workdir else Path(tempfile.mkdtemp(prefix="kapsulint-bench-"))
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.cache_root = self.workdir / "caches"
        shutil.rmtree(self.cache_root, ignore_errors=True)
        self.cache_root.mkdir()
        self._cache_counter = 0
        self.notes: list[str] = []
        self.results: dict[int | str, dict[str, Measurement]] = {}
        self.corpora: dict[int, CorpusStats] = {}
        self.findings: dict[int | str, dict[str, int]] = {}
        self.floor_failures: dict[str, int] = {}  # files the floor could not parse (catch mode)
        self.edited: dict[int | str, str] = {}  # the file the "warm after one edit" runs change
        self.tree_files = 0
        self.tree_failures = 0
        help_text = subprocess.run([self.kapsulint, "--help"], capture_output=True, text=True).stdout
        self.has_jobs = "--jobs" in help_text
        self.has_no_cache = "--no-cache" in help_text
        self.machine = machine_info(self.kapsulint)

    # -- helpers

    def log(self, message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    def runs_for(self, scale: int | None) -> int:
        if scale is not None and scale >= 1000:
            return min(self.args.runs, 3)
        return self.args.runs

    def new_cache(self) -> Path:
        """A new, empty cache directory."""
        self._cache_counter += 1
        directory = self.cache_root / f"c{self._cache_counter:04d}"
        directory.mkdir()
        return directory

    def grammar_cache(self) -> Path:
        """A cache directory holding only a grammar cache, written in place.

        Lark keys its grammar cache with its options, the cache file's path among them: a
        ``grammar-*`` file copied into another directory is stale there and rebuilt. So cold
        runs reuse one directory whose grammar cache was written there, and everything but the
        ``grammar-*`` files is deleted before each run.
        """
        directory = self.new_cache()
        run_command([self.kapsulint, ".", "--exit-zero"], env=self.env(directory),
                    cwd=self.workdir / "small-project")
        clear_parse_cache(directory)
        return directory

    def cold_env(self, directory: Path):
        def prepare() -> dict:
            clear_parse_cache(directory)
            return self.env(directory)
        return prepare

    def check_grammar_kept(self, directory: Path, before: dict) -> None:
        if _grammar_state(directory) != before:
            self.notes.append(f"The grammar cache in {directory.name} changed during cold runs: "
                              "kapsulint rebuilt it, so cold measured a grammar build too.")

    def env(self, cache: Path) -> dict:
        env = dict(os.environ)
        env["KAPSULINT_CACHE_DIR"] = str(cache)
        # An installed package has its bytecode (pip compiles it); where the environment forbids
        # writing bytecode, every run would compile kapsulint's modules again, which no user sees.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        return env

    def measure(self, key: str, label: str, cmd: list[str], runs: int, prepare=None,
                sample_memory: bool = False, ok_codes=(0,), stdout_path: Path | None = None,
                shown: str | None = None, cwd: Path | None = None, inner: bool = False) -> Measurement:
        """The median of ``runs`` consecutive runs; ``prepare()`` returns the env of each run (not timed)."""
        spec = Spec(key, label, cmd, prepare, sample_memory, ok_codes, stdout_path, shown, cwd, inner)
        return self.measure_rounds([spec], runs)[key]

    def measure_rounds(self, specs: list[Spec], runs: int) -> dict[str, Measurement]:
        """Medians of ``runs`` rounds, each round running every spec once in turn.

        Interleaved, the figures whose ratios the targets take (the floor, cold, warm) are measured
        under the same conditions: on a shared machine whose speed drifts, blocks of consecutive
        runs of one command would put the drift into the ratios."""
        times: dict[str, list[float]] = {spec.key: [] for spec in specs}
        peaks: dict[str, list[int]] = {spec.key: [] for spec in specs}
        inners: dict[str, list[float]] = {spec.key: [] for spec in specs}
        for _ in range(runs):
            for spec in specs:
                stdout_path = spec.stdout_path
                if spec.inner and stdout_path is None:
                    stdout_path = self.workdir / "floor.out"
                env = spec.prepare() if spec.prepare else None
                try:
                    result = run_command(spec.cmd, env=env, sample_memory=spec.sample_memory,
                                         ok_codes=spec.ok_codes, stdout_path=stdout_path, cwd=spec.cwd)
                finally:
                    if spec.finish:
                        spec.finish()
                times[spec.key].append(result.seconds)
                if result.peak is not None:
                    peaks[spec.key].append(result.peak)
                if spec.inner:
                    inners[spec.key].append(float(stdout_path.read_text().split()[-1]))
                    self.floor_failures[spec.key] = int(stdout_path.read_text().split()[2])
        measured = {}
        for spec in specs:
            key = spec.key
            m = Measurement(key, spec.label, spec.shown or _display(spec.cmd), statistics.median(times[key]),
                            int(statistics.median(peaks[key])) if peaks[key] else None, runs,
                            all_seconds=times[key],
                            inner=statistics.median(inners[key]) if inners[key] else None)
            self.log(f"  {spec.label}: {m.seconds:.3f} s" + (f", peak {m.peak / MB:.1f} MB" if m.peak else ""))
            measured[key] = m
        return measured

    # -- the measurements

    def prepare_grammar(self) -> None:
        self._small_project(self.workdir / "small-project")
        if not _grammar_state(self.grammar_cache()):
            self.notes.append("No `grammar-*` file in a warmed cache directory: kapsulint used the parser tables "
                              "it ships, so cold and first runs differ by the parse cache only.")

    def _small_project(self, project: Path) -> None:
        shutil.rmtree(project, ignore_errors=True)
        if SMALL_PROJECT.is_dir():
            shutil.copytree(SMALL_PROJECT, project)
        else:
            generate_monorepo(project, 1)

    def baseline(self) -> None:
        runs = self.args.runs
        row: dict[str, Measurement] = {}
        row["python"] = self.measure("python", "`python -c pass`", [self.python, "-c", "pass"], runs)
        small = self.workdir / "small-project"
        cache = self.new_cache()
        cmd = [self.kapsulint, ".", "--exit-zero"]
        run_command(cmd, env=self.env(cache), cwd=small)  # fill the cache
        row["small_warm"] = self.measure("small_warm", "small project, warm", cmd, runs,
                                         prepare=lambda: self.env(cache), cwd=small,
                                         shown="kapsulint . --exit-zero  # in a copy of examples/production")
        files = sorted(p for p in small.rglob("*") if p.is_file())
        origin = "examples/production" if SMALL_PROJECT.is_dir() else "one generated module"
        row["small_warm"].note = f"{len(files)} files of {origin}"
        self.results["baseline"] = row

    def scale(self, scale: int) -> None:
        runs = self.runs_for(scale)
        variant = self.args.variant
        repo = self.workdir / monorepo_name(scale, variant)
        shutil.rmtree(repo, ignore_errors=True)
        stats = generate_monorepo(repo, scale, variant=variant)
        self.corpora[scale] = stats
        self.log(f"{scale} modules ({variant}): {stats.tf_files} .tf files ({stats.tf_bytes / MB:.2f} MB), "
                 f"{stats.values_files} values files, {stats.tfvars_files} tfvars, {stats.json_files} JSON; "
                 f"{stats.files} files, {stats.bytes / MB:.2f} MB in all")
        edited = repo / "clusters" / module_name(scale // 2) / "cluster.tf"
        extra = []
        if variant == "registry":
            name = module_name(plan_roots(scale)[0])
            plan_lint = [self.kapsulint, "--format", "json", "--exit-zero", f"clusters/{name}"]
            plan_shown = f"kapsulint --format json --exit-zero clusters/{name}"
            extra = [("plan_root", f"one root ({name}), warm, without --plan", plan_lint, plan_shown),
                     ("plan", f"one root ({name}), warm, `--plan plans/{name}.json`",
                      plan_lint + ["--plan", f"plans/{name}.json"], f"{plan_shown} --plan plans/{name}.json")]
        self.results[scale] = self.measure_project(scale, repo, runs, edited, floor_args=["tree"], extra=extra)

    def tree(self, tree: Path) -> None:
        """The figures of a real tree (``--tree``): its floor (files that fail to parse counted, not
        fatal), kapsulint cold, warm, warm after one edit, first run, and peak memory."""
        candidates = sorted(p for p in tree.rglob("*.tf") if not {".terraform", ".git"} & set(p.relative_to(tree).parts))
        if not candidates:
            sys.exit(f"bench.py: no .tf file under {tree}")
        self.log(f"tree {tree}: {len(candidates)} .tf files")
        self.tree_files = len(candidates)
        row = self.measure_project("tree", tree, self.args.runs, candidates[len(candidates) // 2],
                                   floor_args=["tree", "catch"], extra=[], light=True)
        self.results["tree"] = row
        self.tree_failures = self.floor_failures.get("floor", 0)

    def measure_project(self, key: int | str, repo: Path, runs: int, edited: Path, floor_args: list[str],
                        extra: list[tuple[str, str, list[str], str]], light: bool = False) -> dict[str, Measurement]:
        """Every figure of one project: the timed rows in interleaved rounds, then peak memory.
        ``extra``: more warm commands (key, label, command, shown). ``light``: only the floor, cold,
        warm, warm after one edit and first run (a tree of someone else's code)."""
        row: dict[str, Measurement] = {}
        out = self.workdir / f"report-{key}.json"

        # Every command runs inside the project: kapsulint's project root is the working directory.
        floor_cmd = [self.python, "-c", FLOOR_CODE, "."] + floor_args
        floor_shown = "python -c '<parse every .tf with hcl2.parses_to_tree, load every values file with YAML(typ=\"rt\")>'"
        if "catch" in floor_args:
            floor_shown += "  # a file that fails to parse is counted, not fatal"
        run_command(floor_cmd, cwd=repo)  # python-hcl2 writes its grammar cache on first use

        lint = [self.kapsulint, "--format", "json", ".", "--exit-zero"]
        shown = "kapsulint --format json . --exit-zero"
        common = dict(stdout_path=out, cwd=repo)
        cold_dir = self.grammar_cache()
        grammar = _grammar_state(cold_dir)
        cold_env = self.cold_env(cold_dir)
        warm_cache = self.new_cache()
        run_command(lint, env=self.env(warm_cache), **common)
        self.findings[key] = _count_findings(out)
        if self.findings[key].get("KAP001") and not light:
            self.notes.append(f"{key} modules: {self.findings[key]['KAP001']} KAP001 findings: the generator wrote invalid input.")
        if not [p for p in warm_cache.iterdir() if not p.name.startswith("grammar-")]:
            self.notes.append("kapsulint wrote nothing but the grammar cache into KAPSULINT_CACHE_DIR: "
                              "no parse cache yet, so warm measures the same work as cold.")
        warm_env = lambda: self.env(warm_cache)  # noqa: E731
        edit = OneEdit(edited)
        edit_cache = self.new_cache()
        run_command(lint, env=self.env(edit_cache), **common)
        self.edited[key] = edited.relative_to(repo).as_posix()

        def edited_env() -> dict:
            edit.apply()
            return self.env(edit_cache)

        specs = [Spec("floor", "floor: hcl2 lark tree + ruamel.yaml", floor_cmd, cwd=repo, shown=floor_shown, inner=True)]
        if not light:
            specs.append(Spec("floor_parses", "hcl2.parses (LarkElement tree) + ruamel.yaml (not the floor)",
                              [self.python, "-c", FLOOR_CODE, ".", "parses"], cwd=repo,
                              shown="python -c '<the same with hcl2.parses>'"))
        specs += [
            Spec("cold", "kapsulint cold", lint, prepare=cold_env, shown=shown, **common),
            Spec("warm", "kapsulint warm", lint, prepare=warm_env, shown=shown, **common),
            Spec("warm_edit", "kapsulint warm after one edit", lint, prepare=edited_env, finish=edit.restore,
                 shown=f"{shown}  # one file changed since the run before", **common),
            Spec("first", "kapsulint first run after install (no grammar cache)", lint,
                 prepare=lambda: self.env(self.new_cache()), shown=shown, **common),
        ]
        if self.has_jobs and not light:
            specs.append(Spec("jobs1", "kapsulint cold `--jobs 1`", lint + ["--jobs", "1"], prepare=cold_env,
                              shown=shown + " --jobs 1", **common))
        if self.has_no_cache and not light:
            specs.append(Spec("no_cache", "kapsulint `--no-cache`", lint + ["--no-cache"], prepare=cold_env,
                              shown=shown + " --no-cache", **common))
        for extra_key, label, cmd, extra_shown in extra:
            specs.append(Spec(extra_key, label, cmd, prepare=warm_env, shown=extra_shown,
                              stdout_path=self.workdir / f"report-{key}-{extra_key}.json", cwd=repo))
        row.update(self.measure_rounds(specs, runs))
        for extra_key, *_ in extra:
            self.findings[f"{key}:{extra_key}"] = _count_findings(self.workdir / f"report-{key}-{extra_key}.json")
        if not light and not self.has_jobs:
            row["jobs1"] = Measurement("jobs1", "kapsulint cold `--jobs 1`", note="skipped: the CLI has no --jobs yet")
        if not light and not self.has_no_cache:
            row["no_cache"] = Measurement("no_cache", "kapsulint `--no-cache`", note="skipped: the CLI has no --no-cache yet")

        # Memory in runs of their own: the sampler's thread would slow the timed runs.
        row["mem_floor"] = self.measure("mem_floor", "peak RSS, floor", floor_cmd, runs, sample_memory=True,
                                        cwd=repo, shown=floor_shown)
        row["mem_cold"] = self.measure("mem_cold", "peak RSS, kapsulint cold (with workers)", lint, runs,
                                       prepare=cold_env, sample_memory=True, shown=shown, **common)
        row["mem_warm"] = self.measure("mem_warm", "peak RSS, kapsulint warm (with workers)", lint, runs,
                                       prepare=warm_env, sample_memory=True, shown=shown, **common)

        self.check_grammar_kept(cold_dir, grammar)

        if light:
            return row
        scale = key
        if self.checkov and isinstance(scale, int) and scale <= self.args.checkov_max_scale:
            checkov_cmd = [self.checkov, "-d", ".", "--framework", "terraform", "--quiet", "--compact",
                           "-o", "json", "--skip-download"]
            row["checkov"] = self.measure("checkov", f"Checkov {self.checkov_version()}", checkov_cmd, runs,
                                          sample_memory=True, ok_codes=(0, 1), cwd=repo,
                                          stdout_path=self.workdir / f"checkov-{scale}.json",
                                          shown=_display(checkov_cmd))
            row["checkov"].note = "timed while sampling memory (not a target)"
        elif self.checkov:
            row["checkov"] = Measurement("checkov", f"Checkov {self.checkov_version()}",
                                         note=f"not run above {self.args.checkov_max_scale} modules (--checkov-max-scale)")
        else:
            row["checkov"] = Measurement("checkov", "Checkov", note="not installed (no `checkov` on PATH, no --checkov)")
        return row

    def checkov_version(self) -> str:
        if not hasattr(self, "_checkov_version"):
            try:
                self._checkov_version = subprocess.run([self.checkov, "--version"], capture_output=True,
                                                       text=True, timeout=120).stdout.strip()
            except (OSError, subprocess.SubprocessError):
                self._checkov_version = "?"
        return self._checkov_version

    # -- the report

    def targets(self) -> list[tuple[str, str, str, str]]:
        """(target, figure, limit, verdict) for the issue's five targets."""
        def get(scale, key):
            m = self.results.get(scale, {}).get(key)
            return m if m is not None and m.seconds is not None else None

        def verdict(ok):
            return "met" if ok else "**missed**"

        rows = []
        floor, cold, warm = get(100, "floor"), get(100, "cold"), get(100, "warm")
        if floor and cold:
            ratio = cold.seconds / floor.seconds
            rows.append(("cold lint, 100 modules", f"{ratio:.2f}x floor ({cold.seconds:.2f} s / {floor.seconds:.2f} s)", "≤ 1.0x", verdict(ratio <= 1.0)))
        else:
            rows.append(("cold lint, 100 modules", "not measured", "≤ 1.0x", "not measured"))
        if floor and warm:
            ratio = warm.seconds / floor.seconds
            rows.append(("warm lint, 100 modules", f"{ratio:.2f}x floor ({warm.seconds:.2f} s / {floor.seconds:.2f} s)", "≤ 0.15x", verdict(ratio <= 0.15)))
        else:
            rows.append(("warm lint, 100 modules", "not measured", "≤ 0.15x", "not measured"))
        base = self.results.get("baseline", {})
        py, small = base.get("python"), base.get("small_warm")
        if py and small:
            ratio = small.seconds / py.seconds
            rows.append(("small project, warm", f"{ratio:.1f}x `python -c pass` ({small.seconds * 1000:.0f} ms / {py.seconds * 1000:.0f} ms)", "≤ 10x", verdict(ratio <= 10)))
        mem = self.results.get(100, {}).get("mem_cold")
        if mem and mem.peak:
            rows.append(("peak memory, cold, 100 modules", f"{mem.peak / MB:.1f} MB", "< 100 MB", verdict(mem.peak < 100 * MB)))
        else:
            rows.append(("peak memory, cold, 100 modules", "not measured", "< 100 MB", "not measured"))
        big = get(1000, "cold")
        if big and cold:
            ratio = big.seconds / cold.seconds
            rows.append(("scaling, cold, 1,000 / 100 modules", f"{ratio:.1f}x ({big.seconds:.2f} s / {cold.seconds:.2f} s)", "≤ 12x", verdict(ratio <= 12)))
        else:
            rows.append(("scaling, cold, 1,000 / 100 modules", "not measured (needs scales 100 and 1000)", "≤ 12x", "not measured"))
        return rows

    def targets27(self) -> list[tuple[str, str, str, str]]:
        """(target, figure, limit, verdict) for the targets of issue 27."""
        def get(scale, key):
            m = self.results.get(scale, {}).get(key)
            return m if m is not None and (m.seconds is not None or m.peak) else None

        def verdict(ok):
            return "met" if ok else "**missed**"

        def ratio_row(name, top, bottom, limit, unit, missing):
            shown = f"≤ {limit:.2f}{unit}" if limit < 1 else f"≤ {limit:.1f}{unit}" if limit < 10 else f"≤ {limit:g}{unit}"
            if top is None or bottom is None:
                return (name, f"not measured ({missing})", shown, "not measured")
            ratio = top.seconds / bottom.seconds
            return (name, f"{ratio:.2f}{unit} ({top.seconds:.2f} s / {bottom.seconds:.2f} s)", shown,
                    verdict(ratio <= limit))

        rows = [
            ratio_row("warm, real-world corpus (`--tree`)", get("tree", "warm"), get("tree", "floor"), 0.10, "x floor",
                      "give the corpus tree with --tree"),
            ratio_row("warm, 100 modules", get(100, "warm"), get(100, "floor"), 0.10, "x floor", "needs scale 100"),
        ]
        base = self.results.get("baseline", {})
        py, small = base.get("python"), base.get("small_warm")
        if py and small:
            ratio = small.seconds / py.seconds
            rows.append(("small project, warm", f"{ratio:.1f}x `python -c pass` ({small.seconds * 1000:.0f} ms / "
                         f"{py.seconds * 1000:.0f} ms)", "≤ 3x", verdict(ratio <= 3)))
        for key, what in (("mem_cold", "cold"), ("mem_warm", "warm")):
            mem = get(1000, key)
            if mem and mem.peak:
                rows.append((f"1,000 modules, peak memory, {what}", f"{mem.peak / MB:.1f} MB", "≤ 150 MB",
                             verdict(mem.peak <= 150 * MB)))
            else:
                rows.append((f"1,000 modules, peak memory, {what}", "not measured (needs scale 1000)", "≤ 150 MB",
                             "not measured"))
        rows.append(ratio_row("1,000 modules, cold / 100 modules, cold", get(1000, "cold"), get(100, "cold"), 10, "x",
                              "needs scales 100 and 1000"))
        rows.append(ratio_row("1,000 modules, cold / floor", get(1000, "cold"), get(1000, "floor"), 0.5, "x floor",
                              "needs scale 1000"))
        warm = get(1000, "warm")
        if warm:
            rows.append(("1,000 modules, warm", f"{warm.seconds:.2f} s", "≤ 1.5 s", verdict(warm.seconds <= 1.5)))
        else:
            rows.append(("1,000 modules, warm", "not measured (needs scale 1000)", "≤ 1.5 s", "not measured"))
        where = "tree" if get("tree", "first") else 100
        rows.append(ratio_row(f"first run with nothing cached ({'real-world corpus' if where == 'tree' else '100 modules'})",
                              get(where, "first"), get(where, "floor"), 1.0, "x floor", "needs --tree or scale 100"))
        return rows

    def markdown(self, command: str) -> str:
        scales = [s for s in self.args.scale_list if s in self.results]
        lines = ["# Benchmarks", ""]
        lines += ["Produced by `benchmarks/bench.py` (see benchmarks/README.md). Times are wall-clock medians "
                  "of whole processes, imports included, the timed rows of a scale measured in interleaved rounds; "
                  "ratios are to the floor at the same scale.", ""]
        lines += ["## Machine", ""]
        for key, value in self.machine.items():
            lines.append(f"- {key}: {value}")
        lines += ["", "## Command", "", "```", command, "```", ""]
        lines += [f"Runs per figure: {self.args.runs} (at most 3 at 1,000 modules and above).", ""]
        lines += ["## Synthetic monorepo", "",
                  "| modules | `.tf` files | `.tf` bytes | values files | values bytes | tfvars files | all files | all bytes | findings |",
                  "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for s in scales:
            c = self.corpora[s]
            found = self.findings.get(s, {})
            lines.append(f"| {s} | {c.tf_files} | {c.tf_bytes:,} | {c.values_files} | {c.values_bytes:,} | "
                         f"{c.tfvars_files} | {c.files} | {c.bytes:,} | {sum(found.values())} |")
        if self.args.variant != "base":
            lines += ["", f"Variant `{self.args.variant}`: of the `.tf` files, "
                      + ", ".join(f"{self.corpora[s].downloaded_tf_files} at {s} modules" for s in scales)
                      + " are under `.terraform/modules`; JSON files (plans and `modules.json`): "
                      + ", ".join(f"{self.corpora[s].json_files} ({self.corpora[s].json_bytes:,} bytes) at {s}"
                                  for s in scales) + "."]
            for s in scales:
                plan = self.findings.get(f"{s}:plan")
                if plan is not None:
                    lines.append(f"With `--plan` at {s} modules: {sum(plan.values())} findings on the root "
                                 f"({', '.join(f'{k} {v}' for k, v in sorted(plan.items())) or 'none'}).")
        lines += ["", "## Results", "",
                  "| measurement | " + " | ".join(f"{s} modules" for s in scales) + " |",
                  "|---|" + "---:|" * len(scales)]
        keys = ["floor", "floor_parses", "cold", "warm", "warm_edit", "first", "jobs1", "no_cache", "plan_root", "plan",
                "checkov"]
        mem_keys = ["mem_floor", "mem_cold", "mem_warm"]
        for key in keys + mem_keys:
            if not any(key in self.results[s] for s in scales):
                continue  # a row of the other variant
            label = next(self.results[s][key].label for s in scales if key in self.results[s])
            cells = []
            for s in scales:
                m = self.results[s].get(key)
                floor = self.results[s].get("floor")
                if m is None:
                    cells.append("")
                elif key in mem_keys or (key == "checkov" and m.seconds is None):
                    cells.append(f"{m.peak / MB:.1f} MB" if m.peak else (m.note or "—"))
                elif m.seconds is None:
                    cells.append(m.note or "—")
                else:
                    cell = f"{m.seconds:.2f} s"
                    if m.inner is not None:
                        cell += f" (in-process {m.inner:.2f} s)"
                    if key != "floor" and floor and floor.seconds:
                        cell += f" ({m.seconds / floor.seconds:.2f}x)"
                    if key == "checkov" and m.peak:
                        cell += f", {m.peak / MB:.0f} MB"
                    cells.append(cell)
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
        base = self.results.get("baseline", {})
        if base:
            lines += ["", "| start-up | median | ratio |", "|---|---:|---:|"]
            py = base["python"]
            lines.append(f"| `python -c pass` | {py.seconds * 1000:.0f} ms | 1.0x |")
            small = base["small_warm"]
            lines.append(f"| kapsulint, small project, warm ({small.note}) | {small.seconds * 1000:.0f} ms | "
                         f"{small.seconds / py.seconds:.1f}x |")
        tree = self.results.get("tree")
        if tree:
            lines += ["", f"## Real-world tree (`--tree {self.args.tree}`)", "",
                      f"{self.tree_files} `.tf` files; the floor could not parse {self.tree_failures} file(s) "
                      f"(counted, not fatal); {sum(self.findings.get('tree', {}).values())} findings; "
                      f"the edited file: `{self.edited.get('tree')}`.", "",
                      "| measurement | tree |", "|---|---:|"]
            for key in keys + mem_keys:
                m = tree.get(key)
                if m is None:
                    continue
                if key in mem_keys:
                    cell = f"{m.peak / MB:.1f} MB" if m.peak else "—"
                else:
                    cell = f"{m.seconds:.2f} s"
                    if key != "floor":
                        cell += f" ({m.seconds / tree['floor'].seconds:.2f}x)"
                lines.append(f"| {m.label} | {cell} |")
        lines += ["", "## Targets (issue 6)", "", "| target | measured | limit | verdict |", "|---|---|---|---|"]
        for row in self.targets():
            lines.append("| " + " | ".join(row) + " |")
        heading = "## Targets (issue 27)"
        if self.args.variant != "base":
            heading += f", measured on the {self.args.variant} variant (the targets are the base monorepo's)"
        lines += ["", heading, "", "| target | measured | limit | verdict |", "|---|---|---|---|"]
        for row in self.targets27():
            lines.append("| " + " | ".join(row) + " |")
        edited = [f"{s} modules: `{self.edited[s]}`" for s in scales if s in self.edited]
        if edited:
            lines += ["", "The warm run after one edit appends a `locals` block (a new one each run) to one file, "
                      "restored after the run, and reuses a cache of its own: " + ", ".join(edited) + "."]
        lines += ["", "## Commands measured", ""]
        seen = set()
        for s in ["baseline", "tree"] + scales:
            for m in self.results.get(s, {}).values():
                if m.command and m.label not in seen:
                    seen.add(m.label)
                    lines.append(f"- {m.label}: `{m.command}`")
        lines += ["", "Every command runs inside the monorepo (kapsulint's project root is the working "
                  "directory). The floor's time is the subprocess's wall time, interpreter start and imports "
                  "included like kapsulint's; its in-process figure is its own clock from before the imports. "
                  "Cold runs reuse one `KAPSULINT_CACHE_DIR` whose grammar cache was written there (Lark keys "
                  "that cache with its own path, so a copied `grammar-*` file is stale) and lose everything "
                  "else before each run; warm runs reuse a directory filled by an untimed run; first runs get "
                  "an empty directory. Peak RSS is the largest sum of VmRSS over the process and its descendants, "
                  "sampled every 10 ms in runs of its own.", ""]
        notes = list(dict.fromkeys(self.notes))
        for s in scales:
            for m in self.results[s].values():
                if m.note and m.seconds is None and m.peak is None:
                    notes.append(f"{m.label}: {m.note}.")
        if notes:
            lines += ["## Notes", ""] + [f"- {n}" for n in dict.fromkeys(notes)] + [""]
        return "\n".join(lines)


def clear_parse_cache(directory: Path) -> None:
    """Delete everything in a cache directory but its ``grammar-*`` files."""
    for entry in directory.iterdir():
        if entry.name.startswith("grammar-"):
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()


def _grammar_state(directory: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_size, p.stat().st_mtime_ns) for p in directory.glob("grammar-*")}


def _count_findings(path: Path) -> dict[str, int]:
    counts: dict[str, int] = {}
    try:
        for finding in json.loads(path.read_text(encoding="utf-8")):
            counts[finding["rule"]] = counts.get(finding["rule"], 0) + 1
    except (OSError, ValueError, TypeError, KeyError):
        pass
    return counts


def _display(cmd: list[str]) -> str:
    return shlex.join([Path(cmd[0]).name] + cmd[1:])


def _find_kapsulint() -> str:
    beside = Path(sys.executable).with_name("kapsulint")
    if beside.exists():
        return str(beside)
    found = shutil.which("kapsulint")
    if not found:
        sys.exit("bench.py: no kapsulint executable (install kapsulint or pass --kapsulint)")
    return found


def machine_info(kapsulint: str) -> dict[str, str]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    version = subprocess.run([kapsulint, "--version"], capture_output=True, text=True).stdout.strip()
    libs = []
    for name in ("python-hcl2", "lark", "ruamel.yaml"):
        try:
            from importlib.metadata import version as dist_version

            libs.append(f"{name} {dist_version(name)}")
        except Exception:
            pass
    return {
        "CPU": cpu,
        "cores": f"{os.cpu_count()} ({usable} usable by this process)",
        "OS": f"{platform.system()} {platform.release()}",
        "Python": platform.python_version(),
        "kapsulint": version or "?",
        "parsers": ", ".join(libs),
        "load average at start": " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?",
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scales", default="10,100,1000", help="module counts, comma-separated (default 10,100,1000)")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure, median reported (default 5; at most 3 at 1,000 modules)")
    parser.add_argument("--markdown", metavar="FILE", help="also write the report as Markdown to FILE")
    parser.add_argument("--workdir", metavar="DIR", help="where monorepos and caches go (default: a temporary directory, removed)")
    parser.add_argument("--checkov", metavar="PATH", help="the checkov executable (default: `checkov` on PATH)")
    parser.add_argument("--checkov-max-scale", type=int, default=100, help="largest scale Checkov is run at (default 100)")
    parser.add_argument("--kapsulint", metavar="PATH", help="the kapsulint executable (default: beside this Python)")
    parser.add_argument("--tree", metavar="DIR", help="also measure a real tree (the real-world corpus as one "
                        "directory): floor, cold, warm, warm after one edit, first run, peak memory")
    parser.add_argument("--generate-only", action="store_true", help="write the monorepos into --workdir and stop")
    parser.add_argument("--variant", choices=VARIANTS, default="base",
                        help="base: the monorepo of the published figures (default); registry: the same plus registry "
                             "modules with .terraform/modules, Helm values files and plans, and a --plan row")
    args = parser.parse_args(argv)
    args.scale_list = [int(s) for s in args.scales.split(",") if s.strip()]
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    raw = sys.argv[1:] if argv is None else argv
    script = os.path.relpath(__file__) if not os.path.relpath(__file__).startswith("..") else __file__
    command = shlex.join(["python", script] + raw)
    if args.generate_only:
        if not args.workdir:
            sys.exit("bench.py: --generate-only needs --workdir")
        for scale in args.scale_list:
            name = monorepo_name(scale, args.variant)
            stats = generate_monorepo(Path(args.workdir) / name, scale, variant=args.variant)
            print(f"{name}: {stats.tf_files} .tf files, {stats.tf_bytes:,} bytes of .tf; "
                  f"{stats.files} files, {stats.bytes:,} bytes in all")
        return 0
    bench = Bench(args)
    try:
        if not bench.has_jobs or not bench.has_no_cache:
            missing = [o for o, ok in (("--jobs", bench.has_jobs), ("--no-cache", bench.has_no_cache)) if not ok]
            bench.notes.append(f"`kapsulint --help` lists no {' / '.join(missing)}: those rows are skipped.")
        bench.prepare_grammar()
        bench.log("start-up")
        bench.baseline()
        if args.tree:
            bench.tree(Path(args.tree).resolve())
        for scale in args.scale_list:
            shutil.rmtree(bench.cache_root, ignore_errors=True)
            bench.cache_root.mkdir()
            bench.scale(scale)
        report = bench.markdown(command)
        print(report)
        if args.markdown:
            Path(args.markdown).write_text(report, encoding="utf-8")
    finally:
        if not args.workdir:
            shutil.rmtree(bench.workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
