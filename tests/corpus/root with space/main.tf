provider "scaleway" {}

locals {
  wipe = true
}

resource "scaleway_vpc_private_network" "pn" {
  name = "space"
}

resource "scaleway_k8s_cluster" "main" {
  name                        = "space"
  version                     = "1.31"
  cni                         = "cilium"
  private_network_id          = scaleway_vpc_private_network.pn.id
  delete_additional_resources = local.wipe

  auto_upgrade {
    enable                        = true
    maintenance_window_start_hour = 3
    maintenance_window_day        = "any"
  }
}
