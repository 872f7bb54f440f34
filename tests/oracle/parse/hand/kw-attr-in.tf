in = 1
