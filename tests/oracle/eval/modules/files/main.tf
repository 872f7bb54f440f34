locals {
  greeting = templatefile("${path.module}/greeting.tftpl", { name = "kapsule", ports = [80, 443] })
}
