variable "pools" {
  type = map(object({
    size   = number
    taints = optional(list(string), [])
  }))
  default = {
    infra = { size = 2, taints = ["dedicated=infra:NoSchedule"] }
    apps  = { size = 3 }
  }
}

locals {
  ingress_values = templatefile("${path.module}/templates/ingress.yaml.tftpl", {
    replicas = 2
    pool     = "infra"
    annotations = {
      "service.beta.kubernetes.io/scw-loadbalancer-zone" = "fr-par-1"
      "service.beta.kubernetes.io/scw-loadbalancer-type" = "LB-S"
    }
    extra_args = ["--enable-ssl-passthrough"]
  })
  pools_doc   = templatefile("templates/pools.tftpl", { pools = var.pools })
  chart_files = fileset("${path.module}/charts", "**")
  values_yaml = yamldecode(file("charts/ingress/values.yaml"))
  merged      = merge(local.values_yaml, yamldecode(local.ingress_values))
}
