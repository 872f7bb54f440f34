null "" {
  k = 1
}
