locals {
  nodes_subnet = "172.16.8.0/22"

  common_tags = ["env=${var.environment}", "managed-by=terraform"]
}
