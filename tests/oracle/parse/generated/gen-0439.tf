null {
  k = 1
}

d-e =a::b::f()
