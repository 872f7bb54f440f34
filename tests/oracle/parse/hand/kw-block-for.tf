for {
  a = 1
}
