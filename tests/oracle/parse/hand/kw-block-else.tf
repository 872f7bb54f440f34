else {
  a = 1
}
