variable "ports" {
  type = list(object({
    name     = string
    port     = number
    protocol = optional(string, "TCP")
    expose   = optional(bool)
  }))
  default = [
    { name = "http", port = 80 },
  ]
}

variable "rules" {
  type = list(object({
    cidr  = string
    ports = list(number)
  }))
}

variable "matrix" {
  type    = list(list(string))
  default = [["a", 1], [true]]
}

variable "tuple_like" {
  type    = tuple([string, number, bool])
  default = ["a", "2", "true"]
}
