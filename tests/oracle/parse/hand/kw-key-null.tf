a = {
  null = 1
}
