a = {
  for_each = 1
}
