"""Property tests (issue 7): valid projects, mutated, never make kapsulint crash.

A small valid project (a cluster, a pool, a helm_release with ``yamlencode`` values and a values
file, plus a ``.tf.json`` file and tfvars) has one of its files mutated by byte flips, truncation,
deletions, insertions of random bytes and runs of nesting characters. Every example is linted
in-process in a fresh directory: no exception escapes, the exit code is 0 or 1 (2 would be an
internal error), the JSON report parses, and every 20th example's SARIF report validates.

Profiles (tests/conftest.py): ``ci`` (default, about 1,000 examples) and ``fuzz``
(``HYPOTHESIS_PROFILE=fuzz``, 10,000 examples) for long runs.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import tempfile
from pathlib import Path

import jsonschema
from click.testing import CliRunner
from hypothesis import given, note
from hypothesis import strategies as st

from kapsulint.cli.command import main

SCHEMA = json.loads((Path(__file__).parent / "schemas" / "sarif-2.1.0.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.validators.validator_for(SCHEMA)(SCHEMA)
SARIF_EVERY = 20

PROJECT: dict[str, bytes] = {
    "main.tf": b'''\
terraform {
  required_providers {
    scaleway = { source = "scaleway/scaleway", version = "~> 2.50" }
    helm     = { source = "hashicorp/helm", version = "~> 2.17" }
  }
}

provider "scaleway" {
  region = "fr-par"
}

variable "pool_size" {
  type    = number
  default = 2
}

locals {
  tags  = ["env:prod", "team:platform"]
  pools = { apps = "PRO2-S", jobs = "DEV1-M" }
}

resource "scaleway_vpc_private_network" "nodes" {
  name = "nodes"
}

resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  version                     = "1.31"
  cni                         = "cilium"
  type                        = "kapsule"
  private_network_id          = scaleway_vpc_private_network.nodes.id
  delete_additional_resources = true
  tags                        = local.tags

  auto_upgrade {
    enable                        = true
    maintenance_window_start_hour = 3
    maintenance_window_day        = "monday"
  }
}

resource "scaleway_k8s_pool" "this" {
  for_each    = local.pools
  cluster_id  = scaleway_k8s_cluster.main.id
  name        = each.key
  node_type   = each.value
  size        = var.pool_size
  min_size    = 1
  max_size    = 5
  autoscaling = true
  autohealing = true
  tags        = concat(local.tags, ["pool:${each.key}"])
}

resource "helm_release" "ingress" {
  name       = "ingress-nginx"
  repository = "https://kubernetes.github.io/ingress-nginx"
  chart      = "ingress-nginx"
  version    = "4.11.3"
  namespace  = "ingress-nginx"

  values = [
    file("${path.module}/values.yaml"),
    yamlencode({
      controller = {
        kind = "DaemonSet"
        service = {
          type                  = "LoadBalancer"
          externalTrafficPolicy = "Local"
          annotations = {
            "service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2" = "true"
            "service.beta.kubernetes.io/scw-loadbalancer-zone"              = "fr-par-1"
          }
        }
        config = { "use-proxy-protocol" = "true" }
        nodeSelector = { "k8s.scaleway.com/pool-name" = "apps" }
      }
    }),
  ]

  set {
    name  = "controller.replicaCount"
    value = "2"
  }
}
''',
    "values.yaml": b'''\
# ingress-nginx values
controller:
  replicaCount: 2
  service:
    annotations:
      service.beta.kubernetes.io/scw-loadbalancer-use-hostname: "true"
      service.beta.kubernetes.io/scw-loadbalancer-type: LB-S
  tolerations:
    - key: node.kubernetes.io/unreachable
      operator: Exists
  resources: &res
    requests: {cpu: 100m, memory: 90Mi}
  admissionWebhooks:
    resources: *res
''',
    "network.tf.json": b'''\
{
  "resource": {
    "scaleway_lb_ip": {
      "ingress": {"zone": "fr-par-1", "tags": ["${local.tags[0]}"]}
    }
  },
  "output": {"cluster_id": {"value": "${scaleway_k8s_cluster.main.id}"}}
}
''',
    "terraform.tfvars": b'pool_size = 3\n',
}

NAMES = sorted(PROJECT)


@st.composite
def mutated_project(draw) -> dict[str, bytes]:
    """The project with one file (sometimes two) mutated one to four times."""
    files = dict(PROJECT)
    for name in draw(st.permutations(NAMES))[:draw(st.integers(1, 2))]:
        data = bytearray(files[name])
        for _ in range(draw(st.integers(1, 4))):
            kind = draw(st.sampled_from(["flip", "truncate", "delete", "insert", "nest", "nest"]))
            at = draw(st.integers(0, len(data)))
            if kind == "flip" and data:
                at = min(at, len(data) - 1)
                data[at] ^= draw(st.integers(1, 255))
            elif kind == "truncate":
                del data[at:]
            elif kind == "delete":
                del data[at:at + draw(st.integers(1, 64))]
            elif kind == "insert":
                data[at:at] = draw(st.binary(min_size=1, max_size=16))
            elif kind == "nest":
                # Runs of openers (sometimes with separators or closers) past the 500-level limit.
                opener = draw(st.sampled_from(["{", "[", "(", "${", "{a=", "[1,", "- "]))
                count = draw(st.one_of(st.integers(1, 40), st.integers(490, 620)))
                closer = draw(st.sampled_from(["", "}", "]", ")"]))
                data[at:at] = (opener * count + closer * draw(st.integers(0, count))).encode()
        files[name] = bytes(data)
    return files


_examples = itertools.count()
# A parse cache of the fuzz run's own (its unmutated files are read from it), never the user's.
_CACHE = tempfile.TemporaryDirectory(prefix="kapsulint-fuzz-cache-")


def lint(directory: Path, output_format: str):
    with contextlib.chdir(directory):
        return CliRunner().invoke(main, ["--format", output_format, "--jobs", "1"],
                                  env={"KAPSULINT_CACHE_DIR": _CACHE.name}, catch_exceptions=False)


@given(files=mutated_project())
def test_mutated_projects_never_crash(files):
    number = next(_examples)
    with tempfile.TemporaryDirectory(prefix="kapsulint-fuzz-") as temporary:
        root = Path(temporary)
        for name, content in files.items():
            (root / name).write_bytes(content)
            if content != PROJECT[name]:
                note(f"{name}: {content!r}")
        result = lint(root, "json")
        assert result.exit_code in (0, 1), result.stderr
        assert "Traceback" not in result.stderr and "internal error" not in result.stderr
        report = json.loads(result.stdout)
        assert isinstance(report, list)
        for finding in report:
            assert finding["line"] >= 1 and finding["column"] >= 1
            assert (finding["end_line"], finding["end_column"]) > (finding["line"], finding["column"] - 1)
        if number % SARIF_EVERY == 0:
            result = lint(root, "sarif")
            assert result.exit_code in (0, 1), result.stderr
            VALIDATOR.validate(json.loads(result.stdout))


def test_the_unmutated_project_is_valid(tmp_path):
    for name, content in PROJECT.items():
        (tmp_path / name).write_bytes(content)
    result = lint(tmp_path, "json")
    assert result.exit_code == 1 and result.stderr == ""
    rules = {f["rule"] for f in json.loads(result.stdout)}
    assert "KAP001" not in rules and "KAP101" in rules


def test_the_profile_comes_from_the_environment():
    from hypothesis import settings

    expected = os.environ.get("HYPOTHESIS_PROFILE", "ci")
    assert settings.get_profile(expected) == settings.default
