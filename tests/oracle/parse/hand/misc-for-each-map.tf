resource "a" "b" {
  for_each = { for k, v in var.m : k => v if v.enabled }
}
