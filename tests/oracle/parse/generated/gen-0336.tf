b_c =
a::b::f(1)