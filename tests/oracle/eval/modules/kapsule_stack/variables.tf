variable "cluster" {
  type = object({
    name    = string
    version = optional(string, "1.31")
    cni     = optional(string, "cilium")
    autoupgrade = optional(object({
      enable                        = optional(bool, false)
      maintenance_window_start_hour = optional(number, 3)
      maintenance_window_day        = optional(string, "any")
    }), {})
    autoscaler = optional(object({
      disable_scale_down = optional(bool)
      scale_down_delay   = optional(string, "10m")
      expander           = optional(string, "random")
    }))
    tags = optional(set(string), [])
  })
}

variable "pools" {
  type = list(object({
    name        = string
    node_type   = optional(string, "PRO2-S")
    size        = optional(number, 1)
    min_size    = optional(number)
    max_size    = optional(number)
    autoscaling = optional(bool, false)
    zones       = optional(list(string), ["fr-par-1"])
    kubelet_args = optional(map(string), {})
    taints = optional(list(object({
      key    = string
      value  = optional(string, "")
      effect = optional(string, "NoSchedule")
    })), [])
  }))
  default = []
}

variable "helm" {
  type = map(object({
    chart   = string
    version = optional(string)
    values  = optional(any, {})
    enabled = optional(bool, true)
  }))
  default = {}
}

variable "ports" {
  type    = list(number)
  default = ["80", 443]
}

variable "flags" {
  type    = map(bool)
  default = { a = "true", b = false }
}

variable "ids" {
  type    = set(string)
  default = [3, 1, "2", 1]
}

variable "count_str" {
  type    = string
  default = 5
}

variable "raw" {
  default = { a = [1, "x"], b = { c = null } }
}

variable "tuple_typed" {
  type    = tuple([string, number, bool])
  default = [1, "2", "true"]
}

variable "nullable_false" {
  type     = string
  nullable = false
  default  = "d"
}

variable "nullable_true" {
  type    = string
  default = "d"
}

variable "nested_map" {
  type = map(map(list(string)))
  default = {
    a = { x = ["1", 2] }
  }
}
