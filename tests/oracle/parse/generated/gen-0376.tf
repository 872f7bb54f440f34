for = # c
[for for in a::b::f() : 1] 