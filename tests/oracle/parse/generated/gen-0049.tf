for = # c
p::f() /* c */ != /* c */ 1
d-e
{ k = 1 }
x1 "l" {}

