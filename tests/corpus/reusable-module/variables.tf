variable "name" {
  type = string
}

variable "private_network_id" {
  type = string
}

variable "kubernetes_version" {
  type    = string
  default = "1.31"
}

variable "pools" {
  description = "Node pools by name."
  type = map(object({
    node_type = string
    size      = number
  }))
  default = {}
}
