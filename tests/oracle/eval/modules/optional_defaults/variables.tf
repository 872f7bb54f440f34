variable "settings" {
  type = object({
    name    = string
    enabled = optional(bool, true)
    size    = optional(number)
    tags    = optional(map(string), {})
    nested = optional(object({
      a = optional(string, "x")
      b = optional(list(number), [1])
      c = optional(object({
        deep = optional(bool, false)
      }), {})
    }), {})
  })
}

variable "pools" {
  type = map(object({
    size        = optional(number, 1)
    autoscaling = optional(bool, false)
    labels      = optional(map(string))
    taints      = optional(list(string), [])
  }))
  default = {
    default = {}
  }
}

variable "maybe" {
  type = object({
    a = optional(string)
  })
  default = null
}

variable "defaulted" {
  type = object({
    mode  = optional(string, "auto")
    count = optional(number, 3)
  })
  default = {}
}
