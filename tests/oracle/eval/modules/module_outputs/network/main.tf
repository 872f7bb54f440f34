variable "zone" {
  type    = string
  default = "fr-par-1"
}

output "private_network_name" {
  value = "nodes-${var.zone}"
}

output "subnet" {
  value = { cidr = "172.16.0.0/22", zone = var.zone }
}
