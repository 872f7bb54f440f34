x = [for = 1]
