b_c é "l" {
  k = 1
}
b_c = false
