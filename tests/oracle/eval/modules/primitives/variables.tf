variable "n" {
  type = number
}
variable "n_float" {
  type = number
}
variable "b" {
  type = bool
}
variable "s_from_number" {
  type = string
}
variable "s_from_bool" {
  type = string
}
variable "ln" {
  type = list(number)
}
variable "lb" {
  type = list(bool)
}
variable "untyped" {
  default = "x"
}
variable "untyped_list" {
}
variable "big" {
  type = number
}
