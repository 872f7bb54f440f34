a = b - c
