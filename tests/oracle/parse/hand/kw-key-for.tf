a = {
  for = 1
}
