x = a.b
