a = {
  endfor = 1
}
