import {
  for_each = var.ids
  to       = scaleway_k8s_pool.p[each.key]
  id       = each.value
}
