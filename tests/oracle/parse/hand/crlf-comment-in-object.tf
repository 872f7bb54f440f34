a = {
  b = 1 # one
  // two
  c = 2 /* three */
}
