é = a::b::f(false...)
