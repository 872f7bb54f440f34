true = # c
[for x in ( 1
) : 1.5e-3]
