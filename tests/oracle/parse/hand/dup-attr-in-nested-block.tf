b {
  c {
    a = 1
    a = 1
  }
}
