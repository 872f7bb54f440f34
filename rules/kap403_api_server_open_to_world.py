"""API server open to the world.

## What it does
Reports a Kapsule cluster whose API server accepts connections from any address: no `scaleway_k8s_acl`, or an ACL rule for a /0 range.

## Why is this bad
Every new Kapsule cluster comes with an API server ACL that allows `0.0.0.0/0`, and keeps it
until a `scaleway_k8s_acl` resource replaces it. Until then the Kubernetes API is exposed to
the whole Internet: a leaked token or kubeconfig works from anywhere, and the endpoint is open
to scanning, brute force and the next API server vulnerability. A rule with `ip = "0.0.0.0/0"`
(or `::/0`) inside an ACL has the same effect.

A `scaleway_k8s_acl` lists the ranges allowed (`acl_rules { ip = ... }`, one rule with
`scaleway_ranges = true` to admit Scaleway's own ranges, such as CI runners on Scaleway), or
sets `no_ip_allowed = true` to isolate the API server completely (whether it then stays
reachable through the private network, for Terraform itself, is not confirmed). There is one ACL
per cluster; deleting it restores the allow-all rule.

The rule looks for an ACL whose `cluster_id` refers to the cluster. It reports a missing ACL
only when that absence is certain: every file of the cluster's root module and of the modules it
calls was parsed, every module call among them leads to a scanned module, no ACL of that root
has a `cluster_id` kapsulint cannot follow, and the scaleway provider version has the resource.
A broken file, a registry module call or an ACL in another root module (another apply) changes
nothing for this cluster. The resource exists from provider 2.54, the oldest release holding the pull request that
added it (https://github.com/scaleway/terraform-provider-scaleway/pull/3033). The version is the
one locked in `.terraform.lock.hcl`, else the one `required_providers` selects, read as Terraform
reads constraints: a pinned pre-release (`version = "2.0.0-rc1"`) is that pre-release, older than
2.0.0, and a range naming a pre-release (`">= 2.0.0-rc1, < 2.1.0"`) selects releases only. When
the version is unknown, or is a pre-release of 2.54.0 (which may or may not hold the resource),
the rule still reports, and the suggested fix says which version is needed. Kosmos (`multicloud`)
clusters are out of scope for the missing-ACL check.

Source: Scaleway Terraform provider, `internal/services/k8s/acl.go` and
`docs/resources/k8s_acl.md` (https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_acl.md).

## Example
```hcl
resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  version                     = "1.31"
  cni                         = "cilium"
  private_network_id          = scaleway_vpc_private_network.nodes.id
  delete_additional_resources = false
}
```

## Use instead
```hcl
resource "scaleway_k8s_acl" "main" {
  cluster_id = scaleway_k8s_cluster.main.id

  acl_rules {
    ip          = "203.0.113.0/24"
    description = "office"
  }

  acl_rules {
    scaleway_ranges = true
    description     = "CI runners on Scaleway"
  }
}
```

## References
- [scaleway_k8s_acl](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_acl)
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
"""

from collections.abc import Iterator

from kapsulint.api import (
    UNKNOWN,
    Finding,
    Project,
    Related,
    Version,
    finding,
    shown_text,
)
from kapsulint.kapsule import access, clusters, provider_features
from kapsulint.kapsule.provider_releases import provider_version

ID = "KAP403"
NAME = "api-server-open-to-world"
SEVERITY = "warning"
SECURITY = True

_ADD = (
    'add a resource "scaleway_k8s_acl" for the cluster with acl_rules for your own ranges '
    "(scaleway_ranges = true admits Scaleway's ranges), or no_ip_allowed = true"
)
_RULE_FIX = "replace the /0 range with the ranges that need the API server (or scaleway_ranges = true)"


def fix_for(version: Version | None) -> str:
    """The fix for a missing ACL: never one the provider version in use cannot take."""
    if provider_features.supports("k8s_acl", version) is not None:
        return _ADD
    if version is None:
        return f"{_ADD}; the resource needs scaleway provider 2.54 or later"
    return f"require scaleway provider 2.54.0 or later ({version.text} may predate scaleway_k8s_acl), then {_ADD}"


def _missing(project: Project) -> Iterator[Finding]:
    index = access.acl_index(project)
    for cluster in clusters.clusters(project):
        instance = cluster.instance
        if instance.key is UNKNOWN or cluster.is_kapsule is not True:
            continue
        # only the cluster's root module and what it calls could supply its ACL
        if not project.complete_for(instance.module):
            continue
        if any(acl.module.root is instance.module.root for acl in index.unattached):
            continue
        if index.acls_of(instance):
            continue
        version = provider_version(instance.module, "scaleway", "scaleway/scaleway")
        if provider_features.supports("k8s_acl", version) is False:
            continue
        address = instance.resource.address
        yield finding(
            instance.block.loc,
            f"{address} has no scaleway_k8s_acl: its API server keeps the default rule that "
            "allows 0.0.0.0/0, so it accepts connections from any address",
            subject=address,
            instance=instance.address,
            logical=f"{address}.acl",
            fix=fix_for(version),
        )


def _open_rules(project: Project) -> Iterator[Finding]:
    for acl in project.resources(access.ACL):
        address = acl.resource.address
        cluster = clusters.cluster_of(acl.arg("cluster_id"))
        related = []
        if cluster is not None:
            related.append(Related(cluster.block.loc, f"the API server of {cluster.address}"))
        for ip in access.open_rules(acl):
            if ip.loc is None:  # open_rules gives written values, each with its place
                continue
            yield finding(
                ip.loc,
                f"{address} allows {shown_text(ip, ip.raw.strip())} in acl_rules: the API server accepts connections "
                "from any address",
                subject=address,
                instance=acl.address,
                related=related,
                logical=f"{address}.acl_rules.ip",
                fix=_RULE_FIX,
            )


def check(project: Project) -> Iterator[Finding]:
    yield from _missing(project)
    yield from _open_rules(project)
