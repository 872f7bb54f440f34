x1 =
[for x in a::b::f() :
a::b::f()]
