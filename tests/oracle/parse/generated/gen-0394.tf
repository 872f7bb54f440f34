x1 = # c
for.null
