true {
  a = 1
}
