locals {
  a = "${var.x}-${var.y}"
  b = "%{ if var.z }z%{ endif }"
}
