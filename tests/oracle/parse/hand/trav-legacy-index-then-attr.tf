x = a.0.b
