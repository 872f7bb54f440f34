variable "services" {
  type = map(object({
    port    = optional(number, 80)
    expose  = optional(bool, false)
    headers = optional(map(string), { "x-env" = "prod" })
    probes = optional(list(object({
      path     = optional(string, "/healthz")
      interval = optional(number, 10)
    })), [{}])
    limits = optional(object({
      cpu    = optional(string, "100m")
      memory = optional(string)
    }), { memory = "64Mi" })
  }))
}

variable "explicit_null" {
  type = object({
    a = optional(string, "default-a")
    b = optional(list(string), ["x"])
    c = optional(string)
  })
}

variable "list_any" {
  type    = list(any)
  default = [1, "a", true]
}

variable "map_any" {
  type    = map(any)
  default = { a = 1, b = "x" }
}

variable "map_any_objects" {
  type    = map(any)
  default = { a = { x = 1 }, b = { x = "y" } }
}

variable "any_obj" {
  type    = any
  default = { list = [1, 2], str = "s" }
}

variable "set_objects" {
  type = set(object({
    name = string
    size = optional(number, 1)
  }))
  default = [{ name = "b" }, { name = "a", size = 2 }, { name = "b", size = 1 }]
}

variable "nonnull_obj" {
  type = object({
    x = optional(number, 1)
  })
  nullable = false
  default  = {}
}

variable "from_cli" {
  type    = list(object({ k = string, v = optional(string, "v") }))
  default = []
}

variable "num_from_cli" {
  type    = number
  default = 0
}

variable "untyped_cli" {
  default = "none"
}
