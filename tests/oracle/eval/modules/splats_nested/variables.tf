# Typed collections for splats after splats: lists, sets and maps of objects whose attributes are
# lists, sets, objects or null, typed nulls, and a value known only after apply.
variable "pools" {
  type = list(object({
    name  = string
    nodes = list(object({
      id   = string
      tags = list(string)
    }))
    labels = map(string)
    zones  = optional(set(string))
  }))
}

variable "groups" {
  type = set(object({
    name    = string
    members = list(string)
  }))
}

variable "grid" {
  type = list(list(list(number)))
}

variable "by_name" {
  type = map(object({
    ports = list(number)
  }))
}

variable "null_list" {
  type    = list(string)
  default = null
}

variable "null_objects" {
  type = list(object({
    items = list(string)
  }))
}

variable "empty_pools" {
  type = list(object({
    nodes = list(object({
      id = string
    }))
  }))
  default = []
}

variable "single" {
  type = object({
    nodes = list(object({
      id = string
    }))
  })
}

variable "later" {
  type = list(object({
    items = list(string)
  }))
}

variable "anything" {
  type = any
}
