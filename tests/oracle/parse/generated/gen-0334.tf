b_c =
a::b::f()
in =
a::b::f()