b_c {
  k = 1
}
