ab- = 1
