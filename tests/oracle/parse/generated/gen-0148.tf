b_c for {
  k = 1
}

b_c for {
  k = 1
}
a = 0.5
