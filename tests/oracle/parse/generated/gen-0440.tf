null {
  k = 1
}

null =a::b::f()
