b_c =
p::f()
