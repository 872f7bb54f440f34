resource "scaleway_k8s_cluster" "main" {
  name                        = "${var.environment}-kapsule"
  type                        = "kapsule-dedicated-4"
  version                     = var.kubernetes_version
  cni                         = "cilium"
  private_network_id          = scaleway_vpc_private_network.nodes.id
  delete_additional_resources = false
  tags                        = local.common_tags

  auto_upgrade {
    enable                        = true
    maintenance_window_start_hour = 3
    maintenance_window_day        = "sunday"
  }

  depends_on = [scaleway_vpc_gateway_network.nodes]
}

# Only the office and the CI runners reach the API server.
resource "scaleway_k8s_acl" "main" {
  cluster_id = scaleway_k8s_cluster.main.id

  acl_rules {
    ip          = "203.0.113.0/24"
    description = "office"
  }

  acl_rules {
    scaleway_ranges = true
    description     = "CI runners on Scaleway"
  }
}
