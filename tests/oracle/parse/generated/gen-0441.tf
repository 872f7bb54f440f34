null {
  k = 1
}

null =f()