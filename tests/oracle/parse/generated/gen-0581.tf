d-e "l" "l" {
}
a "l" if {
  k = 1
}
