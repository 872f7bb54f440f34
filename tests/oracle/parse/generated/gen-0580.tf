d-e "l" if {
}
a "l" if {
  k = 1
}
