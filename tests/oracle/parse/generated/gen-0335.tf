b_c =
a::b::f()
b_c =
a::b::f()