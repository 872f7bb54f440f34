variable "labels" {
  type = map(string)
}

variable "limits" {
  type = map(number)
}

variable "groups" {
  type    = map(list(string))
  default = {}
}

variable "nested" {
  type = map(map(bool))
  default = {
    a = { x = "true", y = false }
  }
}

variable "empty" {
  type    = map(string)
  default = {}
}
