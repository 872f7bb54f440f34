for = 1
