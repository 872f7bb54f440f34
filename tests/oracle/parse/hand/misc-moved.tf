moved {
  from = a.b
  to   = a.c["k"]
}
