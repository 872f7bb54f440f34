moved {
  from = scaleway_k8s_pool.old
  to   = scaleway_k8s_pool.new["a"]
}
