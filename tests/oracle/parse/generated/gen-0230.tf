null =
a::b::f() # c
