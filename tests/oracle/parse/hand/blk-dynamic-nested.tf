resource "x" "y" {
  dynamic "a" {
    for_each = var.a
    content {
      dynamic "b" {
        for_each = a.value.b
        content {
          c = b.value
        }
      }
    }
  }
}
