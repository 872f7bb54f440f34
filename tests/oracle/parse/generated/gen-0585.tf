null = a::b::f() /* c */ ?"$${x}"
?for: -1: p::f()
null = a::b::f() /* c */ ?"$${x}"
?for: -1: p::f(1) /* c
 */
