b_c {
  k = 1
}

b_c {
  k = 1
}
