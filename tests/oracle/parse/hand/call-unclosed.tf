x = f(1
