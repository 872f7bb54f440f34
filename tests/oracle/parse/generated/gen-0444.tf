null {
  k = 1
}

