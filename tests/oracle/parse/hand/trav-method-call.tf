x = a.b()
