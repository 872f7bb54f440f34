resource "a" "b" {
  lifecycle {
    create_before_destroy = true
    ignore_changes        = [tags, name]
  }
}
