b_c = - -p::f(1) # c
null = # c
- -p::f(1)

null b_c {
}

