false {
  a = 1
}
