a b.c {}
