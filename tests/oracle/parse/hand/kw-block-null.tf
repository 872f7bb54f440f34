null {
  a = 1
}
