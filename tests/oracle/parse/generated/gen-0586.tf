null = 1e3 ?1: x?-1: -1
