a = 1a
