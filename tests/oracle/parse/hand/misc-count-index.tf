resource "a" "b" {
  count = 2
  name  = "n-${count.index}"
}
