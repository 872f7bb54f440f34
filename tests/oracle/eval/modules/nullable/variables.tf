variable "not_nullable" {
  type     = string
  default  = "fallback"
  nullable = false
}

variable "nullable_default" {
  type    = string
  default = "fallback"
}

variable "not_nullable_list" {
  type     = list(string)
  default  = ["a"]
  nullable = false
}

variable "nested_null" {
  type = object({
    a = optional(string, "x")
  })
  default  = { a = "y" }
  nullable = false
}

variable "null_attr" {
  type = object({
    a = optional(string, "x")
  })
}
