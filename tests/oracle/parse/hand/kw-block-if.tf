if {
  a = 1
}
