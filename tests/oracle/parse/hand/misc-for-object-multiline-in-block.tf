a {
  b = {
    for k, v in m :
    k => v
  }
}
