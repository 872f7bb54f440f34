provider "scaleway" {}

resource "scaleway_vpc_private_network" "pn" {
  name = "prod"
}

resource "scaleway_k8s_cluster" "prod" {
  name                        = "prod"
  version                     = "1.31"
  cni                         = "cilium"
  private_network_id          = scaleway_vpc_private_network.pn.id
  delete_additional_resources = false

  auto_upgrade {
    enable                        = true
    maintenance_window_start_hour = 3
    maintenance_window_day        = "any"
  }
}
