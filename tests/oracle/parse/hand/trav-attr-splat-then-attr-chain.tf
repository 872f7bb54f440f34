x = a.*.b.c
