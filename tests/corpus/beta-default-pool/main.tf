provider "scaleway" {
  zone   = "fr-par-1"
  region = "fr-par"
}

resource "scaleway_k8s_cluster_beta" "legacy" {
  name    = "legacy"
  version = "1.31"
  cni     = "cilium"

  delete_additional_resources = false

  auto_upgrade {
    enable                        = true
    maintenance_window_start_hour = 5
    maintenance_window_day        = "saturday"
  }

  default_pool {
    node_type   = "DEV1-M"
    size        = 1
    autohealing = true
  }
}

resource "scaleway_k8s_pool_beta" "extra" {
  cluster_id = scaleway_k8s_cluster_beta.legacy.id
  name       = "extra"
  node_type  = "gp1_xs"
  size       = 1
}
