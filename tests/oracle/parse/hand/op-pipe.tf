x = a | b
