x1 = 1.a.a
