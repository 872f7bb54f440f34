d-e "l" "l" {
}
a "l" d-e {
  k = 1
}
