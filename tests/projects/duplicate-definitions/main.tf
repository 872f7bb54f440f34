provider "scaleway" {
  region = "fr-par"
  zone   = "fr-par-1"
}

resource "scaleway_vpc_private_network" "nodes" {
  name = "kapsule-nodes"
}

resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  type                        = "kapsule"
  version                     = "1.34"
  cni                         = "cilium"
  private_network_id          = scaleway_vpc_private_network.nodes.id
  delete_additional_resources = false
}

# The same address again (Terraform refuses the module): judged on its own, at its own lines.
resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  type                        = "kapsule"
  version                     = "1.34"
  cni                         = "weave"
  delete_additional_resources = true
}

resource "scaleway_k8s_pool" "system" {
  cluster_id  = scaleway_k8s_cluster.main.id
  node_type   = "PRO2-S"
  size        = 3
  autohealing = true

  lifecycle {
    create_before_destroy = true
  }
}
