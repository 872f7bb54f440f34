resource "a" "b" {
  count = var.enabled ? 1 : 0
}
