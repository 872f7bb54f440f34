locals {
  pool_map      = { for p in var.pools : p.name => p }
  autoscaled    = [for p in var.pools : p.name if p.autoscaling]
  pool_zones    = flatten([for p in var.pools : [for z in p.zones : { pool = p.name, zone = z }]])
  zone_keys     = { for pz in local.pool_zones : "${pz.pool}-${pz.zone}" => pz }
  taint_strings = { for p in var.pools : p.name => [for t in p.taints : "${t.key}=${t.value}:${t.effect}"] }
  enabled_helm  = { for k, v in var.helm : k => v if v.enabled }
  helm_values   = { for k, v in local.enabled_helm : k => yamlencode(v.values) }
  total_nodes   = sum([for p in var.pools : p.size])
  max_nodes     = max([for p in var.pools : coalesce(p.max_size, p.size)]...)
  subnets       = { for i, p in var.pools : p.name => cidrsubnet("172.16.0.0/16", 8, i) }
  labels = merge(
    { "app.kubernetes.io/managed-by" = "terraform" },
    { cluster = var.cluster.name },
  )
  pool_tags = { for p in var.pools : p.name => concat(tolist(var.cluster.tags), ["pool=${p.name}"]) }
  rendered  = <<-EOT
    pools:
    %{~ for p in var.pools }
      - name: ${p.name}
        size: ${p.size}
    %{~ endfor }
    EOT
}
