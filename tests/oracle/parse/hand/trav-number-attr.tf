a = 1.x
