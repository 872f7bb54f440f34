b_c = # c
f(!"a${x}b").*
x1 = /* c */ p::f() # c
