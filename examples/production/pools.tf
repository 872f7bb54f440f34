# Ingress and cluster add-ons run here: dedicated vCPUs, no CPU steal.
resource "scaleway_k8s_pool" "system" {
  cluster_id  = scaleway_k8s_cluster.main.id
  name        = "system"
  node_type   = "POP2-4C-16G"
  size        = 2
  min_size    = 2
  max_size    = 3
  autoscaling = true
  autohealing = true
  tags        = concat(local.common_tags, ["noprefix=workload=system"])

  lifecycle {
    create_before_destroy = true
  }
}

# Stateless application pods.
resource "scaleway_k8s_pool" "apps" {
  cluster_id  = scaleway_k8s_cluster.main.id
  name        = "apps"
  node_type   = var.apps_node_type
  size        = 3
  min_size    = 3
  max_size    = 10
  autoscaling = true
  autohealing = true
  tags        = local.common_tags
}
