for = # c
p::f() /* c */ != /* c */ 1
d-e
{ k = 1 }
d-e
{ k = 1 }

