a = {
  in = 1
}
