variable "a" {
  type    = string
  default = "default"
}
variable "b" {
  type    = string
  default = "default"
}
variable "c" {
  type    = string
  default = "default"
}
variable "d" {
  type    = string
  default = "default"
}
variable "e" {
  type    = string
  default = "default"
}
variable "list" {
  type    = list(string)
  default = []
}
variable "obj" {
  type = object({
    x = optional(number, 1)
    y = optional(string, "y")
  })
  default = {}
}
