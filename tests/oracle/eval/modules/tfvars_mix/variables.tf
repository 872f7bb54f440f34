variable "region" {
  type    = string
  default = "fr-par"
}

variable "node_count" {
  type    = number
  default = 1
}

variable "enabled" {
  type    = bool
  default = false
}

variable "labels" {
  type    = map(string)
  default = {}
}

variable "pools" {
  type = map(list(object({
    zone = string
    size = optional(number, 1)
    tags = optional(set(string), [])
  })))
  default = {}
}

variable "json_only" {
  type    = list(number)
  default = []
}

variable "untyped" {
  default = null
}

variable "validated" {
  type    = string
  default = "ok"
  validation {
    condition     = length(var.validated) < 5
    error_message = "Too long."
  }
}
