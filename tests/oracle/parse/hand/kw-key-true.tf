a = {
  true = 1
}
