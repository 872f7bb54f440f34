variable "x" {
  type = object({
    a = optional(string, "d")
    b = list(map(number))
  })
}
