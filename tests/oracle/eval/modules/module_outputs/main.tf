# Calls of a local module with outputs: once, with count, with for_each, with count = 0.
module "network" {
  source = "./network"
}

module "zones" {
  source = "./network"
  count  = 2
  zone   = "fr-par-${count.index + 1}"
}

module "by_zone" {
  source   = "./network"
  for_each = toset(["fr-par-1", "nl-ams-1"])
  zone     = each.key
}

module "disabled" {
  source = "./network"
  count  = 0
}

locals {
  cluster = { name = "prod", version = "1.31" }
  labels  = tomap({ pool = "apps" })
}
