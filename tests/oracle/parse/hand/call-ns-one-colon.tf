x = a:b()
