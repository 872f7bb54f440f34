endif {
  a = 1
}
