a = {
  endif = 1
}
