a = {
  if = 1
}
