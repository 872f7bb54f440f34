b_c é "l" {
  k = 1
}
x1 = # c
p::f() # c
||
x.0
?for:
0.5
for = /* c */ {k = "${"}