x = a.*.b.*.c
