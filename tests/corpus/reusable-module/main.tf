resource "scaleway_k8s_cluster" "this" {
  name                        = var.name
  version                     = var.kubernetes_version
  cni                         = "cilium"
  private_network_id          = var.private_network_id
  delete_additional_resources = false

  auto_upgrade {
    enable                        = true
    maintenance_window_start_hour = 2
    maintenance_window_day        = "any"
  }
}

resource "scaleway_k8s_pool" "this" {
  for_each = var.pools

  cluster_id  = scaleway_k8s_cluster.this.id
  name        = each.key
  node_type   = each.value.node_type
  size        = each.value.size
  autohealing = true

  lifecycle {
    create_before_destroy = true
  }
}
