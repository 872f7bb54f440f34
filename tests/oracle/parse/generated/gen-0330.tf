é = a::b::f(false,false...)
