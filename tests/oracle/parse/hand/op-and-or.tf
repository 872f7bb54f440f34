x = a && b || c
