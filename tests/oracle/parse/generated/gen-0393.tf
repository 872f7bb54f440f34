x1 = # c
a-b.*.b
