x = f-g(1)
