false = 1
