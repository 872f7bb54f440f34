for {
  k = 1
}
