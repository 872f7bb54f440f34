variable "x" {
  type = map(object({
    a = optional(list(object({ b = string })), [])
    c = optional(tuple([string, number]))
  }))
}
