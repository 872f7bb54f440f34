for = 0.5
