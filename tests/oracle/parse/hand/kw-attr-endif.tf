endif = 1
