a = b.*.c[*].d
