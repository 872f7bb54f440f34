b_c = # c
f(f(x...).*.b - p::f(1),( # c
[true ] # c
),"".*,)
null = a::b::f() /* c */ ?"$${x}"
?for: -1: p::f()
