b_c é "l" {
  k = 1
}
