for = # c
[for x in 1e3 : 1]
