b_c = # c
- -p::f(1) # c
null = # c
- -p::f(1)

a {
}
