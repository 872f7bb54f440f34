"""PROXY trusted ranges leave out the private network.

## What it does
Reports an ingress controller whose PROXY protocol trusted ranges (haproxytech `proxy-protocol`,
ingress-nginx `proxy-real-ip-cidr`, traefik `proxyProtocol.trustedIPs`) do not cover the subnet of
its cluster's private network.

## Why is this bad
On a Kapsule cluster with a private network, the Scaleway cloud controller manager attaches the
Service's load balancer to that network and sends the traffic to the nodes' private IPs: the
connections reach the controller from the load balancer's address in the private network's
subnet. A controller that takes PROXY headers only from other ranges (a public range, an office,
the pod CIDR) then treats the load balancer as an untrusted peer: haproxytech does not read the
header it expects and the connections fail, ingress-nginx and traefik drop it and log the load
balancer's private IP as the client's, so allow lists and rate limits see one client.

The rule judges the subnets written on the cluster's `scaleway_vpc_private_network`
(`ipv4_subnet`; a subnet Scaleway chooses is not known) against ranges whose entries are all
known CIDRs; a range with a `/0` entry is KAP302's, and any overlap with the subnet counts as
covering it. The finding points at the trusted ranges, with the subnet in `related`.

A Service that names its own private networks (`scw-loadbalancer-pn-ids`) or whose load balancer
is externally managed is left out.

Source: Scaleway cloud controller manager at v0.36.2: `PN_ID`, "the ID of the Private Network to
attach managed load balancers to, and to use for routing traffic to nodes"
(https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/configuration.md),
and `scaleway/loadbalancers.go`, which then targets the nodes' internal IPs
(https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/scaleway/loadbalancers.go);
the controllers' documentation
(https://github.com/haproxytech/kubernetes-ingress/blob/fc120676/documentation/configmap.md,
https://github.com/kubernetes/ingress-nginx/blob/controller-v1.15.1/docs/user-guide/nginx-configuration/configmap.md,
https://github.com/traefik/traefik-helm-chart/blob/v41.3.0/traefik/values.yaml).

## Example
```hcl
resource "scaleway_vpc_private_network" "k8s" {
  ipv4_subnet {
    subnet = "172.16.0.0/22"
  }
}

resource "helm_release" "ingress" {
  chart = "ingress-nginx"
  values = [yamlencode({
    controller = { config = {
      use-proxy-protocol = "true"
      proxy-real-ip-cidr = "100.64.0.0/15"
    } }
  })]
}
```

## Use instead
```hcl
      proxy-real-ip-cidr = "172.16.0.0/22"
```

## References
- [Scaleway CCM load balancer annotations](https://github.com/scaleway/scaleway-cloud-controller-manager/blob/v0.36.2/docs/loadbalancer-annotations.md)
- [Secure a cluster with a Private Network](https://www.scaleway.com/en/docs/kubernetes/reference-content/secure-cluster-with-private-network/)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, Related, finding
from kapsulint.kapsule import helm, lb_annotation_catalogue, lb_annotations, network

# The Service names its own networks, or is not the CCM's to attach: the subnet is not known.
ELSEWHERE = (lb_annotation_catalogue.PREFIX + "scw-loadbalancer-pn-ids",
             lb_annotation_catalogue.PREFIX + "scw-loadbalancer-externally-managed")


def _attached_elsewhere(project: Project, subject: str) -> bool:
    return subject in project.memo("kap320.attached-elsewhere", lambda: _subjects_attached_elsewhere(project))


def _subjects_attached_elsewhere(project: Project) -> frozenset[str]:
    """The subjects with a Service whose annotations may name its networks (open ones included)."""
    return frozenset(svc.subject for svc in lb_annotations.annotated_services(project)
                     if svc.annotations.open or any(key.strip() in ELSEWHERE for key, _ in svc.annotations.items()))

ID = "KAP320"
NAME = "proxy-trust-misses-private-network"
SEVERITY = "warning"


def check(project: Project) -> Iterator[Finding]:
    for release in helm.releases(project):
        controller = release.controller
        cluster = release.cluster() if controller is not None else None
        if cluster is None or cluster.is_kapsule is not True:
            continue
        assert controller is not None  # the cluster is looked up only for a release with a controller
        private = network.cluster_private_network(cluster)
        subnets = [s for s in network.subnets(private) if s.block_type == "ipv4_subnet"] if private else []
        if not subnets:
            continue
        values = release.values()
        address = release.instance.resource.address
        if values.open or _attached_elsewhere(project, address):
            continue
        for trusted in controller.trusted_ranges(values):
            if any(entry.prefixlen == 0 for entry in trusted.networks):
                continue
            if any(network.overlaps(entry, s.network) for entry in trusted.networks for s in subnets):
                continue
            listed = ", ".join(str(s.network) for s in subnets)
            yield finding(
                trusted.loc,
                f"{address} ({controller.key}) takes PROXY headers only from ranges that leave out its "
                f"cluster's private network ({listed}), where the load balancer reaches the nodes from",
                subject=address,
                instance=release.instance.address,
                # subnets() keeps only subnets whose value has a location
                related=[Related(s.value.loc, "the private network's subnet") for s in subnets
                         if s.value.loc is not None],
                logical=f"{address}.{trusted.setting}",
                fix=f"add the private network's subnet ({listed}) to {trusted.setting}",
            )
