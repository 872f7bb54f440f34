a { # c
  b = 1
}
