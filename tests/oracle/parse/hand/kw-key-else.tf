a = {
  else = 1
}
