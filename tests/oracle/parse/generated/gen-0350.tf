null = !!x[*].y
?[]: 0.5 # c
