a = {
  k = 1 # c
  l = 2 // d
}
