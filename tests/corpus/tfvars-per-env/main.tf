terraform {
  backend "s3" {
    bucket                      = "tfstate-prod"
    key                         = "kapsule.tfstate"
    region                      = "fr-par"
    endpoint                    = "https://s3.fr-par.scw.cloud"
    skip_credentials_validation = true
    skip_region_validation      = true
  }
}

provider "scaleway" {}

variable "environment" {
  type = string
}

variable "cluster_version" {
  type = string
}

variable "auto_upgrade" {
  type    = bool
  default = true
}

variable "cleanup_on_destroy" {
  type    = bool
  default = false
}

resource "scaleway_vpc_private_network" "nodes" {
  name = "${var.environment}-nodes"
}

resource "scaleway_k8s_cluster" "main" {
  name                        = var.environment
  version                     = var.cluster_version
  cni                         = "cilium"
  private_network_id          = scaleway_vpc_private_network.nodes.id
  delete_additional_resources = var.cleanup_on_destroy

  auto_upgrade {
    enable                        = var.auto_upgrade
    maintenance_window_start_hour = 3
    maintenance_window_day        = "any"
  }
}
