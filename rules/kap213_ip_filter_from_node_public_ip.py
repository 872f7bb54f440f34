"""Allow list built from node public IPs.

## What it does
Reports an ACL or firewall rule (`scaleway_k8s_acl`, `scaleway_instance_security_group(_rules)`,
`scaleway_rdb_acl`, `scaleway_lb_acl`, `scaleway_redis_cluster`) whose addresses come from a
pool's `nodes[*].public_ip` or `public_ip_v6`.

## Why is this bad
A pool's `nodes` attribute lists the addresses its nodes had at the last refresh. Kapsule
replaces nodes all the time: a Kubernetes upgrade replaces every node of a pool, autohealing
replaces a sick one, the autoscaler adds and removes them. Each new node comes with a new public
IP, so a database ACL, a load balancer ACL, a security group or the API server's ACL built from
those addresses shuts out the new nodes until someone runs Terraform again, and lets whoever gets
an old address in. The provider deprecates both attributes ("Please use the official Kubernetes
provider and the kubernetes_nodes data source"). Traffic from nodes is better filtered on the
private network, or leaves through a Public Gateway's fixed IP.

kapsulint follows the rule's arguments through locals, variables, module arguments and outputs.
The finding points at the argument of the rule, with the pool attribute read in `related`.

Source: Scaleway Terraform provider, the pool schema's deprecated `nodes.public_ip` and
`nodes.public_ip_v6` (https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/services/k8s/pool.go);
Scaleway documentation, "Secure a cluster with a Private Network"
(https://www.scaleway.com/en/docs/kubernetes/reference-content/secure-cluster-with-private-network/).

## Example
```hcl
resource "scaleway_rdb_acl" "db" {
  instance_id = scaleway_rdb_instance.db.id

  dynamic "acl_rules" {
    for_each = scaleway_k8s_pool.apps.nodes
    content {
      ip = "${acl_rules.value.public_ip}/32"
    }
  }
}
```

## Use instead
```hcl
resource "scaleway_rdb_instance" "db" {
  private_network {
    pn_id       = scaleway_vpc_private_network.k8s.id
    enable_ipam = true
  }
}
```

Or allow the Public Gateway's IP (`scaleway_vpc_public_gateway_ip.nat.address`) that private
nodes leave through.

## References
- [scaleway_k8s_pool](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_pool)
- [Secure a cluster with a Private Network](https://www.scaleway.com/en/docs/kubernetes/reference-content/secure-cluster-with-private-network/)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, Related, finding
from kapsulint.kapsule import node_addresses

ID = "KAP213"
NAME = "ip-filter-from-node-public-ip"
SEVERITY = "warning"


def check(project: Project) -> Iterator[Finding]:
    for resource_type in sorted(node_addresses.IP_FILTER_RESOURCES):
        for instance in project.resources(resource_type):
            address = instance.resource.address
            for use in node_addresses.node_ip_uses(instance.block, instance.module):
                first = use.found[0]
                yield finding(
                    use.loc,
                    f"{address} builds its {use.name} from {first.pool} nodes' {first.attribute}, addresses "
                    "that change whenever a node is replaced (upgrades, autohealing, autoscaling); the "
                    "attribute is deprecated",
                    subject=address,
                    instance=instance.address,
                    related=[Related(ref.loc, f"{ref.pool}.nodes: the nodes' addresses at the last refresh")
                             for ref in use.found if ref.loc != use.loc],
                    logical=f"{address}.{use.name}",
                    fix="filter on the private network, or allow the Public Gateway's IP the nodes leave through",
                )
