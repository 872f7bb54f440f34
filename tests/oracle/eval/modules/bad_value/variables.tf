# A value that does not convert to its type: Terraform rejects the whole configuration.
variable "n" {
  type = number
}
variable "ok" {
  type    = string
  default = "fine"
}
