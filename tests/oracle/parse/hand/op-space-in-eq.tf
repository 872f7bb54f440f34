a = x = = y
