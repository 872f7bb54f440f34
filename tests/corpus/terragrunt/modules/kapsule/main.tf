terraform {
  backend "s3" {}
}

variable "name" {
  type = string
}

variable "private_network_id" {
  type = string
}

resource "scaleway_k8s_cluster" "this" {
  name                        = var.name
  version                     = "1.31"
  cni                         = "cilium"
  private_network_id          = var.private_network_id
  delete_additional_resources = false

  auto_upgrade {
    enable                        = true
    maintenance_window_start_hour = 3
    maintenance_window_day        = "any"
  }
}
