"""Ingress controller can run on shared-vCPU nodes.

## What it does
Reports an ingress controller (haproxytech, ingress-nginx or traefik) whose pods can be scheduled
on a pool with shared vCPUs.

## Why is this bad
Every request of every application goes through the ingress controller. On shared-vCPU instance
families (DEV1, GP1, PLAY2, PRO2, COPARM1, BASIC2, STARDUST1 and the retired START1, VC1, X64),
a physical core is shared with other customers' instances: under their load the controller gets
CPU steal, which shows up as latency spikes and timeouts while Kubernetes metrics report a calm
pod. Scaleway itself advises dedicated vCPUs for latency-sensitive production work.

kapsulint checks the controller's `nodeSelector`, required node affinity and tolerations against
the labels and taints of each pool of the release's cluster: pool `labels` and `taints`, labels
and taints from pool `tags` (`k=v` becomes `k8s.scaleway.com/k`, `noprefix=k=v` becomes `k`),
and the labels Kapsule sets on every node (`k8s.scaleway.com/pool-name`,
`node.kubernetes.io/instance-type`, zone and region). A selector on a label no pool is known to
carry is treated as unknown and stays silent.

Releases read: `helm_release`s, whose cluster is the one their helm provider connects to, else the
only cluster of their root module tree. A chart installed by an Argo CD Application, a Flux
HelmRelease or a helmfile release is judged only when the repository ties it to one
`scaleway_k8s_cluster` unambiguously; none of them names such a cluster (their destination is a
cluster registered in the tool, the cluster the controller runs in, or a kubeconfig context), so
this rule does not judge them.

Sources: Scaleway docs `choosing-shared-vs-dedicated-cpus` and the Instances datasheet
(https://www.scaleway.com/en/docs/instances/reference-content/choosing-shared-vs-dedicated-cpus/), pool tags and automatic labels
(https://www.scaleway.com/en/docs/kubernetes/api-cli/managing-tags/; the pool-name label is
used widely but not found in Scaleway's prose documentation), chart values paths
(https://github.com/haproxytech/helm-charts/blob/c5edba19/kubernetes-ingress/values.yaml, https://github.com/kubernetes/ingress-nginx/blob/helm-chart-4.15.1/charts/ingress-nginx/values.yaml, https://github.com/traefik/traefik-helm-chart/blob/v41.3.0/traefik/values.yaml).

## Example
```hcl
resource "helm_release" "haproxy" {
  chart = "kubernetes-ingress"
  values = [yamlencode({
    controller = { nodeSelector = { "k8s.scaleway.com/pool-name" = "apps" } }
  })]
}
```
where the `apps` pool uses `node_type = "PRO2-S"`.

## Use instead
Pin the controller to a pool of a dedicated-vCPU type (POP2 and its HC, HM and HN variants):
```hcl
controller = { nodeSelector = { "k8s.scaleway.com/pool-name" = "system" } }
```

## References
- [Choosing between shared and dedicated vCPU](https://www.scaleway.com/en/docs/instances/reference-content/choosing-shared-vs-dedicated-cpus/)
- [Managing tags on Kapsule pools](https://www.scaleway.com/en/docs/kubernetes/api-cli/managing-tags/)
- [Assigning pods to nodes](https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Loc, Project, Related, Val, finding, shown_text
from kapsulint.kapsule import helm, node_types
from kapsulint.kapsule.charts import Chart
from kapsulint.kapsule.clusters import Pool
from kapsulint.kapsule.scheduling import Matcher, PoolNodes, placement_of

ID = "KAP301"
NAME = "ingress-on-shared-vcpu"
SEVERITY = "warning"


def check(project: Project) -> Iterator[Finding]:
    for release in helm.releases(project):
        controller = release.controller
        if controller is None:
            continue
        cluster = release.cluster()
        if cluster is None or cluster.is_kapsule is not True:
            continue
        pools = [p for p in cluster.pools(project) if p.in_kapsule_scope]
        if not pools:
            continue
        values = release.values()
        if values.open:
            continue
        placement = placement_of(values, controller, release.chart_version)
        if not placement.known:
            continue
        selector = values.path(*controller.node_selector_path)
        nodes = [PoolNodes.of(p) for p in pools]
        matcher = Matcher(nodes)
        landing = [n for n in nodes if node_types.is_shared_vcpu(n.pool.normalized_node_type or "")
                   and matcher.can_land(n, placement) is True]
        if not landing:
            continue
        anchor = _anchor(values, controller, selector, release)
        named = list(dict.fromkeys(
            f"{n.pool.instance.address} ({_shown_type(n.pool)})" for n in landing))
        related_locs = list(dict.fromkeys(n.pool.node_type.loc for n in landing if n.pool.node_type.loc is not None))
        yield finding(
            anchor,
            f"{release.instance.resource.address} ({controller.key}) can run on shared-vCPU "
            f"pool{'s' if len(named) > 1 else ''} {', '.join(named)}",
            subject=release.instance.resource.address,
            instance=release.instance.address,
            related=[Related(loc, f"shared-vCPU node type {_type_at(landing, loc)}") for loc in related_locs],
            logical=f"{release.instance.resource.address}.{'.'.join(controller.node_selector_path)}",
            fix="pin the controller to a dedicated-vCPU pool (POP2*) with nodeSelector or required node affinity",
        )


def _type_at(landing: list[PoolNodes], loc: Loc) -> str:
    """The node type written at ``loc``, as the pools reading it normalise it."""
    pool = next(n.pool for n in landing if n.pool.node_type.loc == loc)
    return _shown_type(pool)


def _shown_type(pool: Pool) -> str:
    """The normalised node type of a pool that can take the controller, as a message prints it."""
    # Only pools of a shared-vCPU type land, and an unknown or empty type has no vCPU kind.
    assert pool.normalized_node_type is not None
    return shown_text(pool.node_type, pool.normalized_node_type)


def _anchor(values: Val, controller: Chart, selector: Val, release: helm.Release) -> Loc:
    """The first selector key, else the affinity key when it holds a ``nodeAffinity`` (a pod
    affinity or anti-affinity alone does not choose nodes), else the release header."""
    if selector.is_object:
        for key in selector.raw:
            loc = selector.key_loc(key)
            if loc is not None:
                return loc
    affinity = values.path(*controller.affinity_path)
    parent = values.path(*controller.affinity_path[:-1]) if len(controller.affinity_path) > 1 else values
    loc = parent.key_loc(controller.affinity_path[-1])
    if loc is not None and affinity.is_object and affinity.get("nodeAffinity").raw is not None:
        return loc
    return release.header
