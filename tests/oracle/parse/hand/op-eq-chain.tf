x = a == b == c
