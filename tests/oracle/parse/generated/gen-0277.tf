b_c = # c
- -p::f(1) # c
null = # c
- -p::f(1)

null /* c */ null /* c */ "a\nb" /* c */ {}
