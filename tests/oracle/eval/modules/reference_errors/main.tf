# References to what the module does not declare (the console needs no init: no module calls).
variable "known" {
  type    = string
  default = "k"
}

locals {
  name = "web"
}
