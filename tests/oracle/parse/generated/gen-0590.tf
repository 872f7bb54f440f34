in = p::f() # c
true = /* c */ a::b::f() in = p::f() # c
