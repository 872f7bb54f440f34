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
  default = "fr-par-1"
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
  private_network_id          = scaleway_vpc_private_networ