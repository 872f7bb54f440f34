resource "scaleway_vpc" "main" {
  name = "${var.environment}-vpc"
}

resource "scaleway_vpc_private_network" "nodes" {
  name   = "${var.environment}-nodes"
  vpc_id = scaleway_vpc.main.id

  ipv4_subnet {
    subnet = local.nodes_subnet
  }
}

resource "scaleway_vpc_public_gateway_ip" "egress" {}

resource "scaleway_vpc_public_gateway" "egress" {
  name  = "${var.environment}-egress"
  type  = "VPC-GW-S"
  ip_id = scaleway_vpc_public_gateway_ip.egress.id
}

resource "scaleway_vpc_gateway_network" "nodes" {
  gateway_id         = scaleway_vpc_public_gateway.egress.id
  private_network_id = scaleway_vpc_private_network.nodes.id
  enable_masquerade  = true

  ipam_config {
    push_default_route = true
  }
}

resource "scaleway_lb_ip" "ingress" {
  zone = "${var.region}-1"
}
