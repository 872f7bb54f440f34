for = 1 == 1e3
