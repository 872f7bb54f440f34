x = a.b-c
