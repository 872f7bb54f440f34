resource "a" "b" {
  dynamic "c" {
    for_each = var.l
    content {
      d = c.value
    }
  }
}
