x = a.b.c
