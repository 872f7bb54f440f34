b_c é "l" {
  k = 1
}
x1 = # c
p::f() # c
||
x.0
?for:
x.y
for = /* c */ {k = "${"}