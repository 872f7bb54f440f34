x1 =
[for x in a::b::f() : /* c */ a::b::f()]
