b_c = # c
f(!"a${x}b").*
b_c = # c
f(!"a${x}b").* # c
