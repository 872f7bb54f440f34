x = a and b
