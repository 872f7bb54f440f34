# Variables without a default and without a value: the console knows them only after apply.
variable "name" {
  type = string
}
variable "names" {
  type = list(string)
}
variable "settings" {
  type = object({
    size    = number
    enabled = optional(bool, true)
  })
}
variable "untyped" {}
variable "known" {
  type    = string
  default = "known"
}
