a {
  b = 1
} // end