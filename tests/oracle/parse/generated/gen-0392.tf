x1 = # c
a-b.*.b
a = a-b.*.b # c
