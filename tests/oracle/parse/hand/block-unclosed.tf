a {
  b = 1
