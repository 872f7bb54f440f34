a = 1 # c
