endfor {
  a = 1
}
