variable "env" {
  type    = string
  default = "prod"
}

variable "node_types" {
  type = map(string)
  default = {
    prod    = "PRO2-S"
    staging = "DEV1-M"
  }
}

locals {
  prefix      = "k8s-${var.env}"
  node_type   = lookup(var.node_types, var.env, "DEV1-S")
  pools       = { for i, z in ["fr-par-1", "fr-par-2"] : z => { name = "${local.prefix}-${i}", type = local.node_type } }
  pool_names  = [for z, p in local.pools : p.name]
  by_type     = { for z, p in local.pools : p.type => z... }
  is_shared   = can(regex("^(DEV1|PLAY2|STARDUST)", local.node_type))
  cidrs       = cidrsubnets("172.16.0.0/16", 4, 4, 8)
  annotations = merge({ "service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2" = "true" }, { zone = keys(local.pools)[0] })
  values      = yamlencode({ controller = { replicaCount = length(local.pools), nodeSelector = { pool = local.pool_names[0] } } })
  decoded     = yamldecode(local.values)
  maybe_null  = var.env == "prod" ? null : "x"
  defaulted   = coalesce(local.maybe_null, "fallback")
}
