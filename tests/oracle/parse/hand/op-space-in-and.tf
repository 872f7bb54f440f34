a = x & & y
