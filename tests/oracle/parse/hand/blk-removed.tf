removed {
  from = scaleway_k8s_pool.p
  lifecycle {
    destroy = false
  }
}
