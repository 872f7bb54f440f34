for_each {
  a = 1
}
