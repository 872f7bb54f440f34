x = a.b.0
