terraform {
  required_version = ">= 1.5"
  required_providers {
    scaleway = {
      source  = "scaleway/scaleway"
      version = "~> 2.40"
    }
    helm = {
      source  = "hashicorp/helm"
      version = ">= 2.12, < 3.0"
    }
    null = { source = "hashicorp/null" }
  }
  backend "s3" {
    bucket                      = "tfstate-${"prod"}" # not allowed in real backends, parses
    key                         = "kapsule/terraform.tfstate"
    region                      = "fr-par"
    endpoints                   = { s3 = "https://s3.fr-par.scw.cloud" }
    skip_credentials_validation = true
  }
}

provider "scaleway" {
  zone   = var.zone
  region = "fr-par"
}

variable "zone" {
  type    = string
  default = "fr-par-
1"
  validation {
    condition     = can(regex("^fr-par-[1-3]$", var.zone))
    error_message = "The zone must be one of fr-par-1..3, got ${var.zone}."
  }
}

variable "pools" {
  type = map(object({
    node_type = string
    size      = optional(number, 3)
    autoscale = optional(bool, false)
    tags      = optional(list(string), [])
  }))
  default = {
    default = { node_type = "PRO2-S" }
    ingress = { node_type = "PRO2-XS", size = 2, tags = ["ingress", "lb"] }
  }
}

locals {
  name   = "prod-${var.zone}"
  labels = merge({ env = "prod" }, { for k, v in var.pools : "pool-${k}" => v.node_type })
  sizes  = [for p in values(var.pools) : p.size if p.autoscale == false]
  total  = sum(concat(local.sizes, [0])) * 2 + 1 - -1 % 3
  flags  = !var.pools["default"].autoscale && length(local.sizes) >= 1 || false
  first  = try(local.sizes[0], null)
  names  = var.pools[*].node_type
  legacy = local.sizes.0
}

resource "scaleway_vpc_private_network" "pn" {
  name = "${local.name}-pn"
}

resource "scaleway_k8s_cluster" "this" {
  name                        = local.name
  version                     = "1.31"
  cni                         = "cilium"
  private_network_id          = scaleway_vpc_private_network.pn.id
  delete_additional_resources = false
  autoscaler_config {
    disable_scale_down         = false
    scale_down_delay_after_add = "5m"
  }
  auto_upgrade {
    enable                        = true
    maintenance_window_start_hour = 3
    maintenance_window_day        = "sunday"
  }
}

resource "scaleway_k8s_pool" "pools" {
  for_each    = var.pools
  cluster_id  = scaleway_k8s_cluster.this.id
  name        = each.key
  node_type   = each.value.node_type
  size        = each.value.size
  autoscaling = each.value.autoscale
  min_size    = each.value.autoscale ? 1 : null
  max_size    = each.value.autoscale ? each.value.size * 2 : null
  tags        = concat(each.value.tags, ["managed"])
  lifecycle {
    create_before_destroy = true
    ignore_changes        = [size]
  }
}

resource "helm_release" "ingress" {
  name       = "ingress-nginx"
  repository = "https://kubernetes.github.io/ingress-nginx"
  chart      = "ingress-nginx"
  version    = "4.11.3"
  values = [<<-YAML
    controller:
      replicaCount: ${var.pools["ingress"].size}
      nodeSelector:
        k8s.scaleway.com/pool-name: ingress
      service:
        annotations:
          service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2: "true"
          service.beta.kubernetes.io/scw-loadbalancer-zone: "${var.zone}"
      config:
        use-proxy-protocol: "true"
    %{ for k, v in local.labels ~}
        ${k}: ${v}
    %{ endfor ~}
    YAML
  ]
  dynamic "set" {
    for_each = { "controller.metrics.enabled" = "true", "controller.kind" = "Deployment" }
    iterator = s
    content {
      name  = s.key
      value = s.value
    }
  }
  set_sensitive {
    name  = "secret"
    value = sensitive("x")
  }
}

module "dns" {
  source  = "./modules/dns"
  count   = var.zone == "fr-par-1" ? 1 : 0
  records = { for i, n in ["a", "b"] : n => i... }
  providers = {
    scaleway = scaleway
  }
}

output "kubeconfig" {
  value     = scaleway_k8s_cluster.this.kubeconfig[0].config_file
  sensitive = true
}

output "endpoints" {
  value = [
    for p in scaleway_k8s_pool.pools :
    p.id
  ]
}
