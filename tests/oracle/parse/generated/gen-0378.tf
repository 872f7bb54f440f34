a = 1.a
