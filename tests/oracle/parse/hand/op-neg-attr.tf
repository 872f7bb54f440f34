x = -a.b
