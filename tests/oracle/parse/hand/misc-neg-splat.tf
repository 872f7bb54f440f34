a = -b.*.c
