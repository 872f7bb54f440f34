for = # c
[for for in 1 : 1] 