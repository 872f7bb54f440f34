in {
  a = 1
}
