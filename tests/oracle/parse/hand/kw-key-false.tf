a = {
  false = 1
}
