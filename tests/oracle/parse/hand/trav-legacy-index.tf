x = a.0
