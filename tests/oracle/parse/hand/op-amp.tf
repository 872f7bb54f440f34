x = a & b
